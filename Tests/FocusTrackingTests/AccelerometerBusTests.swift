// `orientation: accelerometer` against a real dbus-daemon: the daemon reads iio-sensor-proxy's
// AccelerometerOrientation itself. The sensor cannot run here, so a stand-in (labelled as such)
// serves iio-sensor-proxy's documented interface on the bus the daemon takes for the system bus
// (DBUS_SYSTEM_BUS_ADDRESS): net.hadess.SensorProxy at /net/hadess/SensorProxy, the methods
// ClaimAccelerometer/ReleaseAccelerometer, the property AccelerometerOrientation (s) and
// org.freedesktop.DBus.Properties.PropertiesChanged when it changes.
#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import Foundation
import Synchronization
import Testing

/// STAND-IN for iio-sensor-proxy (no accelerometer here): what it says on the bus, nothing more.
final class SensorProxyStandIn: @unchecked Sendable {
    let bus: OpaquePointer
    let orientation = Mutex<String>("normal")
    /// A value to announce with PropertiesChanged, from the stand-in's own thread (sd-bus
    /// connections are not shared between threads).
    let announce = Mutex<String?>(nil)
    let claims = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    private var thread: Thread?

    init(address: String) throws {
        // The bus socket appears at bind(), a moment before dbus-daemon listens: tried again for 2 s.
        var owned: OpaquePointer?
        for _ in 0..<40 where owned == nil {
            var b: OpaquePointer?
            gsd_bus_new(&b)
            gsd_bus_set_address(b, address)
            gsd_bus_set_bus_client(b, 1)
            if gsd_bus_start(b) >= 0, gsd_bus_request_name(b, "net.hadess.SensorProxy", 0) >= 0 { owned = b; break }
            gsd_bus_flush_close_unref(b)
            usleep(50_000)
        }
        guard let owned else { throw TestFailure(description: "the stand-in cannot own net.hadess.SensorProxy") }
        bus = owned
        let me = Unmanaged.passUnretained(self).toOpaque()
        gsd_bus_add_object(bus, nil, "/net/hadess/SensorProxy", { m, data, _ in
            let s = Unmanaged<SensorProxyStandIn>.fromOpaque(data!).takeUnretainedValue()
            var t: UInt8 = 0
            guard let m, gsd_bus_message_get_type(m, &t) >= 0, t == 1 else { return 0 }
            var r: OpaquePointer?
            gsd_bus_message_new_method_return(m, &r)
            switch String(cString: gsd_bus_message_get_member(m)) {
            case "ClaimAccelerometer": s.claims.add(1, ordering: .relaxed)
            case "ReleaseAccelerometer": break
            case "Get":
                let value = s.orientation.withLock { $0 }
                gsd_bus_message_open_container(r, CChar(UInt8(ascii: "v")), "s")
                value.withCString { _ = gsd_bus_message_append_basic(r, CChar(UInt8(ascii: "s")), $0) }
                gsd_bus_message_close_container(r)
            default: gsd_bus_message_unref(r); return 0
            }
            gsd_bus_send(nil, r, nil)
            gsd_bus_message_unref(r)
            return 1
        }, me)
        let t = Thread { [self] in
            while !stop.load(ordering: .relaxed) {
                while gsd_bus_process(bus, nil) > 0 {}
                if let v = announce.withLock({ a -> String? in defer { a = nil }; return a }) { propertiesChanged(v) }
                gsd_bus_wait(bus, 20_000)
            }
            gsd_bus_flush_close_unref(bus)
        }
        thread = t
        t.start()
    }

    /// The device turned: the property changes, and the signal says so (s a{sv} as).
    func turn(_ value: String) { orientation.withLock { $0 = value }; announce.withLock { $0 = value } }

    private func propertiesChanged(_ value: String) {
        var m: OpaquePointer?
        gsd_bus_message_new_signal(bus, &m, "/net/hadess/SensorProxy", "org.freedesktop.DBus.Properties", "PropertiesChanged")
        "net.hadess.SensorProxy".withCString { _ = gsd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
        gsd_bus_message_open_container(m, CChar(UInt8(ascii: "a")), "{sv}")
        gsd_bus_message_open_container(m, CChar(UInt8(ascii: "e")), "sv")
        "AccelerometerOrientation".withCString { _ = gsd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
        gsd_bus_message_open_container(m, CChar(UInt8(ascii: "v")), "s")
        value.withCString { _ = gsd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
        gsd_bus_message_close_container(m)
        gsd_bus_message_close_container(m)
        gsd_bus_message_close_container(m)
        gsd_bus_message_open_container(m, CChar(UInt8(ascii: "a")), "s")
        gsd_bus_message_close_container(m)
        gsd_bus_send(bus, m, nil)
        gsd_bus_message_unref(m)
    }

    func shutdown() { stop.store(true, ordering: .relaxed); usleep(100_000) }
}

@Suite(.serialized) struct AccelerometerBusTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var binary: String? {
        var candidates: [String] = []
        if let arg0 = CommandLine.arguments.first {
            var dir = URL(fileURLWithPath: arg0).deletingLastPathComponent()
            for _ in 0..<4 { candidates.append(dir.appendingPathComponent("gestured").path); dir = dir.deletingLastPathComponent() }
        }
        candidates.append(repo.appendingPathComponent(".build/debug/gestured").path)
        return candidates.first { access($0, X_OK) == 0 && !$0.hasSuffix(".xctest/gestured") }
    }

    /// The person turns the device; iio-sensor-proxy says which edge is up. The recorded stroke
    /// towards the panel's top is then the person's left (right-up: the device's right edge is
    /// up, the picture turned 90° clockwise), right (left-up), down (bottom-up); `undefined`
    /// (flat on a table) changes nothing.
    @Test func daemon_followsTheAccelerometer_forDevicesThatAskForIt() throws {
        guard let bin = Self.binary else { throw TestFailure(description: "no gestured binary") }
        let bus = try PrivateBus()
        let proxy = try SensorProxyStandIn(address: bus.address)
        defer { proxy.shutdown() }
        let dir = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
        devices:
          - match: {kind: touchscreen}
            orientation: accelerometer
        """.write(toFile: dir + "/config.yaml", atomically: true, encoding: .utf8)
        let swipe = Self.repo.appendingPathComponent("Tests/Fixtures/touchscreen-ep0430m09-2finger-swipe-up__whot-evemu-devices.evemu").path
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: bin)
        daemon.arguments = ["run", "--no-discovery", "--config", dir + "/config.yaml", "--socket", dir + "/s.sock",
                            "--replay", swipe, "--replay-wait-for-clients", "1", "--replay-loop"]
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        for k in ["NOTIFY_SOCKET", "LISTEN_FDS"] { env.removeValue(forKey: k) }
        daemon.environment = env
        let log = dir + "/daemon.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        daemon.standardError = FileHandle(forWritingAtPath: log)
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        for _ in 0..<400 where access(dir + "/s.sock", F_OK) != 0 { usleep(25_000) }

        let monitor = Process()
        monitor.executableURL = URL(fileURLWithPath: bin)
        monitor.arguments = ["monitor", "--json", "--socket", dir + "/s.sock"]
        let pipe = Pipe()
        monitor.standardOutput = pipe
        try monitor.run()
        // SIGKILL: monitor may be blocked writing to a pipe nobody reads any more.
        defer { kill(monitor.processIdentifier, SIGKILL); monitor.waitUntilExit() }
        let reader = LineReader(pipe.fileHandleForReading)

        func nextSwipe() throws -> String {
            try reader.first(within: 20) { $0.contains("\"gesture\":\"swipe\"") && $0.contains("\"phase\":\"recognized\"") }
                .components(separatedBy: "\"direction\":\"").dropFirst().first?.components(separatedBy: "\"").first ?? ""
        }
        let hello = try reader.first(within: 10) { $0.contains("\"type\":\"hello\"") }
        #expect(hello.contains("iio-sensor-proxy AccelerometerOrientation normal"), "\(hello)")
        #expect(try nextSwipe() == "up")
        #expect(proxy.claims.load(ordering: .relaxed) == 1)
        for (value, direction) in [("right-up", "left"), ("left-up", "right"), ("bottom-up", "down"), ("undefined", "down")] {
            proxy.turn(value)
            if value != "undefined" {
                _ = try reader.first(within: 10) { $0.contains("\"type\":\"deviceChanged\"") && $0.contains("AccelerometerOrientation \(value)") }
            }
            // The swipe after the turn (one under way when it came keeps its axes).
            _ = try nextSwipe()
            #expect(try nextSwipe() == direction, "\(value)")
        }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("following iio-sensor-proxy's AccelerometerOrientation"), "\(text)")
    }
}

/// Lines from a pipe, with a deadline.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()
    init(_ handle: FileHandle) {
        self.handle = handle
        fcntl(handle.fileDescriptor, F_SETFL, fcntl(handle.fileDescriptor, F_GETFL) | O_NONBLOCK)
    }

    func first(within seconds: Double, _ pred: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            while let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...nl)
                if pred(line) { return line }
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(handle.fileDescriptor, &chunk, chunk.count)
            if n > 0 { buffer.append(contentsOf: chunk[0..<n]) } else { usleep(20_000) }
        }
        throw TestFailure(description: "no such line within \(seconds) s")
    }
}
