import GestureCore
import GestureWire
import LinuxSystem

/// The listening socket: inherited from systemd (socket activation) or made at a path.
extension SocketServer {
    /// The fd systemd passed (LISTEN_PID = us, LISTEN_FDS ≥ 1 → fd 3), if any.
    public static func activatedFD(environment: [String: String]) -> FileDescriptor? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == CurrentProcess.id,
              let n = environment["LISTEN_FDS"].flatMap(Int.init), n >= 1 else { return nil }
        let inherited = FileDescriptor(rawValue: 3)
        inherited.setCloseOnExec()
        return inherited
    }

    public enum ListenError: Error, CustomStringConvertible {
        case failed(String)
        public var description: String { if case .failed(let s) = self { return s }; return "" }
    }

    /// Creates, binds and listens on `path`. A stale socket file (nobody accepts) is replaced; a
    /// live one (another daemon) or a file that is not a socket is an error. The probe of an
    /// existing socket never waits (a live daemon may have a full backlog). An abstract name
    /// (`@name`) is refused: it has no file mode or group to limit who connects.
    public static func listen(path: String, mode: UInt32, group: String?) throws(ListenError) -> FileDescriptor {
        if path.hasPrefix("@") {
            throw .failed("\(path): abstract socket names are not supported: an abstract socket has no file mode or group, so socket.mode and socket.group could not limit who connects; give a file path (e.g. $XDG_RUNTIME_DIR/gestured.sock)")
        }
        guard let address = UnixAddress(path: path) else { throw .failed("socket path too long: \(path)") }
        if let existing = try? FileStatus(ofLink: path) {
            guard existing.kind == .socket else {
                throw .failed("\(path) exists and is not a socket; not replacing it")
            }
            switch Result(catching: { () throws(SystemError) in try FileDescriptor.connectUnix(path, nonBlocking: true) }) {
            case .success(let probe):
                probe.close(); throw .failed("\(path): another gestured is listening there")
            case .failure(.wouldBlock):
                throw .failed("\(path): another gestured is listening there (its queue of connections is full)")
            case .failure:
                try? FileSystem.remove(path)
            }
        }
        let fd: FileDescriptor
        do { fd = try UnixSocket.open(.stream, nonBlocking: true) } catch { throw .failed("socket: \(error)") }
        let old = CurrentProcess.setFileCreationMask(0o177)
        let bound = Result { () throws(SystemError) in try fd.bind(to: address) }
        CurrentProcess.setFileCreationMask(old)
        if case .failure(let bindError) = bound {
            fd.close()
            let hint = switch bindError {
            case .noSuchFile: " (does its directory exist? gestured.socket creates /run/gestured)"
            case .permissionDenied: " (permission denied: run as the gestured user or pass --socket)"
            default: ""
            }
            throw .failed("bind \(path): \(bindError)\(hint)")
        }
        func abandon() { fd.close(); try? FileSystem.remove(path) }
        if let group {
            guard let gid = Accounts.groupID(named: group) else {
                abandon(); throw .failed("config error: socket group '\(group)' does not exist")
            }
            do { try FileSystem.changeGroup(path, to: gid) } catch {
                abandon(); throw .failed("chown \(path) to group \(group): \(error)")
            }
        }
        do { try FileSystem.changePermissions(path, to: mode) } catch {
            abandon(); throw .failed("chmod \(path): \(error)")
        }
        do { try fd.listen(backlog: 64) } catch {
            abandon(); throw .failed("listen \(path): \(error)")
        }
        return fd
    }
}
