import GestureCore
import GestureRecording
import GestureTestSupport
import Testing

/// The daemon's path through the pipeline (`feed(contentsOf:gestures:_:)` and
/// `advance(to:gestures:_:)`, gestures handed on as the arena holds them, frames left out)
/// against the plain one (`feed(_:_:)`, every output in one stream), on every recording.
@Suite struct PipelineGesturePathTests {
    /// What a pipeline handed on, in order, frames by their time and touch count.
    enum Out: Equatable {
        case frame(Instant, Int)
        case gesture(GestureEvent)
        case diagnostic(String)
    }

    static func out(_ o: GesturePipeline.Output) -> Out {
        switch o {
        case .frame(let f): .frame(f.time, f.touches.count)
        case .gesture(let g): .gesture(g)
        case .diagnostic(let d): .diagnostic(d)
        }
    }

    static func plain(_ r: Recording) -> [Out] {
        var p = GesturePipeline(device: r.description)
        var out: [Out] = []
        let emit: (GesturePipeline.Output) -> Void = { out.append(Self.out($0)) }
        for e in r.events { p.feed(e, emit) }
        if let last = p.lastTime { p.advance(to: last + .seconds(3), emit) }
        return out
    }

    /// In reads of up to 7 events, as the daemon feeds them; `frames` as `emitsFrames`.
    static func daemonPath(_ r: Recording, frames: Bool) -> [Out] {
        var p = GesturePipeline(device: r.description)
        p.emitsFrames = frames
        var out: [Out] = []
        let emit: (GesturePipeline.Output) -> Void = { out.append(Self.out($0)) }
        var i = 0
        while i < r.events.count {
            let read = Array(r.events[i..<min(i + 7, r.events.count)])
            p.feed(contentsOf: read, gestures: { out.append(.gesture($0)) }, emit)
            i += 7
        }
        if let last = p.lastTime { p.advance(to: last + .seconds(3), gestures: { out.append(.gesture($0)) }, emit) }
        return out
    }

    @Test func everyRecording_sameGesturesInTheSameOrder_framesOnlyWhenAsked() throws {
        var gestures = 0
        for file in ReplayFixtures.recordings {
            let r = try RecordingLoader.load(path: ReplayFixtures.directory.appendingPathComponent(file).path)
            let plain = Self.plain(r)
            #expect(Self.daemonPath(r, frames: true) == plain, "\(file)")
            let withoutFrames = plain.filter { if case .frame = $0 { return false }; return true }
            #expect(Self.daemonPath(r, frames: false) == withoutFrames, "\(file)")
            gestures += withoutFrames.count
        }
        #expect(gestures > 1_000, "the recordings make gestures to compare")
    }
}
