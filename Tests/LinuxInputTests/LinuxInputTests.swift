// Host tests of LinuxInput that need no /dev/input: error paths, fd ownership, the inotify
// monitor on a scratch directory. Real devices are tested in the VM (Tests/VM/run.sh).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import LinuxInput
import LinuxSystem

/// Open fds of this process whose /proc/self/fd link names `target` (e.g. "/dev/null",
/// "anon_inode:inotify"). Counting only these keeps the check true while other suites, running
/// in parallel in the same process, open and close fds of their own.
private func openFdCount(to target: String) -> Int {
    guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return -1 }
    return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == target }.count
}

@Suite struct InputErrorTests {
    @Test func test_description_whenPermissionDenied_explainsTheInputGroup() {
        let e = InputError(operation: "open", path: "/dev/input/event3", error: .permissionDenied)
        #expect(e.isPermissionDenied)
        #expect(e.description.contains("/dev/input/event3"))
        #expect(e.description.contains("input` group"))
    }

    @Test func test_description_whenOtherErrno_namesOperationAndErrno() {
        let e = InputError(operation: "libevdev_new_from_fd", path: "/dev/null", error: SystemError(code: ENOTTY))
        #expect(!e.isPermissionDenied)
        #expect(e.description.hasPrefix("libevdev_new_from_fd /dev/null: "))
        #expect(e.description.contains("errno \(ENOTTY)"))
        #expect(!e.description.contains("input` group"))
    }
}

@Suite struct EvdevDeviceTests {
    @Test func test_open_whenNodeMissing_throwsENOENTFromOpen() {
        #expect(throws: InputError(operation: "open", path: "/nonexistent/event9", error: .noSuchFile)) {
            _ = try EvdevDevice(path: "/nonexistent/event9")
        }
    }

    @Test func test_open_whenNotAnEvdevNode_throwsAndClosesItsFd() throws {
        // A file of this test's own, so no other suite's fds are counted.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-evdev-\(getpid())-\(UInt64.random(in: 0...UInt64.max))").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("not an input device".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = openFdCount(to: path)
        for _ in 0..<50 {
            do {
                _ = try EvdevDevice(path: path)
                Issue.record("\(path) opened as an evdev device")
            } catch {
                #expect(error.operation == "libevdev_new_from_fd")
                #expect(error.path == path)
            }
        }
        #expect(before == 0)
        #expect(openFdCount(to: path) == 0)
    }
}

@Suite(.serialized) struct DeviceMonitorTests {
    private func scratchDirectory() -> String {
        let path = NSTemporaryDirectory() + "linuxinput-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func test_automaticMode_followsUdevdPresence() throws {
        let monitor = try DeviceMonitor(inputDirectory: scratchDirectory())
        #expect(monitor.mode == (DeviceMonitor.udevdRunning ? .udev : .inotify))
    }

    @Test func test_inotify_whenEventNodeIsNotADevice_reportsUnavailableAndIgnoresOtherNames() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let monitor = try DeviceMonitor(mode: .inotify, inputDirectory: dir)
        #expect(monitor.mode == .inotify)
        #expect(monitor.enumerate().isEmpty)
        #expect(monitor.drain().isEmpty)

        FileManager.default.createFile(atPath: dir + "/mouse0", contents: Data())
        FileManager.default.createFile(atPath: dir + "/event7", contents: Data())
        let changes = monitor.drain()
        #expect(changes.count == 1)
        guard case .unavailable(let node, let error)? = changes.first else {
            Issue.record("expected .unavailable for a plain file, got \(changes)"); return
        }
        #expect(node == dir + "/event7")
        #expect(error.operation == "libevdev_new_from_fd")
        #expect(monitor.known.isEmpty)

        // Never added, so its removal is not reported.
        try FileManager.default.removeItem(atPath: dir + "/event7")
        #expect(monitor.drain().isEmpty)
    }

    @Test func test_inotify_whenDirectoryMissing_throwsFromAddWatch() {
        #expect(throws: InputError(operation: "inotify_add_watch", path: "/nonexistent/input", error: .noSuchFile)) {
            _ = try DeviceMonitor(mode: .inotify, inputDirectory: "/nonexistent/input")
        }
    }

    @Test func test_deinit_closesTheInotifyFd() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let before = openFdCount(to: "anon_inode:inotify")
        for _ in 0..<20 { _ = try DeviceMonitor(mode: .inotify, inputDirectory: dir) }
        #expect(openFdCount(to: "anon_inode:inotify") == before)
    }
}
