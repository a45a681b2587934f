/// Values by process id, in a sorted array: what a /proc scan keeps (the processes read, the
/// strangers, a hook's members). A scan runs every 100 ms while hooks run, on a few hundred
/// pids at most; binary search over one array serves it, where a Dictionary hashes every pid
/// through the static runtime's Hasher and keeps its storage code resident while hooks run.
struct PidMap<Value> {
    private(set) var pids: [Int32] = []
    private(set) var values: [Value] = []

    init() {}

    var isEmpty: Bool { pids.isEmpty }
    var count: Int { pids.count }

    /// Where `pid` is, or where it would go.
    private func index(of pid: Int32) -> (Int, found: Bool) {
        var lo = 0, hi = pids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pids[mid] < pid { lo = mid + 1 } else { hi = mid }
        }
        return (lo, lo < pids.count && pids[lo] == pid)
    }

    subscript(pid: Int32) -> Value? {
        get {
            let (i, found) = index(of: pid)
            return found ? values[i] : nil
        }
        set {
            let (i, found) = index(of: pid)
            switch (found, newValue) {
            case (true, let v?): values[i] = v
            case (true, nil): pids.remove(at: i); values.remove(at: i)
            case (false, let v?): pids.insert(pid, at: i); values.insert(v, at: i)
            case (false, nil): break
            }
        }
    }

    func contains(_ pid: Int32) -> Bool { index(of: pid).found }

    /// Keeps the entries `keep` is true for.
    mutating func keep(where keep: (Int32, Value) -> Bool) {
        var n = 0
        for i in pids.indices where keep(pids[i], values[i]) {
            pids[n] = pids[i]
            values.swapAt(n, i)
            n += 1
        }
        pids.removeLast(pids.count - n)
        values.removeLast(values.count - n)
    }

    /// Each entry, in pid order.
    func forEach(_ body: (Int32, Value) -> Void) {
        for i in pids.indices { body(pids[i], values[i]) }
    }
}
