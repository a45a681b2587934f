import Testing
import GestureCore
import GestureWire

@Suite struct WireProtocolTests {
    let device = WireDevice(id: 3, name: "Pad \"X\"", kind: .touchpad, node: "/dev/input/event7",
                            widthMillimeters: 100.25, heightMillimeters: 60, sizeKnown: true, slots: 5,
                            contactProtocol: "B")

    @Test func helloRoundTripsDevices() throws {
        let line = WireEncoder.hello(daemonVersion: "1.2.3", devices: [device])
        #expect(line.hasPrefix(#"{"type":"hello","protocol":1,"version":"1.2.3","devices":[{"id":3,"name":"Pad \"X\"","kind":"touchpad","node":"/dev/input/event7","size_mm":[100.3,60]"#))
        guard case .hello(let p, let v, let devices) = try WireDecoder.serverMessage(line) else {
            Issue.record("not a hello: \(line)"); return
        }
        #expect(p == 1 && v == "1.2.3")
        #expect(devices.count == 1)
        #expect(devices.first?.id == 3 && devices.first?.slots == 5 && devices.first?.sizeKnown == true)
        #expect(devices.first?.name == "Pad \"X\"" && devices.first?.node == "/dev/input/event7")
    }

    @Test func gestureDecodesWhatGestureJSONEncodes() throws {
        let g = GestureEvent(kind: .swipe, phase: .recognized, id: 1, fingers: 1, time: .milliseconds(1500),
                             direction: .left, dxMillimeters: -20.5, dyMillimeters: 1)
        let line = WireEncoder.gesture(g, device: device, origin: .zero)
        guard case .gesture(let back, let info) = try WireDecoder.serverMessage(line) else {
            Issue.record("not a gesture: \(line)"); return
        }
        #expect(back.kind == .swipe && back.phase == .recognized && back.fingers == 1 && back.id == 1)
        #expect(back.direction == .left && back.dxMillimeters == -20.5 && back.time == .milliseconds(1500))
        #expect(info.kind == .touchpad)
    }

    @Test func unknownKeysAndTypesAreIgnored() throws {
        guard case .dropped(let n) = try WireDecoder.serverMessage(#"{"type":"dropped","count":7,"future":{"x":1}}"#) else {
            Issue.record("dropped not decoded"); return
        }
        #expect(n == 7)
        guard case .unknown(let t) = try WireDecoder.serverMessage(#"{"type":"battery","level":3}"#) else {
            Issue.record("an unknown type must decode as .unknown"); return
        }
        #expect(t == "battery")
        guard case .subscribe(let s) = try WireDecoder.clientRequest(#"{"type":"subscribe","kinds":["tap"],"colour":"red"}"#) else {
            Issue.record("subscribe with an unknown key"); return
        }
        #expect(s.kinds == [.tap])
    }

    @Test func streamAsksForAPipe() throws {
        #expect(try WireDecoder.clientRequest(#"{"type":"stream","via":"pipe"}"#) == .stream(.pipe))
    }

    @Test func subscribeParsesEveryCriterion() throws {
        let r = try WireDecoder.clientRequest(#"{"type":"subscribe","kinds":["swipe","pinch"],"phases":["began","recognized"],"devices":["touchpad",4],"fingers":[3,4]}"#)
        #expect(r == .subscribe(Subscription(kinds: [.swipe, .pinch], phases: [.began, .recognized],
                                             devices: ["touchpad", "4"], fingers: [3, 4])))
        // The client side encoder writes what the server side parses.
        let sub = Subscription(kinds: [.tap], fingers: [2])
        #expect(try WireDecoder.clientRequest(WireEncoder.subscribe(sub)) == .subscribe(sub))
    }

    @Test(arguments: [
        ("not json", "not JSON"),
        ("[1,2]", "expected a JSON object"),
        (#"{"kinds":["tap"]}"#, "missing \"type\""),
        (#"{"type":"unsubscribe"}"#, "unknown request type 'unsubscribe'"),
        (#"{"type":"subscribe","kinds":["wave"]}"#, "unknown gesture 'wave'"),
        (#"{"type":"subscribe","kinds":"tap"}"#, "kinds: expected an array"),
        (#"{"type":"subscribe","phases":["done"]}"#, "unknown phase 'done'"),
        (#"{"type":"subscribe","fingers":[0]}"#, "fingers: expected finger counts 1…10"),
        (#"{"type":"subscribe","fingers":[true]}"#, "fingers: expected finger counts 1…10"),
        (#"{"type":"stream"}"#, #"stream: missing "via" (expected "pipe")"#),
        (#"{"type":"stream","via":"socket"}"#, #"stream: via socket is not a channel (expected "pipe")"#),
        (#"{"type":"stream","via":3}"#, #"stream: via a number is not a channel"#),
    ])
    func badClientLinesSayWhy(line: String, reason: String) {
        do {
            _ = try WireDecoder.clientRequest(line)
            Issue.record("\(line) was accepted")
        } catch {
            #expect(error.reason.contains(reason), "\(line): \(error.reason)")
        }
    }

    @Test func subscriptionMatching() {
        let g = GestureEvent(kind: .tap, phase: .recognized, id: 1, fingers: 2, time: .zero)
        #expect(Subscription.everything.matches(g, device: device))
        #expect(!Subscription(kinds: [.swipe]).matches(g, device: device))
        #expect(!Subscription(fingers: [3]).matches(g, device: device))
        #expect(Subscription(devices: ["touchpad"]).matches(g, device: device))
        #expect(Subscription(devices: ["/dev/input/event7"]).matches(g, device: device))
        #expect(Subscription(devices: ["3"]).matches(g, device: device))
        #expect(!Subscription(devices: ["touchscreen"]).matches(g, device: device))
        #expect(!Subscription(phases: [.began]).matches(g, device: device))
    }

    @Test func errorAndDeviceLinesAreJSON() throws {
        guard case .error(let r) = try WireDecoder.serverMessage(WireEncoder.error("bad \"line\"\n")) else {
            Issue.record("error"); return
        }
        #expect(r == "bad \"line\"\n")
        guard case .deviceRemoved(let d) = try WireDecoder.serverMessage(WireEncoder.deviceRemoved(device)) else {
            Issue.record("deviceRemoved"); return
        }
        #expect(d == WireDevice(id: 3, name: "Pad \"X\"", kind: .touchpad, node: "/dev/input/event7",
                                widthMillimeters: 100.3, heightMillimeters: 60, sizeKnown: true, slots: 5,
                                contactProtocol: "B"))
    }
}
