// Exclusive claims on a turned touchscreen: a binding's direction is the person's, so the
// swipe an exclusive device holds back and claims for `{swipe, fingers: 3, direction: up}` is
// the one that goes up for the person holding the turned device, not towards the panel's top.
// The daemon's own parts: a real config parsed, its BindingPlan, a DeviceSession fed through a
// PipeDeviceSource (the pipe the replay uses), and the ClaimRule an ExclusiveDevice asks about
// each gesture (the grab and the uinput clone need the kernel suite).
@testable import GestureDaemon
import GestureConfig
import GestureCore
import GestureTestSupport
import Testing

@Suite struct ExclusiveOrientationTests {
    static func config(rotation: Int) throws -> Config {
        try Config.parse("""
        devices:
          - match: {kind: touchscreen}
            exclusive: true
            rotation: \(rotation)
        bindings:
          - {gesture: swipe, fingers: 3, direction: up, command: "true"}
        """, file: "test.yaml")
    }

    /// A 300 × 200 mm panel (10 units/mm). Three fingers 20 mm apart across the stroke land
    /// near the middle and stroke 60 mm along (dx, dy) (panel millimetres, y down) in 30 frames
    /// of 10 ms, then lift.
    static func stroke(dx: Int32, dy: Int32) -> [InputEvent] {
        let start: [(Int32, Int32)] = dx != 0 ? [(1500, 800), (1500, 1000), (1500, 1200)] : [(1300, 1000), (1500, 1000), (1700, 1000)]
        var out: [InputEvent] = []
        for (i, p) in start.enumerated() { out += contact(0, slot: Int32(i), id: Int32(i + 1), x: p.0, y: p.1) }
        out += [ev(0, EventType.key, KeyCode.btnTouch, 1), syn(0)]
        for step in Int32(1)...30 {
            let ms = Int64(step) * 10
            for (i, p) in start.enumerated() {
                out += contact(ms, slot: Int32(i), id: Int32(i + 1), x: p.0 + dx * 20 * step, y: p.1 + dy * 20 * step)
            }
            out.append(syn(ms))
        }
        for i in 0..<3 { out += contact(310, slot: Int32(i), id: -1) }
        out += [ev(310, EventType.key, KeyCode.btnTouch, 0), syn(310)]
        return out
    }

    /// The recognized swipes' directions, and whether the claim rule of an exclusive device
    /// with this config claims any gesture of the stroke.
    static func run(_ config: Config, screenClockwise: Int?, dx: Int32, dy: Int32) throws -> (directions: [String], claimed: Bool) {
        let device = ScenarioDevices.touchscreen()
        let plan = BindingPlan(config).device(device)
        #expect(plan.settings.exclusive, "the rule makes the touchscreen exclusive")
        let source = PipeDeviceSource(description: device, node: "pipe:test")
        let writer = try #require(source.writer)
        defer { writer.finish(); source.close() }
        var orientation = DeviceOrientation(config: plan.transform)
        if let cw = screenClockwise {
            orientation.screen = AxisTransform.screen(clockwiseDegrees: cw)
            orientation.screenSource = "test output transform \(cw)"
        }
        let session = DeviceSession(id: 1, source: source, plan: plan, orientation: orientation)
        let rule = ClaimRule(plan)
        #expect(writer.send(stroke(dx: dx, dy: dy)))
        var directions: [String] = [], claimed = false
        func take(_ o: GesturePipeline.Output) {
            guard case .gesture(let g) = o else { return }
            if rule.claims(g) { claimed = true }
            if g.kind == .swipe && g.phase == .recognized { directions.append(g.direction?.rawValue ?? "none") }
        }
        _ = session.readAvailable(take)
        session.advance(to: Instant.milliseconds(2000), take)
        return (directions, claimed)
    }

    /// `rotation: 90` turns the device's axes 90° clockwise, as libinput's calibration matrix
    /// `0 -1 1 1 0 0` does (libinput doc/user/absolute-axes.rst): a stroke towards the panel's
    /// left edge is the picture's up, one towards its top the picture's right.
    @Test func test_configRotation90_claimsThePersonsUp_notThePanels() throws {
        let c = try Self.config(rotation: 90)
        let towardsLeft = try Self.run(c, screenClockwise: nil, dx: -1, dy: 0)
        #expect(towardsLeft.directions == ["up"] && towardsLeft.claimed, "\(towardsLeft)")
        let towardsTop = try Self.run(c, screenClockwise: nil, dx: 0, dy: -1)
        #expect(towardsTop.directions == ["right"] && !towardsTop.claimed, "\(towardsTop)")
    }

    /// The screen turned 90° clockwise (sway's `transform 90`, an `orientation` request): the
    /// person holds the device a quarter turn counterclockwise, so the panel's right edge is
    /// at their top; the stroke towards the panel's top is their left.
    @Test func test_screenTurned90_claimsThePersonsUp_notThePanels() throws {
        let c = try Self.config(rotation: 0)
        let towardsRight = try Self.run(c, screenClockwise: 90, dx: 1, dy: 0)
        #expect(towardsRight.directions == ["up"] && towardsRight.claimed, "\(towardsRight)")
        let towardsTop = try Self.run(c, screenClockwise: 90, dx: 0, dy: -1)
        #expect(towardsTop.directions == ["left"] && !towardsTop.claimed, "\(towardsTop)")
    }

    /// The same strokes upright: the panel's up is the person's, and only it is claimed.
    @Test func test_upright_claimsThePanelsUp() throws {
        let c = try Self.config(rotation: 0)
        let towardsTop = try Self.run(c, screenClockwise: nil, dx: 0, dy: -1)
        #expect(towardsTop.directions == ["up"] && towardsTop.claimed, "\(towardsTop)")
        let towardsRight = try Self.run(c, screenClockwise: nil, dx: 1, dy: 0)
        #expect(towardsRight.directions == ["right"] && !towardsRight.claimed, "\(towardsRight)")
    }
}
