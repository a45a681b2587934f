// Shared by the fuzz targets of the recording readers (evemu, librecord): what a parsed recording
// must satisfy. Compiled into a target that names it in a `// fuzz-support:` line.
import GestureCore
import GestureRecording

/// Through the whole GesturePipeline, as `gestured replay` runs it: every frame's touches finite
/// and inside the surface.
func decodeAndCheck(_ recording: Recording) {
    let device = recording.description
    let (w, h) = device.size
    let eps = 1e-6 * max(1, w, h)
    GesturePipeline.run(device: device, events: recording.events.prefix(50_000)) { o in
        guard case .frame(let frame) = o else { return }
        for t in frame.touches {
            if !t.x.isFinite || !t.y.isFinite { violated("non-finite touch \(t) on \(device.name)") }
            if (t.x < -eps || t.x > w + eps || t.y < -eps || t.y > h + eps) && !tolerated("outside-area") {
                violated("touch \(t) outside the \(w) × \(h) mm surface of \(device.name)")
            }
        }
    }
}
