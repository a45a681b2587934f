// `{"type":"stream","via":"pipe"}` against the real daemon binary: the client's lines move to a
// pipe whose read end comes with the reply, nothing is lost or doubled at the switch, replies
// follow the lines, and either end closing ends the connection without a leaked descriptor.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import GestureWire

@Suite(.serialized) struct StreamPipeTests {
    static let swipe4 = LoadSocketTests.swipe4

    /// Whether the socket has anything to read now.
    static func socketHasData(_ fd: Int32) -> Bool {
        var b: UInt8 = 0
        return recv(fd, &b, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK)) > 0
    }

    @Test func pipeClient_getsEveryGesture_onceAndInOrder_repliesThroughThePipeToo() throws {
        let d = try DaemonProcess(["--replay", Self.swipe4, "--replay", Self.swipe4,
                                   "--replay-wait-for-clients", "1", "--replay-delay", "0.3"])
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        let before = try c.streamThroughPipe()
        #expect(before.first?.contains(#""type":"hello""#) == true, "\(before)")
        #expect(before.last == #"{"type":"ok","request":"stream"}"#)
        // A request's reply now comes through the pipe, in order with the gestures.
        c.send(#"{"type":"subscribe","kinds":["swipe","pan"]}"#)
        c.send(#"{"type":"stream","via":"pipe"}"#)
        var got = try c.read(until: { m, _ in if case .ok = m { return true }; return false })
        got += try c.read(until: { m, _ in if case .error = m { return true }; return false })
        #expect(got.last?.1.contains("already streams through a pipe") == true, "\(got.last?.1 ?? "")")
        var removed = 0
        got += try c.read(until: { m, _ in if m.isDeviceRemoved { removed += 1 }; return removed == 2 })
        // Gestures that went out on the socket before the switch count too: none may be lost.
        let early = before.compactMap { try? WireDecoder.serverMessage($0) }.compactMap(\.gesture)
        let gestures = early + got.compactMap { $0.0.gesture }
        #expect(gestures.filter { $0.kind == "swipe" && $0.fingers == 4 && $0.direction == "up" }.count == 2,
                "the person swiped up with four fingers once in each replay: \(gestures)")
        #expect(gestures.allSatisfy { $0.kind == "swipe" || $0.kind == "pan" }, "only what it subscribed to after the ok")
        #expect(!Self.socketHasData(c.fd), "nothing more comes on the socket once the pipe took over")
        #expect(d.log.contains("streams through a pipe"))
    }

    @Test func pipeClient_seesTheSameLinesAsASocketClient() throws {
        let d = try DaemonProcess(["--replay", Self.swipe4, "--replay-wait-for-clients", "2", "--replay-delay", "0.5"])
        defer { _ = d.stop() }
        let onSocket = try TestClient(d.socket)
        _ = onSocket.next()
        let onPipe = try TestClient(d.socket)
        let before = try onPipe.streamThroughPipe()
        let pipeLines = before.dropFirst().dropLast() + (try onPipe.read(until: { m, _ in m.isDeviceRemoved })).map(\.1)
        let socketLines = try onSocket.read(until: { m, _ in m.isDeviceRemoved }).map(\.1)
        #expect(socketLines.filter { $0.contains(#""type":"gesture""#) }.count == (try LoadSocketTests.expectedGestures()))
        #expect(Array(pipeLines) == socketLines, "the pipe carries the socket's lines byte for byte")
    }

    @Test func closingThePipe_endsTheConnection_andLeaksNoDescriptor() throws {
        let d = try DaemonProcess(["--replay", Self.swipe4, "--replay-loop", "--replay-wait-for-clients", "1", "--replay-delay", "0"])
        defer { _ = d.stop() }
        let healthy = try TestClient(d.socket)
        _ = healthy.next()
        usleep(200_000)
        let baseline = LoadSocketTests.openFDs(d.pid)
        for round in 0..<3 {
            let c = try TestClient(d.socket)
            _ = try c.streamThroughPipe()
            _ = c.next()                       // lines flow through the pipe
            c.closePipe()
            // The daemon notices at its next write (EPIPE) or at once (EPOLLERR), closes the socket.
            var b = [UInt8](repeating: 0, count: 4096)
            var n = 0
            repeat { n = recv(c.fd, &b, b.count, 0) } while n > 0
            #expect(n == 0, "round \(round): the daemon closed the socket once the pipe's reader left (recv \(n), errno \(errno))")
        }
        #expect(d.waitForLog("closed its stream pipe"))
        #expect(LoadSocketTests.settleFDs(d.pid, to: baseline) == baseline, "no pipe or socket left open in the daemon")
        #expect(healthy.next() != nil, "the other client is still served")
    }

    @Test func closingTheSocket_endsThePipe() throws {
        let d = try DaemonProcess(["--replay", Self.swipe4, "--replay-loop", "--replay-wait-for-clients", "1", "--replay-delay", "0"])
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        _ = try c.streamThroughPipe()
        #expect(c.next() != nil)
        shutdown(c.fd, Int32(SHUT_RDWR))
        // Read the pipe until its end (read returns 0), not until a quiet moment: lines keep
        // coming until the daemon drops the client.
        var ended = false
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(10)
        while !ended && Date() < deadline {
            var p = pollfd(fd: c.pipe, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 1000) == 1 else { continue }
            ended = chunk.withUnsafeMutableBytes { Glibc.read(c.pipe, $0.baseAddress, $0.count) } == 0
        }
        #expect(ended, "the pipe reads its end once the connection is gone")
        #expect(d.waitForLog("disconnected (closed the connection)"))
    }

    @Test func pipeReaderThatStalls_isToldWhatItMissed_whileOthersGetEverything() throws {
        let d = try DaemonProcess(["--replay", Self.swipe4, "--replay", Self.swipe4, "--replay", Self.swipe4,
                                   "--replay-wait-for-clients", "2", "--replay-delay", "0.3"],
                                  config: "socket:\n  queue_limit: 8\n  raw_frames: true\n")
        defer { _ = d.stop() }
        let healthy = try TestClient(d.socket)
        _ = healthy.next()
        let stalled = try TestClient(d.socket)
        _ = try stalled.streamThroughPipe()
        // Raw frames fill the 64 KiB pipe and the 8-line queue while this client reads nothing.
        let got = try LoadSocketTests.readAll(healthy, devices: 3)
        #expect(got.compactMap { $0.0.gesture }.count == 3 * (try LoadSocketTests.expectedGestures()))
        let late = try stalled.read(until: { m, _ in if case .dropped = m { return true }; return false })
        #expect(late.contains { if case .dropped(let n) = $0.0 { return n > 0 }; return false })
    }

    @Test(arguments: [
        (#"{"type":"stream"}"#, #"stream: missing \"via\" (expected \"pipe\")"#),
        (#"{"type":"stream","via":"shm"}"#, #"stream: via shm is not a channel (expected \"pipe\")"#),
    ])
    func badStreamRequest_getsAnErrorOnTheSocket_andTheConnectionLives(line: String, reason: String) throws {
        let d = try DaemonProcess([])
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        _ = c.next()
        c.send(line)
        let answer = try #require(c.next())
        #expect(answer.contains(reason), "\(answer)")
        _ = try c.streamThroughPipe()         // and a good one still works on the same connection
    }
}
