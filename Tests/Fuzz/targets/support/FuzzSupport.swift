// Shared helpers for the fuzz entries: a cursor over the fuzzer's bytes and a failure that
// libFuzzer records as a crash (with the input saved as a reproducer).

/// Reads integers from the fuzzer's input; past the end every read is 0.
struct ByteReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: size)
    }
    var isAtEnd: Bool { offset >= bytes.count }
    mutating func u8() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
    mutating func i32() -> Int32 { Int32(bitPattern: UInt32(u16()) | UInt32(u16()) << 16) }
    mutating func rest() -> [UInt8] {
        guard offset < bytes.count else { return [] }
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}

/// Input bytes as text (invalid UTF-8 repaired, as the readers see files).
func text(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}

#if canImport(Glibc)
import Glibc
#endif

/// Invariants named in FUZZ_TOLERATE (comma-separated, e.g. `outside-area`) are not enforced:
/// lets a long run go on past a reported, not yet fixed bug. Crashes are never tolerated.
func tolerated(_ invariant: String) -> Bool {
    guard let p = getenv("FUZZ_TOLERATE") else { return false }
    return String(cString: p).split(separator: ",").contains { $0 == invariant }
}

/// An invariant the code under test broke: abort so libFuzzer keeps the input as a crasher.
func violated(_ message: String) -> Never {
    fatalError("fuzz invariant violated: \(message)")
}
