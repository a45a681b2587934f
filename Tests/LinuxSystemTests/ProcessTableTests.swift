#if canImport(Glibc)
import Glibc
#endif
import Testing
import LinuxSystem

/// /proc as the hook runner reads it: stat lines, owners, environments.
@Suite struct ProcessTableTests {
    /// The command name may hold spaces and parentheses; the fields count from the last ')'.
    @Test func test_parseStat_countsFieldsAfterTheLastParenthesis() throws {
        let line = "4242 (a) b (c) Z 17 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 0 0"
        let e = try #require(ProcessTable.parseStat(Array(line.utf8)))
        #expect(e == ProcessTable.Entry(pid: 4242, parent: 17, state: UInt8(ascii: "Z"), startTime: 987654))
        #expect(e.isZombie)
        #expect(ProcessTable.parseStat(Array("4242 (cut short) S 1".utf8)) == nil)
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
        #expect(ProcessTable.environment(of: 0x3fff_fff0, entryStartingWith: "X=") == nil)
    }
}
