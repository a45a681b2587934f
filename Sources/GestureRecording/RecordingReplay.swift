import GestureCore

extension GesturePipeline {
    /// Replays a whole recording in its own time (`gestured replay`, the tests): every event
    /// through a fresh pipeline, then `finish` so waiting gestures resolve.
    public static func run(_ recording: Recording, thresholds: Thresholds? = nil, _ emit: (Output) -> Void) {
        run(device: recording.description, events: recording.events, thresholds: thresholds, emit)
    }
}
