/// Taps and double taps in the arena: a completed tap is reported at once, or waits for a
/// second one when a doubleTap binding names its finger count (RecognizerArena's
/// "Require-to-fail"); the second of a matching pair is the double tap.
extension RecognizerArena {
    /// The second touch of a would-be double tap is no tap: the first tap is reported now.
    mutating func flushFirstTapIfSecondFailed(_ completed: TapRecognizer.Completed?, at time: Instant) {
        if completed == nil && tap.state != .possible, let first = doubleTap.secondFailed() {
            emitTap(first, at: time)
        }
    }

    mutating func handleTap(_ c: TapRecognizer.Completed) {
        if case .waiting(let stale) = doubleTap.state {
            // A touch sequence began without passing through `beginSequence`.
            sink.bug("doubleTap: a tap completed while the previous one still waited for its second; reporting it")
            doubleTap.reset()
            emitTap(stale, at: c.time)
        }
        if case .secondDown(let first) = doubleTap.state {
            doubleTap.reset()
            if first.fingers == c.fingers {
                if bound(.doubleTap) {
                    sink.events.append(sink.tapEvent(.doubleTap, c, at: c.time))
                }
                return
            }
            emitTap(first, at: c.time)
        }
        if bound(.doubleTap) && doubleTapFingerCounts.contains(c.fingers) {
            doubleTap.wait(for: c, thresholds)
        } else {
            emitTap(c, at: c.time)
        }
    }

    mutating func emitTap(_ c: TapRecognizer.Completed, at time: Instant) {
        guard bound(.tap) else { return }
        sink.events.append(sink.tapEvent(.tap, c, at: time))
    }
}
