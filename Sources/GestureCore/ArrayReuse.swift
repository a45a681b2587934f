extension Array {
    /// Empties the array and keeps its buffer, for the scratch arrays the per-frame path reuses.
    /// `removeAll(keepingCapacity: true)` goes through the general `replaceSubrange`; popping
    /// the few elements a frame holds costs less.
    @inline(__always)
    mutating func removeAllKeepingBuffer() {
        while !isEmpty { removeLast() }
    }
}
