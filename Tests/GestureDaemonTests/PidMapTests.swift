@testable import GestureDaemon
import Testing

/// PidMap against a Dictionary, over random inserts, updates, removals and filters.
@Suite struct PidMapTests {
    @Test func randomOperations_leaveWhatADictionaryHolds_inPidOrder() {
        var rng = SystemRandomNumberGenerator()
        var map = PidMap<UInt64>()
        var reference: [Int32: UInt64] = [:]
        for step in 0..<20_000 {
            let pid = Int32(rng.next() % 300) - 5
            switch rng.next() % 10 {
            case 0..<5: let v = rng.next() % 1_000; map[pid] = v; reference[pid] = v
            case 5..<8: map[pid] = nil; reference[pid] = nil
            case 8: let cut = rng.next() % 1_000
                map.keep { _, v in v >= cut }
                reference = reference.filter { $0.value >= cut }
            default: #expect(map[pid] == reference[pid] && map.contains(pid) == (reference[pid] != nil), "step \(step)")
            }
        }
        #expect(map.pids == reference.keys.sorted())
        #expect(map.values == reference.keys.sorted().map { reference[$0]! })
        var seen: [Int32] = []
        map.forEach { pid, v in seen.append(pid); #expect(reference[pid] == v) }
        #expect(seen == reference.keys.sorted() && map.count == reference.count)
    }
}
