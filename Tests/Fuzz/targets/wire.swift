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
    // "negative-id" (reported, crashers/open/wire-negative-gesture-id): serverMessage traps on a
    // negative number after an "id" key; while that is open, smoke runs skip such lines.
    if tolerated("negative-id") && hasNegativeID(line) { return 0 }
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

/// `"id"`, then blanks, `:`, blanks (or anything JSON allows between) and a `-`.
private func hasNegativeID(_ line: String) -> Bool {
    let b = Array(line.utf8)
    let key = Array("\"id\"".utf8)
    var i = 0
    while i + key.count <= b.count {
        if Array(b[i..<(i + key.count)]) == key {
            var j = i + key.count
            while j < b.count && (b[j] == 32 || b[j] == 9 || b[j] == 10 || b[j] == 13 || b[j] == 58) { j += 1 }
            if j < b.count && b[j] == 45 { return true }
        }
        i += 1
    }
    return false
}
