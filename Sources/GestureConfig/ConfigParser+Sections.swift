import GestureCore
import YAML

/// The `socket:`, `hooks:` and `log:` sections.
extension Reader {
    mutating func readSocket(_ node: Node, into s: inout SocketConfig) {
        guard let pairs = mapping(node, "socket", keys: ["path", "mode", "group", "allowed_uids", "allowed_gids",
                                                        "queue_limit", "queue_bytes", "max_clients",
                                                        "max_clients_per_uid", "raw_frames"]) else { return }
        for (key, _, value) in pairs {
            switch key {
            case "path":
                if let p = string(value, "socket.path") {
                    if p.hasPrefix("/") { s.path = p }
                    else { error(value.mark, "socket.path must be absolute, not '\(p)'", hint: "e.g. /run/gestured/gestured.sock") }
                }
            case "mode":
                if let (m, _) = scalar(value, "socket.mode", expected: "an octal mode like \"0660\"") {
                    if let v = UInt32(m, radix: 8), v <= 0o777 { s.mode = v }
                    else { error(value.mark, "socket.mode must be an octal mode like \"0660\", not '\(m)'") }
                }
            case "group":
                s.group = string(value, "socket.group")
                s.groupLine = value.mark.line; s.groupColumn = value.mark.column
            case "allowed_uids", "allowed_gids":
                if let list = oneOrList(value, "socket.\(key)", allowEmpty: true, { r, n in
                    r.integer(n, "socket.\(key)", in: 0...Int(UInt32.max - 1)).map { UInt32($0) } }) {
                    if key == "allowed_uids" { s.allowedUIDs = list } else { s.allowedGIDs = list }
                }
            case "queue_limit": if let v = integer(value, "socket.queue_limit", in: 1...1_000_000) { s.queueLimit = v }
            case "queue_bytes": if let v = integer(value, "socket.queue_bytes", in: 4096...16 << 20) { s.queueBytes = v }
            case "max_clients": if let v = integer(value, "socket.max_clients", in: 1...65536) { s.maxClients = v }
            case "max_clients_per_uid": if let v = integer(value, "socket.max_clients_per_uid", in: 1...65536) { s.maxClientsPerUID = v }
            case "raw_frames": if let v = bool(value, "socket.raw_frames") { s.rawFrames = v }
            default: break
            }
        }
    }

    mutating func readHooks(_ node: Node, into h: inout HookLimits) {
        guard let pairs = mapping(node, "hooks", keys: ["max_concurrent", "timeout_ms", "kill_after_ms",
                                                       "output_lines_per_minute"]) else { return }
        for (key, _, value) in pairs {
            switch key {
            case "max_concurrent": if let v = integer(value, "hooks.max_concurrent", in: 1...1024) { h.maxConcurrent = v }
            case "timeout_ms": if let v = milliseconds(value, "hooks.timeout_ms", allowZero: false) { h.timeout = v }
            case "kill_after_ms": if let v = milliseconds(value, "hooks.kill_after_ms", allowZero: false) { h.killAfter = v }
            case "output_lines_per_minute":
                if let v = integer(value, "hooks.output_lines_per_minute", in: 0...100_000, hint: "0 logs no hook output") {
                    h.outputLinesPerMinute = v
                }
            default: break
            }
        }
    }

    mutating func readLog(_ node: Node, into l: inout LogConfig) {
        guard let pairs = mapping(node, "log", keys: ["level"]) else { return }
        for (key, _, value) in pairs where key == "level" {
            let choices = LogLevel.allCases.map { ($0.name, $0) } + [("err", LogLevel.error), ("warn", LogLevel.warning)]
            if let v = word(value, "log level", choices) { l.level = v }
        }
    }
}
