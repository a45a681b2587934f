import GestureCore
@testable import GestureDaemon
import GestureWire
import Testing

/// GestureBus: a gesture goes to the subscribers that take its kind, to none when none does, and a
/// subscriber's change of kinds reaches the bus through `interestChanged`.
@Suite struct GestureBusTests {
    /// Records the kinds it is handed; takes `kinds`.
    final class Recorder: GestureSubscriber {
        var kinds: GestureKindSet { didSet { interestChanged?() } }
        var got: [GestureKind] = []
        var interestChanged: (() -> Void)?
        var wantedKinds: GestureKindSet { kinds }
        init(_ kinds: GestureKindSet) { self.kinds = kinds }
        func receive(_ m: BusMessage) { if case .gesture(let g, _) = m { got.append(g.kind) } }
    }

    /// A subscriber that says nothing of its kinds: it takes every kind.
    final class Plain: GestureSubscriber {
        var got: [GestureKind] = []
        func receive(_ m: BusMessage) { if case .gesture(let g, _) = m { got.append(g.kind) } }
    }

    static let device = WireDevice(id: 1, name: "pad", kind: .touchpad, node: "/dev/input/event5", widthMillimeters: 100,
                                   heightMillimeters: 60, sizeKnown: true, slots: 5, contactProtocol: "B")

    static func gesture(_ kind: GestureKind) -> GestureEvent {
        GestureEvent(kind: kind, phase: kind.isDiscrete ? .recognized : .changed, id: 1, fingers: 3, time: .zero)
    }

    func publishEveryKind(_ bus: GestureBus) {
        for k in GestureKind.all { bus.publish(Self.gesture(k), from: Self.device) }
    }

    @Test func aGesture_reachesTheSubscribersThatTakeItsKind_andNobodyElse() {
        let bus = GestureBus()
        let hooks = Recorder(GestureKindSet([.swipe])), socket = Recorder(GestureKindSet([.pan, .swipe])), idle = Recorder(.none)
        bus.subscribe(hooks); bus.subscribe(socket); bus.subscribe(idle)
        publishEveryKind(bus)
        #expect(hooks.got == [.swipe])
        #expect(socket.got == [.pan, .swipe].sorted { GestureKind.all.firstIndex(of: $0)! < GestureKind.all.firstIndex(of: $1)! })
        #expect(idle.got.isEmpty)
        #expect(!bus.wants(.pinch) && bus.wants(.swipe) && bus.wants(.pan))
    }

    @Test func aChangeOfKinds_takesEffectForTheNextGesture() {
        let bus = GestureBus()
        let socket = Recorder(.none)
        bus.subscribe(socket)
        bus.publish(Self.gesture(.pan), from: Self.device)
        #expect(socket.got.isEmpty)
        socket.kinds = .all                      // a client connected
        bus.publish(Self.gesture(.pan), from: Self.device)
        socket.kinds = GestureKindSet([.pinch])  // it subscribed to pinches only
        bus.publish(Self.gesture(.pan), from: Self.device)
        bus.publish(Self.gesture(.pinch), from: Self.device)
        socket.kinds = .none                     // it left
        bus.publish(Self.gesture(.pinch), from: Self.device)
        #expect(socket.got == [.pan, .pinch])
    }

    @Test func aSubscriberThatNamesNoKinds_getsEveryKind() {
        let bus = GestureBus()
        let plain = Plain(), narrow = Recorder(.none)
        bus.subscribe(narrow); bus.subscribe(plain)
        publishEveryKind(bus)
        bus.publish(.gesture(Self.gesture(.tap), Self.device))
        #expect(plain.got == GestureKind.all + [.tap])
    }
}
