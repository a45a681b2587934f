// fuzz-modules: YAML
// The libyaml bridge: any bytes must parse or throw YAMLError, never crash, and every mark must
// point inside the text (line ≥ 1, column ≥ 1).
import YAML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        if let node = try parseYAML(text(data, size)) {
            var budget = 10_000   // aliases share subtrees: visit a bounded number of nodes
            check(node, depth: 0, budget: &budget)
        }
    } catch {
        let lines = UnsafeBufferPointer(start: data, count: size).reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        // libyaml's line count also breaks on \r, so only count a mark past every \n as wrong when
        // the input has no \r.
        let t = text(data, size)
        let hasCR = t.utf8.contains(13) || t.unicodeScalars.contains { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }
        if error.mark.line < 1 || error.mark.column < 1 || (!hasCR && error.mark.line > lines) {
            violated("error mark \(error.mark) outside the input (\(lines) lines): \(error.message)")
        }
    }
    return 0
}

private func check(_ node: Node, depth: Int, budget: inout Int) {
    budget -= 1
    guard budget > 0 else { return }
    if node.mark.line < 1 || node.mark.column < 1 { violated("node mark \(node.mark)") }
    guard depth < 64 else { return }
    if let items = node.sequenceValue { for n in items { check(n, depth: depth + 1, budget: &budget) } }
    if let pairs = node.mappingValue {
        for (k, v) in pairs { check(k, depth: depth + 1, budget: &budget); check(v, depth: depth + 1, budget: &budget) }
    }
}
