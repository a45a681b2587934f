#if canImport(Glibc)
import Glibc
#endif
import Testing
import LinuxSystem

/// The user and group databases as this machine has them: root exists everywhere, and this
/// process's own ids must come back the same way the kernel reports them.
@Suite struct AccountsTests {
    @Test func test_root_isFoundByNameAndId() {
        #expect(Accounts.groupID(named: "root") == 0)
        #expect(Accounts.groupName(0) == "root")
        #expect(Accounts.userName(0) == "root")
        let root = Accounts.user(named: "root")
        #expect(root?.uid == 0 && root?.gid == 0)
        #expect(Accounts.groups(ofUser: "root", primary: 0).contains(0))
    }

    @Test func test_unknownNames_areNil() {
        #expect(Accounts.groupID(named: "no-such-group-linuxsystem") == nil)
        #expect(Accounts.user(named: "no-such-user-linuxsystem") == nil)
        #expect(Accounts.groupName(4_000_000_123) == nil)
        #expect(Accounts.userName(4_000_000_123) == nil)
    }

    @Test func test_groupsOfUser_thePrimaryComesFirst_thenTheListedOnes() {
        // A primary gid the database does not list for the user still comes first; the
        // supplementary groups (from /etc/group's member lists) follow, whatever the primary.
        let groups = Accounts.groups(ofUser: "root", primary: 4242)
        #expect(groups.first == 4242)
        #expect(Array(groups.dropFirst()) == Array(Accounts.groups(ofUser: "root", primary: 0).dropFirst()))
        #expect(Accounts.groups(ofUser: "no-such-user-linuxsystem", primary: 7) == [7])
    }

    @Test func test_processGroups_matchGetgroupsAndTheEffectiveGid() {
        var list = [gid_t](repeating: 0, count: 512)
        let n = getgroups(Int32(list.count), &list)
        #expect(CurrentProcess.groupIDs == Array(list.prefix(Int(n))) + [getegid()])
        #expect(CurrentProcess.effectiveUserID == geteuid())
    }

    @Test func test_environment_dictionaryMatchesGetenv() {
        setenv("LINUXSYSTEM_ENV_DICT", "x=y", 1)
        defer { unsetenv("LINUXSYSTEM_ENV_DICT") }
        let env = CurrentProcess.environment
        #expect(env["LINUXSYSTEM_ENV_DICT"] == "x=y")
        #expect(env["PATH"] == String(cString: getenv("PATH")))
    }
}
