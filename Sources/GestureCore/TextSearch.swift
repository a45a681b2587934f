// Substring search on the standard library alone. `String.contains(_: String)` and
// `firstRange(of:)` come from `_StringProcessing`, which the package leaves out of every module
// (Package.swift: it would link Swift's Regex engine, about 950 kB of code, into the executables).

extension StringProtocol {
    /// The first occurrence of `needle` (compared Character by Character, as `==` on String
    /// compares), or nil. An empty needle is found at the start.
    public func rangeOfText(_ needle: some StringProtocol) -> Range<Index>? {
        guard let head = needle.first else { return startIndex..<startIndex }
        var start = startIndex
        while let at = self[start...].firstIndex(of: head) {
            var i = at, j = needle.startIndex
            while j < needle.endIndex, i < endIndex, self[i] == needle[j] {
                formIndex(after: &i); needle.formIndex(after: &j)
            }
            if j == needle.endIndex { return at..<i }
            start = index(after: at)
        }
        return nil
    }

    /// True when `needle` occurs in the text.
    public func containsText(_ needle: some StringProtocol) -> Bool { rangeOfText(needle) != nil }
}
