// fuzz-modules: GestureCore GestureWire
// `gestured monitor`'s and `gestured listen`'s handling of server lines (MonitorText, ListenLines:
// the code the commands run per line, not only the decoder). A hostile server may send anything:
// each line must yield text or an action, never a trap, and no control character may reach the
// terminal or the log (issue 16 findings 7 and 8).
import GestureCore
import GestureWire

nonisolated(unsafe) var listen = ListenLines()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientLines(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // Several lines per input, so listen's device table sees hello/deviceAdded before gestures.
    for line in text(data, size).split(separator: "\n", omittingEmptySubsequences: false) {
        let raw = String(line)
        for json in [false, true] {
            guard let out = MonitorText.line(for: raw, json: json) else { continue }
            // Only the newlines monitor itself puts between a hello's device lines.
            if out.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7f }) {
                violated("control character in monitor output: \(out.debugDescription)")
            }
        }
        switch listen.handle(raw, socket: "s", bindings: 1) {
        case .log(let text):
            if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
                violated("control character in a listen log line: \(text.debugDescription)")
            }
        case .gesture(let g, _, _, _, _):
            for v in [g.dxMillimeters, g.dyMillimeters, g.scale, g.rotationDegrees, g.x, g.y] {
                if let v, !v.isFinite { violated("non-finite value in \(g)") }
            }
        case .nothing: break
        }
    }
    if listen.byId.count > ListenLines.maximumDevices { violated("listen remembers \(listen.byId.count) devices") }
    return 0
}
