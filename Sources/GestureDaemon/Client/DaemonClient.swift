import GestureWire
import LinuxSystem

/// Why a client could not connect to the daemon's socket, with the hint a user needs.
public struct ConnectError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var error: SystemError
    public init(path: String, error: SystemError) { self.path = path; self.error = error }

    public var description: String {
        let hint = switch error {
        case .noSuchFile: " (is the daemon running? `systemctl status gestured` or pass --socket)"
        case .permissionDenied: " (permission denied: the socket's group (socket.group in the config) must include you)"
        case .connectionRefused: " (nobody is listening: the daemon stopped)"
        case .nameTooLong: " (the path is too long for a Unix socket)"
        default: ""
        }
        return "cannot connect to \(path): \(error)\(hint)"
    }
}

/// One connection to the daemon's socket (blocking): lines in, lines out. Used by `monitor`,
/// `listen` (through `ReconnectingClient`) and tests.
public final class DaemonConnection {
    public let fd: FileDescriptor
    private var buffer: [UInt8] = []

    public init(path: String) throws(ConnectError) {
        do { fd = try FileDescriptor.connectUnix(path) } catch { throw ConnectError(path: path, error: error) }
    }

    deinit { fd.close() }

    /// Sends one line (a newline is added). False when the daemon is gone.
    @discardableResult
    public func send(_ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { try? fd.send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            guard let n, n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// One read from the daemon: a line, or the news that an overlong one was skipped.
    public enum Item: Sendable { case line(String), tooLong }
    /// Far above any server line (a hello with 1 000 devices is ~250 KiB). A longer line is
    /// skipped up to its newline, so a hostile server cannot grow the buffer.
    public static let maximumLineBytes = 1 << 20
    private var skipping = false

    /// The next item, or nil at end of stream or on an error.
    public func next() -> Item? {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[0..<nl], as: UTF8.self)
                buffer.removeSubrange(0...nl)
                if skipping { skipping = false; continue }
                return .line(line)
            }
            if buffer.count > Self.maximumLineBytes {
                buffer.removeAll(keepingCapacity: false)
                if !skipping { skipping = true; return .tooLong }
            }
            var chunk = [UInt8](repeating: 0, count: 16384)
            let n = chunk.withUnsafeMutableBytes { try? fd.read(into: $0) }
            guard let n, n > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// The next line (overlong ones skipped), or nil at end of stream or on an error.
    public func nextLine() -> String? {
        while let item = next() { if case .line(let l) = item { return l } }
        return nil
    }
}

/// What a `ReconnectingClient` reports, in order.
public enum ClientEvent: Sendable {
    /// Connecting failed; the next try comes after `retryIn`. `first` is true for the first
    /// failure after a working connection (or at start): report it once, not every retry.
    case connectFailed(ConnectError, retryIn: Duration, first: Bool)
    /// Connected (the subscribe line, if any, was sent).
    case connected
    case message(ServerMessage, line: String)
    /// A line that is not protocol.
    case unparsable(line: String, reason: String)
    /// The daemon closed the connection; a reconnect follows.
    case disconnected
}

/// A client that stays connected: connects, sends its subscribe line, hands every message over,
/// and when the daemon goes away reconnects with backoff (`initialBackoff` doubling up to
/// `maximumBackoff`). `listen` runs one; tests drive one against a socket of their own.
public final class ReconnectingClient: Sendable {
    public let path: String
    public let subscribe: String?
    public let initialBackoff: Duration
    public let maximumBackoff: Duration

    public init(path: String, subscribe: String? = nil, initialBackoff: Duration = .milliseconds(500),
                maximumBackoff: Duration = .seconds(30)) {
        self.path = path; self.subscribe = subscribe
        self.initialBackoff = initialBackoff; self.maximumBackoff = maximumBackoff
    }

    /// Runs until `handle` returns false (never, for `listen`).
    public func run(_ handle: (ClientEvent) -> Bool) {
        runReplying { event, _ in handle(event) }
    }

    /// `run`, with a way to send lines back on the current connection (`listen`'s emit and
    /// orientation requests); sending returns false when the daemon is gone. `send` may be kept
    /// (and called from another thread, one line at a time) until `.disconnected`.
    public func runReplying(_ handle: (ClientEvent, _ send: @escaping (String) -> Bool) -> Bool) {
        var backoff = initialBackoff
        var reported = false
        while true {
            let connection: DaemonConnection
            do { connection = try DaemonConnection(path: path) } catch {
                guard handle(.connectFailed(error, retryIn: backoff, first: !reported), { _ in false }) else { return }
                reported = true
                MonotonicClock.sleep(for: backoff)
                backoff = min(backoff * 2, maximumBackoff)
                continue
            }
            backoff = initialBackoff
            reported = false
            if let subscribe { connection.send(subscribe) }
            let send: (String) -> Bool = { connection.send($0) }
            guard handle(.connected, send) else { return }
            while let item = connection.next() {
                guard case .line(let line) = item else {
                    guard handle(.unparsable(line: "", reason: "a line longer than \(DaemonConnection.maximumLineBytes) bytes was skipped"), send) else { return }
                    continue
                }
                let event: ClientEvent
                do { event = .message(try WireDecoder.serverMessage(line), line: line) } catch {
                    event = .unparsable(line: line, reason: error.reason)
                }
                guard handle(event, send) else { return }
            }
            guard handle(.disconnected, send) else { return }
        }
    }

}
