import GestureConfig
import GestureDaemon
import Testing

/// The rule an `emit` is checked against. The active session's uid is injected: logind is not
/// running where the unit tests run (a fault the real part cannot produce on demand here); the
/// kernel suite checks a real refusal over the socket.
@Suite struct EmitPolicyTests {
    func policy(_ c: ActionsConfig = ActionsConfig(), active: UInt32? = 1000) -> EmitPolicy {
        EmitPolicy(config: c, activeSessionUID: { active })
    }

    @Test func test_rootAndTheActiveSessionsUser_areAllowedByDefault() {
        #expect(policy().refusal(for: PeerCredentials(pid: 1, uid: 0, gid: 0)) == nil)
        #expect(policy().refusal(for: PeerCredentials(pid: 1, uid: 1000, gid: 1000)) == nil)
    }

    @Test func test_anyoneElse_isRefused_withTheRuleNamed() {
        let why = policy().refusal(for: PeerCredentials(pid: 1, uid: 1001, gid: 1001))
        #expect(why == "emit refused: uid 1001 is not root, not the user of seat0's active session (uid 1000), and not in actions.allowed_uids/allowed_gids of the daemon's config")
        let none = policy(active: nil).refusal(for: PeerCredentials(pid: 1, uid: 1000, gid: 1000))
        #expect(none?.contains("active session (none (or logind is not running))") == true)
    }

    @Test func test_allowedUidsAndGroups_andTurningItOff() {
        var c = ActionsConfig()
        c.allowedUIDs = [1001]; c.allowedGIDs = [27]
        #expect(policy(c).refusal(for: PeerCredentials(pid: 1, uid: 1001, gid: 1001)) == nil)
        #expect(policy(c).refusal(for: PeerCredentials(pid: 1, uid: 1002, gid: 1002, groups: [5, 27])) == nil)
        c.activeSessionUser = false
        #expect(policy(c).refusal(for: PeerCredentials(pid: 1, uid: 1000, gid: 1000)) != nil)
        c.emit = false
        #expect(policy(c).refusal(for: PeerCredentials(pid: 1, uid: 0, gid: 0)) == "emit refused: actions.emit is false in the daemon's config")
    }
}
