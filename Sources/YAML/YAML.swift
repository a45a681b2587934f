import CYAML

/// A position in a YAML document, 1-based, as people count lines and columns.
public struct Mark: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    public var description: String { "\(line):\(column)" }
}

/// A parsed YAML node with the mark where it starts. Scalars keep their text and whether they
/// were quoted (a quoted "yes" is a string, never a boolean).
public indirect enum Node: Hashable, Sendable {
    case scalar(String, quoted: Bool, Mark)
    case sequence([Node], Mark)
    /// Key/value pairs in document order (duplicate keys are kept; validators reject them).
    case mapping([(key: Node, value: Node)], Mark)

    public var mark: Mark {
        switch self {
        case .scalar(_, _, let m), .sequence(_, let m), .mapping(_, let m): return m
        }
    }

    public var scalarValue: String? { if case .scalar(let s, _, _) = self { return s }; return nil }
    public var sequenceValue: [Node]? { if case .sequence(let s, _) = self { return s }; return nil }
    public var mappingValue: [(key: Node, value: Node)]? { if case .mapping(let m, _) = self { return m }; return nil }

    /// The value for a scalar key in a mapping (first match).
    public subscript(key: String) -> Node? {
        guard case .mapping(let pairs, _) = self else { return nil }
        return pairs.first { $0.key.scalarValue == key }?.value
    }

    public var kindName: String {
        switch self {
        case .scalar: return "a scalar"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    public static func == (a: Node, b: Node) -> Bool {
        switch (a, b) {
        case let (.scalar(x, qx, mx), .scalar(y, qy, my)): return x == y && qx == qy && mx == my
        case let (.sequence(x, mx), .sequence(y, my)): return x == y && mx == my
        case let (.mapping(x, mx), .mapping(y, my)):
            return mx == my && x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
    public func hash(into h: inout Hasher) {
        switch self {
        case let .scalar(s, q, m): h.combine(0); h.combine(s); h.combine(q); h.combine(m)
        case let .sequence(s, m): h.combine(1); h.combine(s); h.combine(m)
        case let .mapping(p, m): h.combine(2); h.combine(m); for kv in p { h.combine(kv.key); h.combine(kv.value) }
        }
    }
}

/// A syntax error from libyaml, with where it happened.
public struct YAMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var mark: Mark
    public var message: String
    public init(mark: Mark, message: String) { self.mark = mark; self.message = message }
    public var description: String { "\(mark): \(message)" }
}

/// Parses a YAML document with libyaml. An empty document is nil. A stream of several documents
/// is an error at the second one (its contents would otherwise be silently ignored).
/// Anchors and aliases are resolved by copying the anchored node; merge keys are not supported.
public func parseYAML(_ text: String) throws(YAMLError) -> Node? {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else {
        throw YAMLError(mark: Mark(line: 1, column: 1), message: "cannot initialize the YAML parser")
    }
    defer { yaml_parser_delete(&parser) }
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { (buf) throws(YAMLError) -> Node? in
        yaml_parser_set_input_string(&parser, buf.baseAddress, buf.count)
        let extent = TextExtent(buf)
        var builder = Builder()
        var documentEnded = false
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
                let context = parser.context.map { String(cString: $0) }
                let m = parser.problem_mark
                throw YAMLError(mark: clampedMark(line: Int(m.line) + 1, column: Int(m.column) + 1, extent: extent),
                                message: context.map { "\(problem) \($0)" } ?? problem)
            }
            defer { yaml_event_delete(&event) }
            let mark = clampedMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1, extent: extent)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return builder.root
            case YAML_DOCUMENT_END_EVENT:
                documentEnded = true
            case YAML_DOCUMENT_START_EVENT where documentEnded:
                throw YAMLError(mark: mark, message: "a second YAML document starts here; expected one document (remove this '---' and merge the two)")
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                let value = String(decoding: UnsafeBufferPointer(start: s.value, count: Int(s.length)), as: UTF8.self)
                let quoted = s.style != YAML_PLAIN_SCALAR_STYLE && s.style != YAML_ANY_SCALAR_STYLE
                try builder.add(.scalar(value, quoted: quoted, mark), anchor: s.anchor.map { String(cString: $0) })
            case let type where (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT)
                && builder.stack.count >= maximumNesting:
                // libyaml's scanner is quadratic in open flow collections ([[[[…); no config or
                // recording nests anywhere near this deep.
                throw YAMLError(mark: mark, message: "lists and mappings nested deeper than \(maximumNesting) levels")
            case YAML_SEQUENCE_START_EVENT:
                builder.open(.sequence, mark, anchor: event.data.sequence_start.anchor.map { String(cString: $0) })
            case YAML_MAPPING_START_EVENT:
                builder.open(.mapping, mark, anchor: event.data.mapping_start.anchor.map { String(cString: $0) })
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                try builder.close()
            case YAML_ALIAS_EVENT:
                let name = String(cString: event.data.alias.anchor)
                guard let node = builder.anchors[name] else {
                    throw YAMLError(mark: mark, message: "unknown alias '*\(name)'")
                }
                try builder.add(node, anchor: nil)
            default:
                break
            }
        }
    }
}

/// How deep lists and mappings may nest.
public let maximumNesting = 256

private struct Builder {
    enum Kind { case sequence, mapping }
    struct Open { var kind: Kind; var mark: Mark; var anchor: String?; var items: [Node] }
    var stack: [Open] = []
    var root: Node?
    var anchors: [String: Node] = [:]

    mutating func open(_ kind: Kind, _ mark: Mark, anchor: String?) {
        stack.append(Open(kind: kind, mark: mark, anchor: anchor, items: []))
    }

    mutating func close() throws(YAMLError) {
        guard let top = stack.popLast() else { return }
        let node: Node
        switch top.kind {
        case .sequence: node = .sequence(top.items, top.mark)
        case .mapping:
            var pairs: [(key: Node, value: Node)] = []
            var i = 0
            while i + 1 < top.items.count { pairs.append((top.items[i], top.items[i + 1])); i += 2 }
            node = .mapping(pairs, top.mark)
        }
        try add(node, anchor: top.anchor)
    }

    mutating func add(_ node: Node, anchor: String?) throws(YAMLError) {
        if let anchor { anchors[anchor] = node }
        if stack.isEmpty { root = node } else { stack[stack.count - 1].items.append(node) }
    }
}

/// How many lines a text has and how long its last one is (a final newline ends the last line
/// rather than starting an empty one).
struct TextExtent {
    var lines = 1
    var lastLineLength = 0
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var previous = 0
        for b in bytes {
            if b == UInt8(ascii: "\n") { lines += 1; previous = lastLineLength; lastLineLength = 0 } else { lastLineLength += 1 }
        }
        if bytes.last == UInt8(ascii: "\n") && lines > 1 { lines -= 1; lastLineLength = previous }
    }
}

/// libyaml can put a mark at end of input one line past the last one (e.g. an error in "a: 1\nb"
/// at 3:1, the empty document "---" at 2:1); a person should be sent to a place that exists, so
/// such a mark becomes the end of the last line.
func clampedMark(line: Int, column: Int, extent: TextExtent) -> Mark {
    if line > extent.lines { return Mark(line: extent.lines, column: extent.lastLineLength + 1) }
    return Mark(line: max(1, line), column: max(1, column))
}
