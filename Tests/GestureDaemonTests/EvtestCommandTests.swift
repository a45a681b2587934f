import Foundation
import Testing

/// `gestured replay` on evtest logs, through the real binary: a real log gives its gesture, a
/// malformed one gives FILE:LINE on standard error and exit status 2.
@Suite struct EvtestCommandTests {
    static func replay(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built next to the tests") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin)
        p.arguments = ["replay"] + args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func test_replay_ofARealEvtestLog_printsItsTap() throws {
        let log = TestPaths.fixtures.appendingPathComponent("touchscreen-hyn_ts-1finger-tap__sipeed-wiki.evtest").path
        let r = try Self.replay(["--json", log])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("\"gesture\":\"tap\"") && lines[0].contains("\"fingers\":1"), "\(r.out)")
        #expect(r.out.contains("\"name\":\"hyn_ts\""))
    }

    @Test func test_replay_ofAMalformedEvtestLog_namesFileAndLine_andExits2() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cut.evtest"
        try """
            Input driver version is 1.0.1
            Input device ID: bus 0x18 vendor 0x0 product 0x0 version 0x0
            Input device name: "cut"
            Supported events:
              Event type 3 (EV_ABS)
                Event code 0 (ABS_X)
                  Value      0
                  Min        0
                  Max      100
            Properties:
            Testing ... (interrupt to exit)
            Event: time 1762504306.703328, type 3 (EV_ABS), code 0 (ABS_X), value 5
            Event: time 1762504306.7033

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Self.replay([path])
        #expect(r.status == 2)
        #expect(r.err.contains("\(path):13: expected"), "\(r.err)")
        #expect(r.out.isEmpty)
    }
}
