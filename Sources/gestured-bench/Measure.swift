// Clocks, percentiles and the one output format: `name: value unit`.
import LinuxSystem

/// CLOCK_MONOTONIC in nanoseconds: the benchmark's measuring clock, finer than the daemon's
/// `Instant` (LinuxSystem's MonotonicClock, microseconds), since a frame takes a few µs.
@inline(__always) func nowNanoseconds() -> UInt64 { MonotonicClock.nanoseconds() }

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
    try? FileDescriptor(rawValue: fd).writeAll(Array(line.utf8) + [10])
}

/// Resident set size of a process, kB (VmRSS in /proc/PID/status); nil if unreadable.
func residentKilobytes(pid: Int32) -> Int? { procStatusField(pid: pid, "VmRSS") }

/// voluntary_ctxt_switches of a process (all threads, summed over /proc/PID/task/*/status).
func voluntaryContextSwitches(pid: Int32) -> Int? {
    guard let names = FileContents.names(inDirectory: "/proc/\(pid)/task") else { return nil }
    var total = 0
    var any = false
    for name in names {
        guard let tid = Int32(name) else { continue }
        if let v = readField("/proc/\(pid)/task/\(tid)/status", "voluntary_ctxt_switches") {
            total += v; any = true
        }
    }
    return any ? total : nil
}

func procStatusField(pid: Int32, _ field: String) -> Int? {
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
    (try? FileContents.bytes(of: path, maximumBytes: 1 << 24)).map { String(decoding: $0, as: UTF8.self) }
}
