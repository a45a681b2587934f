import GestureCore
import GestureRecording
import Testing

/// Real recordings through a turned screen: the same hands, named as the person holding the
/// turned device would name them. The names below come from geometry, written before running:
/// sway's `transform N` turns the picture N° clockwise, so the person turns the device N°
/// counterclockwise to read it, and a stroke towards the panel's top points to the picture's
/// left (90), bottom (180) or right (270); the panel's left edge is the picture's bottom (90),
/// right (180) or top (270) edge.
@Suite struct OrientationReplayTests {
    /// A 2-finger swipe up on the EP0430M09 touchscreen (RECORDINGS.md).
    static let swipeUp = "touchscreen-ep0430m09-2finger-swipe-up__whot-evemu-devices.evemu"
    /// A 1-finger swipe right from the left edge, on the Intuos5's touch surface (RECORDINGS.md).
    static let leftEdge = "touchtablet-wacom-intuos5-1finger-swipe-from-left-edge__whot-evemu-devices.events"

    /// The Intuos5 played as a touchscreen (INPUT_PROP_DIRECT instead of INPUT_PROP_POINTER):
    /// only touchscreens follow the screen, and Tests/Fixtures holds no real touchscreen
    /// recording of an edge swipe. The events are the recording's own.
    static func asTouchscreen(_ r: Recording) -> Recording {
        var r = r
        r.description.properties = [InputProperty.direct]
        return r
    }

    static func gestures(_ r: Recording, _ t: AxisTransform) -> [GestureEvent] {
        var p = GesturePipeline(device: r.description, transform: t)
        var out: [GestureEvent] = []
        let keep: (GesturePipeline.Output) -> Void = { if case .gesture(let g) = $0, g.kind == .swipe || g.kind == .edgeSwipe { out.append(g) } }
        for e in r.events { p.feed(e, keep) }
        p.finish(keep)
        return out
    }

    /// (sway transform, the swipe's direction, the edge swipe's edge and direction)
    static let turns: [(Int, GestureDirection, Edge, GestureDirection)] = [
        (0, .up, .left, .right), (90, .left, .bottom, .up), (180, .down, .right, .left), (270, .right, .top, .down),
    ]

    @Test(arguments: turns)
    func test_aTurnedScreen_namesTheSwipeAsThePersonDoes(turn: (Int, GestureDirection, Edge, GestureDirection)) throws {
        let t = AxisTransform.screen(clockwiseDegrees: turn.0)
        let swipes = Self.gestures(try Fixtures.load(Self.swipeUp), t).filter { $0.kind == .swipe }
        #expect(swipes.map(\.direction) == [turn.1], "transform \(turn.0)")
        #expect(swipes.first?.fingers == 2)
        let edge = Self.gestures(Self.asTouchscreen(try Fixtures.load(Self.leftEdge)), t)
        let began = edge.filter { $0.kind == .edgeSwipe && $0.direction != nil }
        #expect(began.first?.edge == turn.2 && began.first?.direction == turn.3,
                "transform \(turn.0): \(edge.map { "\($0.kind.rawValue) \($0.phase.rawValue) \($0.edge?.rawValue ?? "-") \($0.direction?.rawValue ?? "-")" })")
        #expect(!edge.contains { $0.kind == .swipe }, "transform \(turn.0)")
    }

    /// udev's calibration matrix for a panel mounted turned, in libinput's documented layout:
    /// "0 -1 1 1 0 0" (90° clockwise) names what sway's `transform 270` names.
    @Test func test_aCalibrationMatrix_turnsTheSameWay() throws {
        let t = try #require(AxisTransform.calibration("0 -1 1 1 0 0").0)
        let swipes = Self.gestures(try Fixtures.load(Self.swipeUp), t).filter { $0.kind == .swipe }
        #expect(swipes.map(\.direction) == [.right])
        let edge = Self.gestures(Self.asTouchscreen(try Fixtures.load(Self.leftEdge)), t).filter { $0.kind == .edgeSwipe }
        #expect(edge.first?.edge == .top)
        #expect(edge.first(where: { $0.direction != nil })?.direction == .down)
    }
}
