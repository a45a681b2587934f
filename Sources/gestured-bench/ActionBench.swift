// key_event_ms_p50/p99: from the daemon's ActionService receiving a gesture that a `keys:`
// binding matches until the key-down is readable on the virtual keyboard's evdev node (through
// uinput and the kernel's input core, as a compositor would read it). Needs /dev/uinput and
// read access to /dev/input (root, or the groups the README names).
import GestureConfig
import GestureCore
import GestureDaemon
import GestureWire
import LinuxInput
import LinuxSystem

func benchActions(quick: Bool) {
    let runs = quick ? 50 : 500
    let loop = EventLoop()
    let actions = ActionService(loop: loop, log: Logger(level: .error))
    defer { actions.stop() }
    var config = Config()
    var binding = Binding(gesture: .tap, phase: .recognized, command: "")
    guard case .success(let chord) = KeyNames.chord("F24") else { return }
    binding.keys = [chord]
    config.bindings = [binding]
    actions.configure(BindingPlan(config))
    guard let node = actions.keyboardNode else {
        unavailable("key_event_ms_p50", "no virtual keyboard: /dev/uinput is not writable here (the kernel suite's VM has it)")
        return
    }
    let reader: EvdevDevice
    do { reader = try EvdevDevice(path: node) } catch {
        unavailable("key_event_ms_p50", "cannot read \(node): \(error.description)"); return
    }
    let device = WireDevice(id: 1, name: "bench", kind: .touchscreen, node: "bench", widthMillimeters: 100,
                            heightMillimeters: 60, sizeKnown: true, slots: 10, contactProtocol: "B")
    var samples: [Double] = []
    for i in 0..<runs {
        let event = GestureEvent(kind: .tap, phase: .recognized, id: UInt64(i + 1), fingers: 1, time: Instant(microseconds: Int64(i)))
        let start = nowNanoseconds()
        actions.receive(.gesture(event, device))
        var seen = false
        while !seen && nowNanoseconds() - start < 1_000_000_000 {
            _ = try? Poll.wait(for: reader.fd, .readable, timeoutMilliseconds: 100)
            seen = reader.readAvailable().events.contains { $0.type == EventType.key && $0.value == 1 }
        }
        guard seen else { unavailable("key_event_ms_p50", "no key event arrived within 1 s"); return }
        samples.append(Double(nowNanoseconds() - start) / 1_000_000)
        _ = reader.readAvailable()  // the key-up
    }
    report("key_event_ms_p50", percentile(samples, 50), "ms", digits: 3)
    report("key_event_ms_p99", percentile(samples, 99), "ms", digits: 3)
}
