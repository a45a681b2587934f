import GestureCore

/// One event at a time in milliseconds: `ev(1000, EventType.abs, AbsCode.mtTrackingId, 1)`.
public func ev(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(time: .milliseconds(ms), type: type, code: code, value: value)
}

/// A protocol-B contact as events at `ms`: slot, tracking id (−1 lifts it), position.
public func contact(_ ms: Int64, slot: Int32, id: Int32, x: Int32? = nil, y: Int32? = nil) -> [InputEvent] {
    var out = [ev(ms, EventType.abs, AbsCode.mtSlot, slot), ev(ms, EventType.abs, AbsCode.mtTrackingId, id)]
    if let x { out.append(ev(ms, EventType.abs, AbsCode.mtPositionX, x)) }
    if let y { out.append(ev(ms, EventType.abs, AbsCode.mtPositionY, y)) }
    return out
}

/// SYN_REPORT at `ms`.
public func syn(_ ms: Int64) -> InputEvent { ev(ms, EventType.syn, SynCode.report, 0) }

/// One event at an exact time: `ev(at: t, EventType.syn, SynCode.report, 0)`.
public func ev(at time: Instant, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(time: time, type: type, code: code, value: value)
}

/// One event at a time in microseconds (recordings' resolution).
public func ev(us: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(time: Instant(microseconds: us), type: type, code: code, value: value)
}
