import CSystemd
import LinuxSystem

/// A thin owner of one sd-bus connection to the session bus (or the address given), with the
/// few calls the KWin and GNOME backends need; non-variadic sd-bus functions only, through CSystemd's
/// gsd_ twins (libsystemd.so.0 is loaded by the first connection, not by the executable).
final class DBusConnection {
    let bus: OpaquePointer
    private var slots: [OpaquePointer?] = []

    init(address: String?) throws(FocusError) {
        if let e = gsd_load() {
            throw FocusError("\(String(cString: e)): D-Bus focus tracking needs it")
        }
        var b: OpaquePointer?
        var r = gsd_bus_new(&b)
        guard r >= 0, let bus = b else { throw FocusError("sd_bus_new: \(DBusConnection.message(r))") }
        if let address, !address.isEmpty {
            r = gsd_bus_set_address(bus, address)
        } else if let run = CurrentProcess.environmentValue("XDG_RUNTIME_DIR") {
            r = gsd_bus_set_address(bus, "unix:path=\(run)/bus")
        } else {
            gsd_bus_unref(bus)
            throw FocusError("DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set")
        }
        if r >= 0 { r = gsd_bus_set_bus_client(bus, 1) }
        if r >= 0 { r = gsd_bus_start(bus) }
        guard r >= 0 else { gsd_bus_unref(bus); throw FocusError("cannot connect to the session bus: \(DBusConnection.message(r))") }
        self.bus = bus
    }

    deinit {
        for s in slots { gsd_bus_slot_unref(s) }
        gsd_bus_flush_close_unref(bus)
    }

    static func message(_ r: Int32) -> String { SystemError(negated: r).description }

    var fd: Int32 { gsd_bus_get_fd(bus) }

    var uniqueName: String {
        var p: UnsafePointer<CChar>?
        return gsd_bus_get_unique_name(bus, &p) >= 0 && p != nil ? String(cString: p!) : ""
    }

    /// Calls a method with string arguments; the reply (caller unrefs) or an error.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
              _ arguments: [String] = [], timeoutMicroseconds: UInt64 = 3_000_000) throws(FocusError) -> OpaquePointer {
        var m: OpaquePointer?
        var r = gsd_bus_message_new_method_call(bus, &m, destination, path, interface, member)
        for a in arguments where r >= 0 { r = a.withCString { gsd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) } }
        guard r >= 0 else { gsd_bus_message_unref(m); throw FocusError("\(member): \(DBusConnection.message(r))") }
        defer { gsd_bus_message_unref(m) }
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { gsd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = gsd_bus_call(bus, m, timeoutMicroseconds, &error, &reply)
        guard r >= 0, let reply else {
            let text = error.message.map { String(cString: $0) } ?? DBusConnection.message(r)
            throw FocusError("\(destination) \(interface).\(member): \(text)")
        }
        return reply
    }

    /// Reads the next `count` string arguments of a message.
    static func strings(_ m: OpaquePointer, _ count: Int) -> [String]? {
        var out: [String] = []
        for _ in 0..<count {
            var p: UnsafePointer<CChar>?
            guard gsd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &p) > 0, let p else { return nil }
            out.append(String(cString: p))
        }
        return out
    }

    func keep(_ slot: OpaquePointer?) { slots.append(slot) }

    /// A signal to follow; a nil sender or path matches any.
    typealias SignalRule = (sender: String?, path: String?, interface: String, member: String)

    /// Raises `flag` on every signal that matches one of `rules`; the matches last as long as
    /// the connection, which `flag` must outlive.
    func follow(_ rules: [SignalRule], raising flag: SignalFlag) throws(FocusError) {
        let context = Unmanaged.passUnretained(flag).toOpaque()
        for rule in rules {
            var slot: OpaquePointer?
            let r = gsd_bus_match_signal(bus, &slot, rule.sender, rule.path, rule.interface, rule.member, { _, data, _ in
                Unmanaged<SignalFlag>.fromOpaque(data!).takeUnretainedValue().raised = true
                return 0
            }, context)
            guard r >= 0 else { throw FocusError("cannot follow \(rule.interface).\(rule.member): \(DBusConnection.message(r))") }
            keep(slot)
        }
    }

    /// Runs every queued message's callbacks; false when the connection is gone.
    func process() -> Bool {
        while true {
            let r = gsd_bus_process(bus, nil)
            if r < 0 { return false }
            if r == 0 { break }
        }
        return gsd_bus_flush(bus) >= 0 && gsd_bus_is_open(bus) > 0
    }
}

/// Set by the signals a `DBusConnection` follows; read and cleared by its owner.
final class SignalFlag {
    var raised = false

    /// Whether it was raised; lowered again.
    func take() -> Bool {
        defer { raised = false }
        return raised
    }
}
