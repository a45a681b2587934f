// Test support: KDE's compositor, a real headless KWin (Debian 12's kwin_wayland 5.27) on a
// session bus of its own, its output turned with kscreen-doctor, which goes through libkscreen
// and kde_output_management_v2 as KDE's display settings do.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

extension DesktopSession {
    /// The name of `kwin()`'s Wayland socket in its XDG_RUNTIME_DIR.
    static let kwinSocket = "wayland-kwin"

    /// kwin_wayland headless (`--virtual`: one 1024x768 output, Virtual-0), as nobody under root
    /// like sway, on a session bus of its own (a dbus-daemon of the test's, as for Mutter).
    ///
    /// /usr/bin/kwin_wayland carries a file capability (`getcap`: cap_sys_resource=ep), and exec
    /// of such a file fails with EPERM where that capability is outside the bounding set (a
    /// container: "Operation not permitted"). A copy written byte for byte to a new file has no
    /// capability and runs the same code; cap_sys_resource only lets a process exceed resource
    /// limits (capabilities(7)), which these tests do not need.
    ///
    /// The bus carries the compositor's WAYLAND_DISPLAY and Qt's Wayland platform in its own
    /// environment: kscreen-doctor's backend (libkscreen's kscreen_backend_launcher) is started by
    /// the bus, not by kscreen-doctor, and reaches KWin only through what the bus hands it.
    static func kwin() throws -> DesktopSession {
        let s = try DesktopSession(asNobody: true)
        let run = s.dir + "/run"
        mkdir(run, 0o700)
        if s.asNobody { chown(run, 65534, 65534) }
        let installed = try need("kwin_wayland", package: "kwin-wayland")
        _ = try need("kscreen-doctor", package: "libkf5screen-bin")
        let copy = s.dir + "/kwin_wayland"
        guard let binary = FileManager.default.contents(atPath: installed),
              FileManager.default.createFile(atPath: copy, contents: binary), chmod(copy, 0o755) == 0 else {
            throw TestFailure(description: "cannot copy \(installed) to \(copy)")
        }
        let bus = "unix:path=\(s.dir)/bus"
        s.environment = ["XDG_RUNTIME_DIR": run]
        try s.spawn(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(bus)"], log: "dbus.log",
                    extra: ["WAYLAND_DISPLAY": kwinSocket, "QT_QPA_PLATFORM": "wayland", "KSCREEN_BACKEND": "KWayland"])
        try s.waitUntil("the session bus") { access(s.dir + "/bus", F_OK) == 0 }
        s.environment["DBUS_SESSION_BUS_ADDRESS"] = bus
        try s.spawn([copy, "--virtual", "--no-lockscreen", "--socket", kwinSocket], log: "kwin.log")
        try s.waitUntil("kwin's Wayland socket", seconds: 60) { access(run + "/" + kwinSocket, F_OK) == 0 }
        s.environment["WAYLAND_DISPLAY"] = kwinSocket
        try s.waitUntil("KWin's output in kscreen-doctor -o", seconds: 60) { !(try s.kwinOutputs()).isEmpty }
        return s
    }

    /// kscreen-doctor with these arguments, as the session's user, on the session's bus.
    @discardableResult
    func kscreenDoctor(_ arguments: [String]) throws -> String {
        let tool = try DesktopSession.need("kscreen-doctor", package: "libkf5screen-bin")
        let argv = (asNobody ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", tool] : [tool]) + arguments
        let (status, out) = try run(argv, extra: ["QT_QPA_PLATFORM": "wayland"], seconds: 30)
        if out.contains("Could not find the Qt platform plugin \"wayland\"") {
            throw TestFailure(description: "kscreen-doctor needs Qt's Wayland platform (Debian package qtwayland5); Tests/test.sh installs it")
        }
        guard status == 0 else { throw TestFailure(description: "kscreen-doctor \(arguments.joined(separator: " ")): status \(status): \(out)") }
        return out
    }

    /// The outputs `kscreen-doctor -o` lists: name and libkscreen's rotation (1 none, 2 left,
    /// 4 inverted, 8 right), its colours taken out.
    func kwinOutputs() throws -> [(name: String, rotation: Int)] {
        let plain = try kscreenDoctor(["-o"]).replacing(/\x{1B}\[[0-9;]*m/, with: "")
        return plain.matches(of: /Output: \d+ (\S+) .*?Rotation: (\d+)/).map { (String($0.1), Int($0.2) ?? 0) }
    }
}
