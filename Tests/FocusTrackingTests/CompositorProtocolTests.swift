// Protocol-level tests for the backends whose compositors Debian does not package: the fake
// speaks each compositor's documented messages (Hyprland's IPC wiki page; niri-ipc's Request and
// Event types), the backend and tracker are the real ones. Real sway and X11 are tested end to
// end in GestureDaemonTests/FocusSessionTests.
#if canImport(Glibc)
import Glibc
#endif
import FocusTracking
import Foundation
import GestureConfig
import Testing

@Suite(.serialized) struct CompositorProtocolTests {
    /// Hyprland: `j/activewindow` on .socket.sock for the window focused at start, then
    /// `activewindow>>CLASS,TITLE` lines on .socket2.sock (other events ignored).
    @Test func hyprland_protocol_activewindowEventsAndInitialQuery() throws {
        let run = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: run) }
        let dir = run + "/hypr/sig1"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let requests = try FakeSocketServer(path: dir + "/.socket.sock") { c, s in
            var b = [UInt8](repeating: 0, count: 256)
            let n = read(c, &b, b.count)
            s.received.withLock { $0 += b[0..<max(0, n)] }
            FakeSocketServer.send(c, #"{"address":"0x55","class":"kitty","title":"~/src","initialClass":"kitty"}"#)
        }
        defer { requests.shutdown() }
        let events = try FakeSocketServer(path: dir + "/.socket2.sock") { c, _ in
            usleep(200_000)
            FakeSocketServer.send(c, "workspace>>2\nactivewindow>>firefox,Mozilla Firefox — a, b\nactivewindowv2>>55\n")
            FakeSocketServer.send(c, "activewindow>>,\nactivewindow>>org.gnome.Nautilus,Home\n")
            FakeSocketServer.waitForHangUp(c)
        }
        defer { events.shutdown() }
        let probe = TrackerProbe(.hyprland, env: ["HYPRLAND_INSTANCE_SIGNATURE": "sig1", "XDG_RUNTIME_DIR": run])
        try probe.wait("four focus changes") { probe.changes.count == 4 }
        #expect(probe.changes == [window("kitty", "~/src", instance: "kitty"), window("firefox", "Mozilla Firefox — a, b"),
                                  .nothing, window("org.gnome.Nautilus", "Home")])
        #expect(String(decoding: requests.received.withLock { $0 }, as: UTF8.self) == "j/activewindow")
        #expect(probe.tracker.focus == .app(ids: ["org.gnome.Nautilus"]))
    }

    static let niriWindows = #"""
    {"WindowsChanged":{"windows":[{"id":1,"title":"a","app_id":"foot","pid":10,"workspace_id":1,"is_focused":true,"is_floating":false},{"id":2,"title":"b","app_id":"firefox","pid":11,"workspace_id":1,"is_focused":false,"is_floating":false}]}}
    """#

    /// niri: the request `"EventStream"`, the reply `{"Ok":"Handled"}`, then events.
    @Test func niri_protocol_eventStreamWindowsAndFocus() throws {
        let dir = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try FakeSocketServer(path: dir + "/niri.sock") { c, s in
            _ = s.readLine(c)
            FakeSocketServer.send(c, "{\"Ok\":\"Handled\"}\n")
            FakeSocketServer.send(c, "{\"WorkspacesChanged\":{\"workspaces\":[]}}\n" + CompositorProtocolTests.niriWindows + "\n")
            FakeSocketServer.send(c, "{\"WindowFocusChanged\":{\"id\":2}}\n{\"WindowFocusChanged\":{\"id\":null}}\n")
            FakeSocketServer.send(c, #"{"WindowOpenedOrChanged":{"window":{"id":3,"title":"untitled","app_id":null,"pid":12,"workspace_id":1,"is_focused":true,"is_floating":false}}}"# + "\n")
            FakeSocketServer.send(c, "{\"WindowClosed\":{\"id\":3}}\n")
            FakeSocketServer.waitForHangUp(c)
        }
        defer { server.shutdown() }
        let probe = TrackerProbe(.niri, env: ["NIRI_SOCKET": dir + "/niri.sock"])
        try probe.wait("five focus changes") { probe.changes.count == 5 }
        #expect(probe.changes == [window("foot", "a"), window("firefox", "b"), .nothing, window("", "untitled"), .nothing])
        #expect(String(decoding: server.received.withLock { $0 }, as: UTF8.self) == "\"EventStream\"\n")
        #expect(probe.tracker.focus == .nothing)
    }

    /// A niri error reply (an old niri without the event stream) is a clear failure, said once.
    @Test func niri_protocol_errorReplyIsSaidOnce() throws {
        let dir = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try FakeSocketServer(path: dir + "/niri.sock") { c, s in
            _ = s.readLine(c)
            FakeSocketServer.send(c, "{\"Err\":\"unknown request\"}\n")
        }
        defer { server.shutdown() }
        let probe = TrackerProbe(.niri, env: ["NIRI_SOCKET": dir + "/niri.sock"])
        try probe.wait("the refusal") { probe.logged("niri refused the event stream") == 1 }
        usleep(1_500_000)                                     // several reconnections later…
        #expect(probe.logged("niri refused the event stream") == 1)
        #expect(probe.tracker.focus == .unknown)
    }
}
