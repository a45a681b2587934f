extension MotionTracker {
    /// Sets `sample.sharedTravel`: how far the least-moved counted touch has gone the way the
    /// fingers translate. Fingers that all went the pan's slop the same way are a pan under way,
    /// not a tap's wobble (TapRecognizer); a finger that stayed, landed late or went another way
    /// keeps it small. The arena asks only while a tap is possible: a loop over the touches that
    /// nothing else needs.
    mutating func measureSharedTravel() {
        let d = sample.totalDistance
        guard sample.positioned >= 2, d > 0 else { sample.sharedTravel = 0; return }
        let ux = sample.totalX / d, uy = sample.totalY / d
        var least = Double.infinity
        for r in touches where !r.excluded {
            least = Swift.min(least, (r.prevX - r.startX) * ux + (r.prevY - r.startY) * uy)
        }
        sample.sharedTravel = least == .infinity ? 0 : Swift.max(0, least)
    }
}
