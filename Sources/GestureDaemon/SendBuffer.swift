/// A client's bytes waiting to be sent: `bytes[offset..<count]`, in storage that keeps its size.
/// Emptying it only resets two counters (an array's `removeAll(keepingCapacity:)` is a general
/// `replaceSubrange` call): the socket path empties one per send.
struct SendBuffer {
    private var storage: [UInt8] = []
    /// End of the bytes not yet sent.
    private(set) var count = 0
    /// Start of the bytes not yet sent.
    private(set) var offset = 0

    /// Bytes of storage held.
    var capacity: Int { storage.count }

    /// Bytes waiting.
    var pending: Int { count - offset }
    var isEmpty: Bool { offset >= count }

    /// Forgets everything (sent or not), keeping the storage.
    mutating func clear() { count = 0; offset = 0 }

    /// `n` more bytes were sent.
    mutating func consumed(_ n: Int) { offset += n }

    /// Appends `bytes`, growing the storage when they do not fit.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        let end = count + bytes.count
        if end > storage.count {
            storage.append(contentsOf: repeatElement(0, count: Swift.max(end - storage.count, storage.count)))
        }
        storage.withUnsafeMutableBufferPointer { s in
            UnsafeMutableRawPointer(s.baseAddress! + count).copyMemory(from: from, byteCount: bytes.count)
        }
        count = end
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// The bytes waiting, for one send.
    func withPending<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        storage.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[offset..<count])) }
    }
}
