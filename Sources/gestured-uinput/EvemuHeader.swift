// A minimal evemu reader for the test helper: the device header (N:, I:, P:, B:, A:) and the E:
// lines. The project's full reader (with line-numbered errors) is GestureRecording's; this one
// only needs the well-formed fixtures of Tests/Fixtures and fails loudly on anything else.
import GestureCore

struct EvemuFile {
    var description: DeviceDescription?
    var events: [InputEvent]
}

struct EvemuError: Error, CustomStringConvertible {
    var description: String
}

func parseEvemu(_ text: String, path: String) throws(EvemuError) -> EvemuFile {
    var name: String?
    var ids: [UInt16] = [0, 0, 0, 0]
    var properties = Set<UInt16>()
    var propertyIndex = 0
    var codes: [UInt16: Set<UInt16>] = [:]
    var byteIndex: [UInt16: Int] = [:]
    var absInfo: [UInt16: AbsInfo] = [:]
    var events: [InputEvent] = []
    var lineNumber = 0
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
        lineNumber += 1
        let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard line.count >= 2, line.dropFirst().first == ":" else { continue }
        let fields = line.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        func fail(_ what: String) -> EvemuError { EvemuError(description: "\(path):\(lineNumber): expected \(what)") }
        switch line.first {
        case "N":
            name = String(line.dropFirst(2).drop(while: { $0 == " " }))
        case "I":
            guard fields.count == 4 else { throw fail("4 hex ids after I:") }
            ids = fields.map { UInt16($0, radix: 16) ?? 0 }
        case "P":
            for f in fields {
                guard let byte = UInt8(f, radix: 16) else { throw fail("hex bytes after P:") }
                for bit in 0..<8 where byte & (1 << bit) != 0 { properties.insert(UInt16(propertyIndex * 8 + bit)) }
                propertyIndex += 1
            }
        case "B":
            guard let type = fields.first.flatMap({ UInt16($0, radix: 16) }) else { throw fail("a hex type after B:") }
            var index = byteIndex[type] ?? 0
            if codes[type] == nil { codes[type] = [] }
            for f in fields.dropFirst() {
                guard let byte = UInt8(f, radix: 16) else { throw fail("hex bytes after B:") }
                for bit in 0..<8 where byte & (1 << bit) != 0 { codes[type]!.insert(UInt16(index * 8 + bit)) }
                index += 1
            }
            byteIndex[type] = index
        case "A":
            guard fields.count >= 5, let code = UInt16(fields[0], radix: 16) else { throw fail("code min max fuzz flat [res] after A:") }
            let n = fields.dropFirst().map { Int32($0) ?? 0 }
            absInfo[code] = AbsInfo(minimum: n[0], maximum: n[1], fuzz: n[2], flat: n[3], resolution: n.count > 4 ? n[4] : 0)
        case "E":
            guard fields.count >= 4 else { throw fail("E: SEC.USEC TYPE CODE VALUE") }
            let t = fields[0].split(separator: ".")
            guard t.count == 2, let s = Int64(t[0]), let us = Int64(t[1]),
                  let type = UInt16(fields[1], radix: 16), let code = UInt16(fields[2], radix: 16),
                  let value = Int32(fields[3]) else { throw fail("E: SEC.USEC TYPE CODE VALUE") }
            events.append(InputEvent(time: Instant(seconds: s, microseconds: us), type: type, code: code, value: value))
        default:
            continue
        }
    }
    var description: DeviceDescription?
    if let name {
        // Only codes the B: lines list; A: lines of axes not in the bitmask are dropped.
        let abs = codes[EventType.abs] ?? []
        description = DeviceDescription(name: name, bustype: ids[0], vendor: ids[1], product: ids[2], version: ids[3],
                                        properties: properties, codes: codes,
                                        absInfo: absInfo.filter { abs.isEmpty || abs.contains($0.key) })
    }
    return EvemuFile(description: description, events: events)
}
