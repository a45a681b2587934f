import LinuxSystem

extension Config {
    /// Reads and parses a config file. With `path` nil the default path is read, and a missing
    /// file there means the built-in defaults; a file named explicitly must exist. An empty file
    /// is the defaults either way. `purpose`: see `parse`.
    public static func load(path: String?, purpose: ConfigPurpose = .daemon) throws(ConfigError) -> Config {
        let file = path ?? Config.defaultPath
        let bytes: [UInt8]
        do {
            bytes = try FileContents.bytes(of: file, maximumBytes: 16 << 20)
        } catch {
            if path == nil, case .open(.noSuchFile) = error {
                var c = Config()
                c.file = "\(file) (missing: defaults)"
                return c
            }
            throw ConfigError([ConfigDiagnostic(file: file, line: 0, column: 0, message: "cannot read the file",
                                                hint: Self.hint(error))])
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: file, purpose: purpose)
    }

    private static func hint(_ failure: FileContents.Failure) -> String {
        switch failure {
        case .open(.noSuchFile): "no such file; `gestured check --config FILE` names another"
        case .open(.permissionDenied): "permission denied: the daemon's user must be able to read it"
        case .open(.isDirectory), .read(.isDirectory): "that is a directory, not a file"
        case .open(let e), .read(let e): e.description
        case .tooLarge: "larger than 16 MiB"
        }
    }
}
