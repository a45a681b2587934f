import GestureCore
import LinuxSystem

/// Loads recordings from files or standard input, choosing the reader by content:
/// `libinput record` YAML (a `version:` key first), `evtest` output (its header or
/// `Event: time` lines) or evemu (everything else).
public enum RecordingLoader {
    /// Reads `path` (`-` = standard input). `descriptionPath` names an evemu `.desc` for a bare
    /// `.events` file; without it, a headerless `.events` file is paired with the `.desc` in the
    /// same directory whose name (before `__` or the extension) is the longest prefix of its own.
    public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> Recording {
        let name = path == "-" ? "<stdin>" : path
        let bytes = try readAll(path: path, name: name)
        var description: DeviceDescription?
        if let descriptionPath {
            let d = try readAll(path: descriptionPath, name: descriptionPath)
            description = try EvemuReader.parseDescription(d, file: descriptionPath)
        }
        if isWholeFileFormat(bytes) {
            return try parseWholeFile(bytes, file: name, description: description)
        }
        if description == nil && path != "-" && EvemuReader.lacksHeader(bytes),
           let descPath = siblingDescription(for: path) {
            let d = try readAll(path: descPath, name: descPath)
            description = try EvemuReader.parseDescription(d, file: descPath)
        }
        return try EvemuReader.parse(bytes, file: name, description: description)
    }

    /// `libinput record` YAML and `evtest` logs are read whole (not line by line, as evemu can be);
    /// `head`, the file's first bytes, is enough to tell.
    public static func isWholeFileFormat(_ head: [UInt8]) -> Bool {
        LibinputRecordReader.looksLikeLibinputRecord(head) || EvtestReader.looksLikeEvtest(head)
    }

    /// Parses a whole `libinput record` or `evtest` file; `description` replaces (YAML) or supplies
    /// (a headerless evtest log) the device.
    public static func parseWholeFile(_ bytes: [UInt8], file name: String,
                                      description: DeviceDescription?) throws(RecordingError) -> Recording {
        if LibinputRecordReader.looksLikeLibinputRecord(bytes) {
            var r = try LibinputRecordReader.parse(bytes, file: name)
            if let description { r.description = description }
            return r
        }
        return try EvtestReader.parse(bytes, file: name, description: description)
    }

    /// The `.desc` next to a `.events` file that belongs to it, if any.
    public static func siblingDescription(for path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let names = FileContents.names(inDirectory: dir) else { return nil }
        var best: (String, Int)?
        for entryName in names {
            guard entryName.hasSuffix(".desc") else { continue }
            var stem = String(entryName.dropLast(5))
            var suffix = ""
            if let r = stem.rangeOfText("__") { suffix = String(stem[r.lowerBound...]); stem = String(stem[..<r.lowerBound]) }
            guard base.hasPrefix(stem), suffix.isEmpty || base.containsText(suffix) else { continue }
            if best == nil || stem.count > best!.1 { best = (entryName, stem.count) }
        }
        guard let (file, _) = best else { return nil }
        return dir == "." && slash == nil ? file : dir + "/" + file
    }

    /// The largest recording loaded whole (the daemon's `--replay`, `libinput record` YAML): about
    /// 2 hours of a 10-finger panel at 120 Hz. `gestured replay` streams evemu recordings instead.
    public static let maximumBytes = 256 << 20

    /// Every byte of a file, or of standard input for `-`, up to `maximumBytes`.
    public static func readAll(path: String, name: String, maximumBytes: Int = RecordingLoader.maximumBytes) throws(RecordingError) -> [UInt8] {
        do {
            return try FileContents.bytes(of: path, maximumBytes: maximumBytes, dashIsStandardInput: true)
        } catch {
            let message = switch error {
            case .open(let e): "cannot open: \(e)"
            case .read(let e): "cannot read: \(e)"
            case .tooLarge: "larger than \(maximumBytes >> 20) MiB; too big to load whole (`gestured replay` streams evemu recordings of any size)"
            }
            throw RecordingError(file: name, line: 0, message: message)
        }
    }
}
