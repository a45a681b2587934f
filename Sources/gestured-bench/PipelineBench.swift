// decode_events_per_s, recognize_frames_per_s, frame_cost_us_p50/p99: synthetic 240 Hz streams
// with 1, 2, 5, 10 fingers and the real recordings in Tests/Fixtures.
import GestureCore

func benchDecodeAndRecognize(quick: Bool) {
    for fingers in [1, 2, 5, 10] {
        unavailable("decode_events_per_s.synthetic_\(fingers)f", "SlotDecoder has not landed on main")
        unavailable("recognize_frames_per_s.synthetic_\(fingers)f", "SlotDecoder has not landed on main")
        unavailable("frame_cost_us_p50.synthetic_\(fingers)f", "SlotDecoder has not landed on main")
        unavailable("frame_cost_us_p99.synthetic_\(fingers)f", "SlotDecoder has not landed on main")
    }
    unavailable("decode_events_per_s.recordings", "SlotDecoder and recording readers have not landed on main")
}
