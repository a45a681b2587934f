import Glibc
import LinuxSystem
import Testing

/// CStringList: NUL-terminated strings in one buffer, handed to C as argv/envp.
@Suite struct CStringListTests {
    @Test func strings_reachCAsWritten_inOrder_thenNil() {
        var list = CStringList(["PATH=/usr/bin:/bin", "", "NAME=välue with spaces"])
        list.begin(); list.add("STATIC="); list.add(byte: UInt8(ascii: "x")); list.end()
        var more = CStringList(["A=1"])
        more.append(contentsOf: list)
        let expected = ["A=1", "PATH=/usr/bin:/bin", "", "NAME=välue with spaces", "STATIC=x"]
        #expect(more.strings == expected)
        #expect(more.count == 5)
        let read: [String] = more.withPointers { p in
            var out: [String] = []
            var i = 0
            while let s = p[i] { out.append(String(cString: s)); i += 1 }
            return out
        }
        #expect(read == expected)
    }

    @Test func aNUL_endsTheString_asCReadsIt_andCanBeMadeASpace() {
        var list = CStringList(["A=x\u{0}y"])
        #expect(list.strings == ["A=x"])
        list.begin(); list.add("B="); let from = list.bytes.count; list.add("p\u{0}q"); list.replaceNULs(from: from); list.end()
        #expect(list.strings == ["A=x", "B=p q"])
    }

    /// A spawned shell sees exactly this environment.
    @Test func aShellGetsTheEnvironment() throws {
        let pipe = try FileDescriptor.pipe()
        let env = CStringList(["GREETING=hello from a list", "PATH=/usr/bin:/bin"])
        let pid = try ChildSpawn.shell("printf '%s' \"$GREETING\"", environment: env, stdout: pipe.writeEnd, stderr: pipe.writeEnd)
        pipe.writeEnd.close()
        defer { pipe.readEnd.close() }
        #expect(try ChildSpawn.wait(pid) == .exited(status: 0))
        var buf = [UInt8](repeating: 0, count: 256)
        let n = buf.withUnsafeMutableBytes { Glibc.read(pipe.readEnd.rawValue, $0.baseAddress, 256) }
        #expect(String(decoding: buf[0..<max(0, n)], as: UTF8.self) == "hello from a list")
    }
}
