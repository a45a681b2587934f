import GestureCore

/// A recorded device: its description and its events in order, with the kernel's timestamps.
public struct Recording: Sendable {
    public enum Format: String, Sendable {
        /// evemu (`.evemu`, or a `.desc` + `.events` pair / their concatenation).
        case evemu
        /// `libinput record` YAML, version 1.
        case libinputRecord = "libinput-record"
        /// The text `evtest DEVICE` prints (its device header, then `Event: time …` lines).
        case evtest
    }

    public var description: DeviceDescription
    public var events: [InputEvent]
    public var format: Format

    public init(description: DeviceDescription, events: [InputEvent], format: Format = .evemu) {
        self.description = description; self.events = events; self.format = format
    }

    /// Time of the first event (the origin of `time` in replay output), or zero.
    public var startTime: Instant { events.first?.time ?? .zero }
}

/// A malformed recording: `FILE:LINE: what was expected`.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; 0 when the error is about the whole file (e.g. it cannot be read).
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file; self.line = line; self.message = message
    }

    public var description: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }
}
