#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import LinuxSystem

/// /proc as the hook runner reads it: stat lines, owners, environments.
@Suite struct ProcessTableTests {
    /// The command name may hold spaces and parentheses; the fields count from the last ')'.
    @Test func test_parseStat_countsFieldsAfterTheLastParenthesis() throws {
        let line = "4242 (a) b (c) Z 17 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 0 0"
        let e = try #require(ProcessTable.parseStat(Array(line.utf8)))
        #expect(e == ProcessTable.Entry(pid: 4242, parent: 17, state: UInt8(ascii: "Z"), startTime: 987654))
        #expect(e.isZombie)
        #expect(ProcessTable.parseStat(Array("4242 (cut short) S 1".utf8)) == nil)
        // A stat line ends in a newline; the fields after starttime do not matter; a field that
        // is not a number where one is due, or one past its type, is no entry.
        let real = "7 (kworker/0:1-events) I 2 0 0 0 -1 69238880 0 0 0 0 0 3 0 0 20 0 1 0 31 0 0 18446744073709551615 0 0\n"
        #expect(ProcessTable.parseStat(Array(real.utf8)) == ProcessTable.Entry(pid: 7, parent: 2, state: UInt8(ascii: "I"), startTime: 31))
        #expect(ProcessTable.parseStat(Array("4242 (x) S 1x 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0".utf8)) == nil)
        #expect(ProcessTable.parseStat(Array("4242 (x) S 4294967296 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0".utf8)) == nil)
        #expect(ProcessTable.parseStat(Array("  12 (x) R 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 0".utf8))?.startTime == 99)
    }

    /// The parser against every process this host lists, field by field against a plain split.
    @Test func test_parseStat_agreesWithASplitOfEveryProcessLine() throws {
        var compared = 0
        for pid in ProcessTable.pids() {
            guard let bytes = try? FileContents.bytes(of: "/proc/\(pid)/stat", maximumBytes: 4096) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            let close = text.lastIndex(of: ")")!
            let fields = text[text.index(after: close)...].split(separator: " ")
            let want = ProcessTable.Entry(pid: pid, parent: Int32(fields[1])!, state: fields[0].utf8.first!,
                                          startTime: UInt64(fields[19])!)
            #expect(ProcessTable.parseStat(bytes) == want, "\(text)")
            compared += 1
        }
        #expect(compared > 0)
    }

    @Test func test_entry_ofThisProcess_namesItsParent_andIsListed() throws {
        let e = try #require(ProcessTable.entry(getpid()))
        #expect(e.pid == getpid() && e.parent == getppid() && !e.isZombie && e.startTime > 0)
        #expect(ProcessTable.pids().contains(getpid()))
        #expect(ProcessTable.owner(getpid()) == geteuid())
    }

    /// ns_last_pid is the newest pid: a child made now has it, or a later one made meanwhile.
    @Test func test_lastPid_isAtLeastANewChildsPid() throws {
        let before = try #require(ProcessTable.lastPid(), "/proc/sys/kernel/ns_last_pid unreadable")
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { for a in argv { free(a) } }
        #expect(posix_spawn(&pid, "/bin/true", nil, nil, argv, nil) == 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let after = try #require(ProcessTable.lastPid())
        #expect(after >= pid && (pid > before || after < before), "ns_last_pid \(before) → \(after), child \(pid)")
    }

    @Test func test_environment_findsAnEntryByPrefix() {
        // A child given its own environment (this process's may change under other tests).
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("5"), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("A=1"), strdup("PROCESS_TABLE_TEST=x:7"), strdup("B=2"), nil]
        defer { for a in argv + envp { free(a) } }
        #expect(posix_spawn(&pid, "/bin/sleep", nil, nil, argv, envp) == 0)
        // posix_spawn returns once the child has let go of our memory, which in execve comes
        // before its own environment is set up: until then the environment reads empty.
        var first = ProcessTable.environment(of: pid, entryStartingWith: "PROCESS_TABLE_TEST=")
        for _ in 0..<100 where first == .empty { usleep(10_000); first = ProcessTable.environment(of: pid, entryStartingWith: "PROCESS_TABLE_TEST=") }
        defer { kill(pid, SIGKILL); var status: Int32 = 0; waitpid(pid, &status, 0) }
        #expect(first == .found("x:7"))
        #expect(ProcessTable.environment(of: pid, entryStartingWith: "PROCESS_TABLE_ABSENT=") == .absent)
        #expect(ProcessTable.environment(of: pid, entryStartingWith: "A=") == .found("1"), "the first entry")
        #expect(ProcessTable.environment(of: pid, entryStartingWith: "B=") == .found("2"), "the last entry")
        #expect(ProcessTable.environment(of: 0x3fff_fff0, entryStartingWith: "X=") == nil)
    }
}

/// The /proc paths a scan reads, written on the stack.
@Suite struct ProcPathTests {
    @Test func paths_areProcThePidAndTheLeaf() {
        for pid: Int32 in [0, 1, 9, 10, 99, 100, 4_194_304, Int32.max] {
            for leaf: StaticString in ["", "/stat", "/environ"] {
                let made = ProcessTable.procPath(pid, leaf) { String(cString: $0) }
                #expect(made == "/proc/\(pid)\(leaf)")
            }
        }
    }
}
