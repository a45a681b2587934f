// fuzz-modules: GestureCore CommandArguments LinuxSystem YAML GestureRecording
// fuzz-support: RecordingChecks
// The evemu reader (one-file recordings and .desc descriptions): any bytes must parse or throw a
// RecordingError pointing at a line of the input; what parses must decode (SlotDecoder) without a
// touch outside the surface or a NaN.
import GestureCore
import GestureRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemu(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
    do {
        _ = try EvemuReader.parseDescription(bytes, file: "fuzz.desc")
    } catch {
        if error.line < 1 || error.line > lines { violated("error line \(error.line) of \(lines): \(error)") }
    }
    do {
        let recording = try EvemuReader.parse(bytes, file: "fuzz.evemu")
        decodeAndCheck(recording)
    } catch {
        if error.line < 1 || error.line > lines { violated("error line \(error.line) of \(lines): \(error)") }
    }
    return 0
}

