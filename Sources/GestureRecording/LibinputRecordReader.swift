import GestureCore
import YAML

/// Reads `libinput record` YAML, version 1 (first device only).
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
        throw RecordingError(file: file, line: 1, message: "libinput record files are not supported yet")
    }
}
