import Foundation
import Testing
@testable import LinuxInput

/// udevd delivers the events of unrelated devices in any order: when a touchscreen is unplugged
/// and the next one gets its node, the old one's "remove" can arrive after the new one's "add"
/// (seen in the kernel suite's plug cycles under load). Real udevd cannot be made to reorder on
/// demand, so these tests inject the events into DeviceMonitor's udev handling directly — a
/// labelled fault injection; the monitor itself is a real one (inotify mode on a scratch
/// directory, so no udev socket is needed).
@Suite struct UdevOrderTests {
    /// A real device's phys reads as a string (often empty); nil means sysfs no longer had it.
    static func event(_ node: String, _ syspath: String, phys: String? = "",
                      properties: [String: String] = ["ID_INPUT_TOUCHSCREEN": "1"]) -> CInput.UdevInfo {
        CInput.UdevInfo(action: nil, sysname: String(node.split(separator: "/").last ?? ""), syspath: syspath,
                        devnode: node, initialized: true, properties: properties, name: "touchscreen", phys: phys)
    }

    static func monitor() throws -> DeviceMonitor {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("udev-order-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }   // only the udev handling is used
        return try DeviceMonitor(mode: .inotify, inputDirectory: dir)
    }

    let old = event("/dev/input/event2", "/sys/devices/virtual/input/input5/event2")
    let new = event("/dev/input/event2", "/sys/devices/virtual/input/input6/event2")

    @Test func test_lateRemoveOfTheOldDevice_doesNotRemoveTheNewOneAtItsNode() throws {
        let m = try Self.monitor()
        #expect(m.consider(old, action: "add").count == 1)
        let added = m.consider(new, action: "add")
        // The node changed hands: the old device is gone, said before the new one is added.
        #expect(added == [.removed(node: "/dev/input/event2"),
                          .added(DiscoveredDevice(node: "/dev/input/event2", kind: .touchscreen, syspath: new.syspath, name: "touchscreen"))])
        #expect(m.consider(old, action: "remove") == [])
        #expect(m.known["/dev/input/event2"]?.syspath == new.syspath)
        #expect(m.consider(new, action: "remove") == [.removed(node: "/dev/input/event2")])
        #expect(m.known.isEmpty)
    }

    @Test func test_inOrderEvents_addRemoveAddRemove() throws {
        let m = try Self.monitor()
        #expect(m.consider(old, action: "add").count == 1)
        #expect(m.consider(old, action: "change") == [])
        #expect(m.consider(old, action: "remove") == [.removed(node: "/dev/input/event2")])
        #expect(m.consider(new, action: "add").count == 1)
        #expect(m.consider(new, action: "remove") == [.removed(node: "/dev/input/event2")])
        #expect(m.consider(new, action: "remove") == [])
    }

    @Test func test_gesturedsOwnCloneAtTheOldNode_removesTheOldDeviceAndIsIgnored() throws {
        let m = try Self.monitor()
        _ = m.consider(old, action: "add")
        let clone = Self.event("/dev/input/event2", "/sys/devices/virtual/input/input7/event2",
                               phys: "\(VirtualDeviceMark.physPrefix)/clone")
        let changes = m.consider(clone, action: "add")
        #expect(changes.first == .removed(node: "/dev/input/event2"))
        #expect(changes.count == 2 && m.known.isEmpty)
        #expect(m.consider(old, action: "remove") == [])
    }

    @Test func test_lateAddOfADeviceAlreadyGone_isIgnoredAndLeavesTheNodesDevice() throws {
        let m = try Self.monitor()
        _ = m.consider(new, action: "add")
        // A clone's "add" handled after the clone was removed: sysfs no longer has its phys mark.
        let gone = Self.event("/dev/input/event2", "/sys/devices/virtual/input/input99-gone/event2", phys: nil)
        #expect(m.consider(gone, action: "add") == [])
        #expect(m.known["/dev/input/event2"]?.syspath == new.syspath)
    }
}
