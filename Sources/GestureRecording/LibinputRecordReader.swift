import GestureCore
import YAML

/// Reads `libinput record` YAML, file format version 1 (the first device of `devices:`):
///
///     version: 1
///     devices:
///     - node: /dev/input/event9
///       evdev:
///         name: "…"
///         id: [bustype, vendor, product, version]
///         codes: {type: [code, …], …}
///         absinfo: {code: [min, max, fuzz, flat, resolution], …}
///         properties: [prop, …]
///       events:
///       - evdev:
///         - [sec, usec, type, code, value]
///
/// Unknown keys are ignored (the format asks parsers to); event groups other than `evdev`
/// (`hid`, `libinput`) are skipped. Numbers are decimal.
public enum LibinputRecordReader {
    /// True when the first non-comment line is a `version:` key.
    public static func looksLikeLibinputRecord(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count {
            var j = i
            while j < bytes.count && bytes[j] != UInt8(ascii: "\n") { j += 1 }
            var k = i
            while k < j && (bytes[k] == 0x20 || bytes[k] == 0x09 || bytes[k] == 0x0d) { k += 1 }
            if k < j && bytes[k] != UInt8(ascii: "#") {
                let word = Array("version:".utf8)
                return j - k >= word.count && Array(bytes[k..<(k + word.count)]) == word
            }
            i = j + 1
        }
        return false
    }

    public static func parse(_ bytes: [UInt8], file: String) throws(RecordingError) -> Recording {
        let root: Node
        do {
            guard let r = try parseYAML(String(decoding: bytes, as: UTF8.self)) else {
                throw RecordingError(file: file, line: 1, message: "expected a libinput record document, the file is empty")
            }
            root = r
        } catch let e as YAMLError {
            throw RecordingError(file: file, line: e.mark.line, message: "YAML syntax: \(e.message)")
        } catch let e as RecordingError {
            throw e
        } catch {
            throw RecordingError(file: file, line: 1, message: "\(error)")
        }
        func fail(_ node: Node, _ message: String) -> RecordingError {
            RecordingError(file: file, line: node.mark.line, message: message)
        }
        func int(_ node: Node, _ what: String) throws(RecordingError) -> Int64 {
            guard let s = node.scalarValue, let v = Int64(s) else {
                throw fail(node, "expected \(what) (a decimal integer), found \(node.scalarValue.map { "'\($0)'" } ?? node.kindName)")
            }
            return v
        }
        func int32(_ node: Node, _ what: String) throws(RecordingError) -> Int32 {
            let v = try int(node, what)
            guard let r = Int32(exactly: v) else { throw fail(node, "expected \(what) within 32 bits, found \(v)") }
            return r
        }
        func uint16(_ node: Node, _ what: String) throws(RecordingError) -> UInt16 {
            let v = try int(node, what)
            guard let r = UInt16(exactly: v) else { throw fail(node, "expected \(what) between 0 and 65535, found \(v)") }
            return r
        }
        func list(_ node: Node?, _ what: String, in parent: Node) throws(RecordingError) -> [Node] {
            guard let node else { throw fail(parent, "expected '\(what)' (a list), it is missing") }
            guard let l = node.sequenceValue else { throw fail(node, "expected '\(what)' to be a list, found \(node.kindName)") }
            return l
        }

        guard root.mappingValue != nil else { throw fail(root, "expected a mapping with 'version' and 'devices', found \(root.kindName)") }
        guard let version = root["version"] else { throw fail(root, "expected a 'version' key") }
        let v = try int(version, "the file format version")
        guard v == 1 else { throw fail(version, "expected libinput record file format version 1, found \(v)") }
        let devices = try list(root["devices"], "devices", in: root)
        guard let device = devices.first else { throw fail(root["devices"]!, "expected at least one device in 'devices'") }
        guard device.mappingValue != nil else { throw fail(device, "expected a device mapping (node, evdev, events), found \(device.kindName)") }
        guard let evdev = device["evdev"], evdev.mappingValue != nil else {
            throw fail(device, "expected an 'evdev' mapping (name, id, codes, absinfo) in the device")
        }

        let name = evdev["name"]?.scalarValue ?? ""
        var id: [UInt16] = [0, 0, 0, 0]
        if let idNode = evdev["id"] {
            let l = try list(idNode, "id", in: evdev)
            guard l.count == 4 else { throw fail(idNode, "expected 'id: [bustype, vendor, product, version]', found \(l.count) numbers") }
            for i in 0..<4 { id[i] = try uint16(l[i], "an id number") }
        }
        var codes: [UInt16: Set<UInt16>] = [:]
        if let codesNode = evdev["codes"] {
            guard let pairs = codesNode.mappingValue else {
                throw fail(codesNode, "expected 'codes' to map event types to lists of codes, found \(codesNode.kindName)")
            }
            for (k, value) in pairs {
                let type = try uint16(k, "an event type")
                var set: Set<UInt16> = []
                for c in try list(value, "codes of type \(type)", in: codesNode) { set.insert(try uint16(c, "an event code")) }
                codes[type] = set
            }
        }
        var absInfo: [UInt16: AbsInfo] = [:]
        if let absNode = evdev["absinfo"] {
            guard let pairs = absNode.mappingValue else {
                throw fail(absNode, "expected 'absinfo' to map axis codes to [min, max, fuzz, flat, resolution], found \(absNode.kindName)")
            }
            for (k, value) in pairs {
                let code = try uint16(k, "an axis code")
                let l = try list(value, "absinfo of axis \(code)", in: absNode)
                guard l.count == 5 else {
                    throw fail(value, "expected [min, max, fuzz, flat, resolution] for axis \(code), found \(l.count) numbers")
                }
                absInfo[code] = AbsInfo(minimum: try int32(l[0], "a minimum"), maximum: try int32(l[1], "a maximum"),
                                        fuzz: try int32(l[2], "a fuzz"), flat: try int32(l[3], "a flat"),
                                        resolution: try int32(l[4], "a resolution"))
            }
        }
        var properties: Set<UInt16> = []
        if let p = evdev["properties"] {
            for n in try list(p, "properties", in: evdev) { properties.insert(try uint16(n, "an input property")) }
        }
        let description = DeviceDescription(name: name, bustype: id[0], vendor: id[1], product: id[2], version: id[3],
                                            properties: properties, codes: codes, absInfo: absInfo)

        var events: [InputEvent] = []
        if let eventsNode = device["events"] {
            for group in try list(eventsNode, "events", in: device) {
                guard group.mappingValue != nil else {
                    throw fail(group, "expected an event group ('- evdev: [...]'), found \(group.kindName)")
                }
                guard let ev = group["evdev"] else { continue }   // hid, libinput: not ours
                for e in try list(ev, "evdev", in: group) {
                    guard let f = e.sequenceValue else {
                        throw fail(e, "expected an event [sec, usec, type, code, value], found \(e.kindName)")
                    }
                    guard f.count == 5 else {
                        throw fail(e, "expected an event [sec, usec, type, code, value], found \(f.count) numbers")
                    }
                    let sec = try int(f[0], "seconds"), usec = try int(f[1], "microseconds")
                    guard usec >= 0 && usec < 1_000_000 else { throw fail(f[1], "expected microseconds 0…999999, found \(usec)") }
                    // Instants are Int64 microseconds; 10^12 s (31 000 years) is far past any clock.
                    guard sec >= 0 && sec < 1_000_000_000_000 else {
                        throw fail(f[0], "expected seconds between 0 and 999999999999, found \(sec)")
                    }
                    events.append(InputEvent(time: Instant(seconds: sec, microseconds: usec),
                                             type: try uint16(f[2], "an event type"), code: try uint16(f[3], "an event code"),
                                             value: try int32(f[4], "an event value")))
                }
            }
        }
        return Recording(description: description, events: events, format: .libinputRecord)
    }
}
