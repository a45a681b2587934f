// fuzz-modules: GestureCore CommandArguments LinuxSystem YAML GestureRecording
// fuzz-support: RecordingChecks
// The `libinput record` YAML reader: any bytes must parse or throw a RecordingError pointing at a
// line of the input; what parses must decode without a touch outside the surface or a NaN.
import GestureCore
import GestureRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinputRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
    _ = LibinputRecordReader.looksLikeLibinputRecord(bytes)
    do {
        let recording = try LibinputRecordReader.parse(bytes, file: "fuzz.yml")
        decodeAndCheck(recording)
    } catch {
        // libyaml also breaks lines on \r (and NEL, LS, PS): judge line numbers of plain-\n input only.
        let t = text(data, size)
        let plain = !t.utf8.contains(13) && !t.unicodeScalars.contains { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }
        if error.line < 1 || (plain && error.line > lines) { violated("error line \(error.line) of \(lines): \(error)") }
    }
    return 0
}
