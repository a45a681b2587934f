// Clocks, percentiles and the one output format: `name: value unit`.
#if canImport(Glibc)
import Glibc
#endif
import LinuxSystem

/// CLOCK_MONOTONIC in nanoseconds: the benchmark's measuring clock, finer than the daemon's
/// `Instant` (LinuxSystem's MonotonicClock, microseconds), since a frame takes a few µs.
@inline(__always) func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// The p-th percentile (0…100) of `samples` by nearest rank.
func percentile(_ samples: [Double], _ p: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// Formats with at most `digits` decimals, dropping trailing zeros.
func format(_ v: Double, digits: Int = 2) -> String {
    if v.isNaN { return "nan" }
    if abs(v) >= 1_000_000 || digits == 0 { return String(Int64(v.rounded())) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (v * scale).rounded() / scale
    var s = "\(r)"
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
}

/// One figure line on stdout. Flushed at once so a partial run still shows what it measured.
func report(_ name: String, _ value: Double, _ unit: String, digits: Int = 2) {
    writeLine(1, "\(name): \(format(value, digits: digits)) \(unit)")
}

/// A figure that cannot be measured in this build, and why.
func unavailable(_ name: String, _ reason: String) {
    writeLine(1, "\(name): unavailable (\(reason))")
}

/// Progress and diagnostics go to stderr so stdout stays one figure per line.
func note(_ message: String) {
    writeLine(2, "gestured-bench: \(message)")
}

/// Writes one line to a file descriptor, unbuffered (stdout/stderr globals are not Sendable).
func writeLine(_ fd: Int32, _ line: String) {
    var bytes = Array(line.utf8)
    bytes.append(10)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n <= 0 { if SystemError.last == .interrupted { continue }; return }
        offset += n
    }
}

/// Resident set size of a process, kB (VmRSS in /proc/PID/status); nil if unreadable.
func residentKilobytes(pid: pid_t) -> Int? { procStatusField(pid: pid, "VmRSS") }

/// voluntary_ctxt_switches of a process (all threads, summed over /proc/PID/task/*/status).
func voluntaryContextSwitches(pid: pid_t) -> Int? {
    guard let dir = opendir("/proc/\(pid)/task") else { return nil }
    defer { closedir(dir) }
    var total = 0
    var any = false
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        guard let tid = Int32(name) else { continue }
        if let v = readField("/proc/\(pid)/task/\(tid)/status", "voluntary_ctxt_switches") {
            total += v; any = true
        }
    }
    return any ? total : nil
}

func procStatusField(pid: pid_t, _ field: String) -> Int? {
    readField("/proc/\(pid)/status", field)
}

/// The first integer after `field:` in a /proc status file.
private func readField(_ path: String, _ field: String) -> Int? {
    guard let text = readSmallFile(path) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        let digits = line.dropFirst(field.count + 1).drop { $0 == " " || $0 == "\t" }.prefix { $0.isNumber }
        return Int(digits)
    }
    return nil
}

func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
        if n <= 0 { break }
        bytes += buf[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
