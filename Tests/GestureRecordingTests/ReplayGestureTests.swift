import Foundation
import GestureCore
import GestureTestSupport
import GestureRecording
import Testing

/// Replays every real recording in Tests/Fixtures through the recognizers and checks the result
/// against its `.expected` file (written from what the person did, see RECORDINGS.md).
enum ReplayFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let extensions = [".evemu", ".events", ".evtest", ".yml"]

    /// Every recording (`.evemu`, `.events` with its device's `.desc`, an `.evtest` log or a
    /// `libinput record` `.yml`), by base name.
    static var recordings: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { f in extensions.contains { f.hasSuffix($0) } }.sorted()
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    static func base(_ file: String) -> String {
        extensions.reduce(file) { $0.replacingOccurrences(of: $1, with: "") }
    }

    struct Replay {
        var device: DeviceDescription
        /// The recording's first event time: what `at=` windows in `.expected` files count from.
        var origin: Instant
        var events: [GestureEvent]
        var diagnostics: [String]
    }

    static func replay(_ file: String, bound: Set<GestureKind> = Set(GestureKind.all), directions: Int = 4) throws -> Replay {
        let recording = try RecordingLoader.load(path: directory.appendingPathComponent(file).path)
        var replayer = GesturePipeline(device: recording.description, boundKinds: bound, swipeDirections: directions)
        var events: [GestureEvent] = []
        var diagnostics: [String] = []
        let emit: (GesturePipeline.Output) -> Void = { output in
            switch output {
            case .gesture(let g): events.append(g)
            case .diagnostic(let d): diagnostics.append(d)
            case .frame: break
            }
        }
        for e in recording.events { replayer.feed(e, emit) }
        replayer.finish(emit)
        return Replay(device: recording.description, origin: recording.events.first?.time ?? .zero, events: events,
                      diagnostics: diagnostics.filter { $0.hasPrefix("gestured bug:") })
    }
}

struct ReplayError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

func summary(_ g: GestureEvent) -> String {
    var s = "\(g.time) \(g.kind) \(g.phase) fingers=\(g.fingers)"
    if let d = g.direction { s += " \(d)" }
    if let e = g.edge { s += " edge=\(e.rawValue)" }
    if let v = g.scale { s += " scale=\((v * 100).rounded() / 100)" }
    if let v = g.rotationDegrees { s += " rot=\(v.rounded())" }
    if let v = g.distanceMillimeters { s += " dist=\((v * 10).rounded() / 10)" }
    return s
}

@Suite struct ReplayGestureTests {
    @Test func everyRecordingHasAnExpectedFile() {
        #expect(ReplayFixtures.recordings.count >= 29)
        for r in ReplayFixtures.recordings {
            let path = ReplayFixtures.directory.appendingPathComponent(ReplayFixtures.base(r) + ".expected").path
            #expect(FileManager.default.fileExists(atPath: path), "missing \(ReplayFixtures.base(r)).expected")
        }
    }

    @Test(arguments: ReplayFixtures.recordings)
    func recordingYieldsWhatThePersonDid(file: String) throws {
        let expectedName = ReplayFixtures.base(file) + ".expected"
        let expectation = try ReplayExpectation.parse(try ReplayFixtures.text(expectedName), file: expectedName)
        let replay = try ReplayFixtures.replay(file, bound: expectation.bound, directions: expectation.directions)
        let problems = expectation.violations(replay.events, file: expectedName, origin: replay.origin)
        let decisive = replay.events.filter { $0.phase != .changed }
        #expect(problems.isEmpty, """
            \(file) (\(replay.device.kind), \(replay.device.sizeKnown ? "size known" : "size nominal")):
            \(problems.joined(separator: "\n"))
            events:
              \(decisive.map(summary).joined(separator: "\n  "))
            """)
        #expect(replay.diagnostics.isEmpty, "\(replay.diagnostics)")
        if expectation.directives.contains(where: \.known) {
            let known = expectation.violations(replay.events, file: expectedName, known: true, origin: replay.origin)
            withKnownIssue("directives marked 'known' in \(expectedName)") {
                #expect(known.isEmpty, "\(known.joined(separator: "\n"))")
            }
        }
    }

    /// With doubleTap bound, the nine Atmel taps pair up: every tap is still accounted for.
    @Test func atmelTapStorm_withDoubleTapBound_accountsForNineTaps() throws {
        let replay = try ReplayFixtures.replay("touchscreen-atmel-1finger-repeated-taps__whot-evemu-devices.evemu")
        let taps = replay.events.filter { $0.kind == .tap }.count
        let doubles = replay.events.filter { $0.kind == .doubleTap }.count
        #expect(taps + 2 * doubles == 9, "\(replay.events.map(summary))")
        #expect(replay.events.allSatisfy { ($0.kind == .tap || $0.kind == .doubleTap) && $0.fingers == 1 })
    }
}
