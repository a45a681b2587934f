// fuzz-modules: GestureCore GestureWire
// The socket protocol decoder: any line a client (or a daemon) sends must decode or throw a
// WireError, never crash; a subscribe that decodes must survive encode → decode unchanged, and a
// gesture line must carry finite numbers.
import GestureCore
import GestureWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let line = text(data, size)
    do {
        let request = try WireDecoder.clientRequest(line)
        if case .subscribe(let sub) = request {
            let again = try WireDecoder.clientRequest(WireEncoder.subscribe(sub))
            if again != request { violated("subscribe round trip: \(request) → \(WireEncoder.subscribe(sub)) → \(again)") }
        }
    } catch {
        if error.reason.isEmpty { violated("WireError without a reason") }
    }
    do {
        if case .gesture(let g, _) = try WireDecoder.serverMessage(line) {
            for v in [g.dxMillimeters, g.dyMillimeters, g.scale, g.rotationDegrees, g.x, g.y] {
                if let v, !v.isFinite { violated("non-finite value in \(g)") }
            }
        }
    } catch {
        if error.reason.isEmpty { violated("WireError without a reason") }
    }
    return 0
}
