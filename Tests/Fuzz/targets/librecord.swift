// fuzz-modules: GestureCore YAML GestureRecording
// The `libinput record` YAML reader: any bytes must parse or throw a RecordingError pointing at a
// line of the input; what parses must decode without a touch outside the surface or a NaN.
import GestureCore
import GestureRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinputRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
    _ = LibinputRecordReader.looksLikeLibinputRecord(bytes)
    // "time-overflow" (reported, crashers/open/librecord-time-overflow.yml): an event's seconds
    // beyond Int64 microseconds trap in Instant(seconds:microseconds:); while that is open, smoke
    // runs skip inputs with a 13-digit (or longer) number.
    if tolerated("time-overflow") && hasLongNumber(bytes) { return 0 }
    do {
        let recording = try LibinputRecordReader.parse(bytes, file: "fuzz.yml")
        decodeAndCheck(recording)
    } catch {
        // libyaml also breaks lines on \r (and NEL, LS, PS), and moves to a new line at the end of
        // the stream ("eof-mark", reported): judge line numbers of plain-\n input only.
        let t = text(data, size)
        let plain = !t.utf8.contains(13) && !t.unicodeScalars.contains { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }
        let pastEnd = error.line == lines + 1 && tolerated("eof-mark")
        if error.line < 1 || (plain && error.line > lines && !pastEnd) { violated("error line \(error.line) of \(lines): \(error)") }
    }
    return 0
}

/// Every frame's touches finite and inside the surface.
func decodeAndCheck(_ recording: Recording) {
    let device = recording.description
    let (w, h) = device.size
    var decoder = SlotDecoder(device: device)
    let eps = 1e-6 * max(1, w, h)
    for e in recording.events.prefix(50_000) {
        guard let frame = decoder.decode(e) else { continue }
        for t in frame.touches {
            if !t.x.isFinite || !t.y.isFinite { violated("non-finite touch \(t) on \(device.name)") }
            if (t.x < -eps || t.x > w + eps || t.y < -eps || t.y > h + eps) && !tolerated("outside-area") {
                violated("touch \(t) outside the \(w) × \(h) mm surface of \(device.name)")
            }
        }
    }
    _ = decoder.drainDiagnostics()
}

private func hasLongNumber(_ bytes: [UInt8]) -> Bool {
    var run = 0
    for b in bytes {
        if b >= 48 && b <= 57 { run += 1; if run >= 13 { return true } } else { run = 0 }
    }
    return false
}
