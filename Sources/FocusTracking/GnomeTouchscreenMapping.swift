import CSystemd
import LinuxSystem

/// GNOME's touchscreen-to-monitor mapping: the relocatable schema
/// `org.gnome.desktop.peripherals.touchscreen` at `/org/gnome/desktop/peripherals/touchscreens/
/// VVVV:PPPP/` (the device's vendor and product ids, `%.4x` as Mutter's meta-input-mapper.c
/// writes the path), key `output`: the monitor's EDID vendor, product and serial (GNOME 43; GNOME
/// 45 on may add its connector as a fourth string, used here, as by Mutter, only to tell twins
/// with the same EDID apart). `["", "", ""]` or no value leaves the mapping to Mutter's own guess.
/// Mutter's `org.gnome.Mutter.DisplayConfig.GetCurrentState` says which connector each monitor's
/// EDID is on. The settings are read from the user's dconf database (DconfDatabase.swift);
/// dconf's `Notify` and DisplayConfig's `MonitorsChanged` signals, on the session bus, say when
/// to read again.
final class GnomeTouchscreenMapping: TouchscreenMappingSource {
    let busAddress: String?
    let databasePath: String
    private var dbus: DBusConnection?
    private let changed = SignalFlag()
    static let prefix = "/org/gnome/desktop/peripherals/touchscreens/"
    static let displayConfig = "org.gnome.Mutter.DisplayConfig"
    static let displayConfigPath = "/org/gnome/Mutter/DisplayConfig"

    init(_ env: [String: String]) {
        busAddress = env["DBUS_SESSION_BUS_ADDRESS"]
        let config = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? "") + "/.config")
        databasePath = config + "/dconf/user"
    }

    var name: String { "GNOME" }
    var endpoint: String { "\(GnomeTouchscreenMapping.displayConfig) and \(databasePath)" }

    func connect() throws(FocusError) -> Int32 {
        let d = try DBusConnection(address: busAddress)
        try d.follow([
            (Self.displayConfig, Self.displayConfigPath, Self.displayConfig, "MonitorsChanged"),
            (nil, nil, "ca.desrt.dconf.Writer", "Notify"),
        ], raising: changed)
        dbus = d
        changed.raised = true
        return d.fd
    }

    func disconnect() { dbus = nil }

    func pending() -> TouchscreenMapping? { nil }

    func receive() throws(FocusError) -> TouchscreenMapping? {
        guard let d = dbus, d.process() else { throw FocusError("the session bus closed the connection") }
        return changed.take() ? try read(d) : nil
    }

    /// The mapping now: every touchscreen setting that names a monitor, matched to a connector.
    private func read(_ d: DBusConnection) throws(FocusError) -> TouchscreenMapping {
        let monitors = try Self.monitors(d)
        let settings: [(id: String, output: [String])]
        do {
            let bytes = try FileContents.bytes(of: databasePath, maximumBytes: DconfDatabase.maximumBytes)
            let db = try DconfDatabase(bytes)
            settings = db.keys.keys.sorted().compactMap { key in
                guard key.hasPrefix(Self.prefix), key.hasSuffix("/output") else { return nil }
                let id = key.dropFirst(Self.prefix.count).dropLast("/output".count)
                return db.strings(key).map { (String(id), $0) }
            }
        } catch FileContents.Failure.open(let e) where e == .noSuchFile {
            settings = []    // nothing set yet: dconf writes the file on the first change
        } catch let e as FileContents.Failure {
            throw FocusError("cannot read \(databasePath): \(e)")
        } catch let e as FocusError {
            throw FocusError("\(databasePath): \(e.description)")
        } catch { throw FocusError("\(databasePath): \(error)") }
        return Self.mapping(settings, monitors)
    }

    struct Monitor: Equatable { var connector, vendor, product, serial: String }

    /// Pairs each setting with the connector of the monitor whose EDID it names.
    static func mapping(_ settings: [(id: String, output: [String])], _ monitors: [Monitor]) -> TouchscreenMapping {
        var m = TouchscreenMapping()
        for (id, edid) in settings {
            guard edid.count >= 3 else {
                m.notes.append("GNOME's touchscreens/\(id) output holds \(edid.count) strings, not [vendor, product, serial]: ignored")
                continue
            }
            if edid.prefix(3).allSatisfy(\.isEmpty) { continue }
            let same = monitors.filter { [$0.vendor, $0.product, $0.serial] == Array(edid.prefix(3)) }
            let chosen = same.count > 1 && edid.count >= 4 ? same.first { $0.connector == edid[3] } ?? same.first : same.first
            guard let c = chosen else {
                m.notes.append("GNOME maps touchscreen \(id) to the monitor \(edid.prefix(3).joined(separator: " ")), which is not connected")
                continue
            }
            m.rules.append(.init(inputID: id, output: c.connector, origin: "GNOME setting touchscreens/\(id) output"))
        }
        return m
    }

    /// GetCurrentState's monitors, `(u a((ssss)a(siiddada{sv})a{sv}) a(…) a{sv})`: each
    /// one's connector, vendor, product and serial.
    static func monitors(_ d: DBusConnection) throws(FocusError) -> [Monitor] {
        let reply = try d.call(displayConfig, displayConfigPath, displayConfig, "GetCurrentState")
        defer { gsd_bus_message_unref(reply) }
        func c(_ s: String) -> CChar { CChar(UInt8(ascii: s.unicodeScalars.first!)) }
        var serial: UInt32 = 0
        guard gsd_bus_message_read_basic(reply, c("u"), &serial) > 0,
              gsd_bus_message_enter_container(reply, c("a"), "((ssss)a(siiddada{sv})a{sv})") > 0 else {
            throw FocusError("DisplayConfig.GetCurrentState: not the reply Mutter sends")
        }
        var out: [Monitor] = []
        while gsd_bus_message_enter_container(reply, c("r"), "(ssss)a(siiddada{sv})a{sv}") > 0 {
            guard gsd_bus_message_enter_container(reply, c("r"), "ssss") > 0,
                  let ids = DBusConnection.strings(reply, 4),
                  gsd_bus_message_exit_container(reply) >= 0,
                  gsd_bus_message_skip(reply, "a(siiddada{sv})a{sv}") >= 0,
                  gsd_bus_message_exit_container(reply) >= 0 else {
                throw FocusError("DisplayConfig.GetCurrentState: a monitor without (connector, vendor, product, serial)")
            }
            out.append(Monitor(connector: ids[0], vendor: ids[1], product: ids[2], serial: ids[3]))
        }
        return out
    }
}
