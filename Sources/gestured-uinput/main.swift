// gestured-uinput: makes a virtual input device through uinput (LinuxInput.UInputDevice) with the
// capabilities of a real recording's header, then writes events as told on stdin. The kernel
// tests (Tests/VM) drive it; it needs root and /dev/uinput.
import CommandArguments
import GestureCore
import GestureRecording
import LinuxInput
import LinuxSystem

let usageText = """
usage: gestured-uinput DEVICE [--name NAME] [--phys PHYS]
       gestured-uinput watch [--read-mask] [udev|inotify]   (print LinuxInput's view of devices and
                             reads; --read-mask: each device read as the daemon reads a shared one)
  DEVICE  an evemu file (.evemu or .desc) whose header describes the device, or `keyboard`, `mouse`
Creates the device, prints `node /dev/input/eventN`, then runs commands read from stdin:
  play FILE [STOP_AFTER_MS]  write FILE's E: events with their recorded spacing (optionally only
                             the first STOP_AFTER_MS of the recording)
  down X Y | move X Y | up   one contact (slot 0), in device units
  flood N                    N frames moving the contact, written at once (overflows evdev buffers);
                             after `play`, jitters a contact the recording left down by one unit
  up                         also lifts every contact and key a `play` left down
  key CODE VALUE             an EV_KEY event + SYN_REPORT
  ev TYPE CODE VALUE...       raw events as given, no SYN_REPORT added (e.g. `ev 3 47 1 0 0 0`)
  swipe N X Y DX DY MS       N contacts (slots 0…N-1, 60 units apart in x) put down at X Y, moved
                             together by DX DY over MS ms in 10 ms frames, then lifted (a device
                             with fewer slots gets as many, and BTN_TOOL_* says N)
  sleep MS                   wait
  echo TEXT                  print TEXT (a sync point)
  unplug | plug              destroy the device / make it again (answers `ok plug NODE`)
  quit                       destroy the device and exit (also at end of input)
Each command answers one line: `ok COMMAND` or `error: …`.

"""

func say(_ s: String) {
    var line = s + "\n"
    line.withUTF8 { buf in _ = try? FileDescriptor.standardOutput.write(UnsafeRawBufferPointer(buf)) }
}

func sleep(for duration: Duration) {
    guard duration.totalMicroseconds > 0 else { return }
    MonotonicClock.sleep(for: .microseconds(duration.totalMicroseconds))
}

func builtin(_ name: String) -> DeviceDescription? {
    switch name {
    case "keyboard":
        var keys = Set<UInt16>(1...88)  // KEY_ESC … KEY_F12 region: a plain keyboard
        keys.insert(28)
        return DeviceDescription(name: "gestured test keyboard", bustype: 0x03, vendor: 0x1234, product: 0x0001,
                                 codes: [EventType.syn: [0], EventType.key: keys, EventType.msc: [MscCode.scan]])
    case "mouse":
        return DeviceDescription(name: "gestured test mouse", bustype: 0x03, vendor: 0x1234, product: 0x0002,
                                 codes: [EventType.syn: [0], EventType.key: [KeyCode.btnLeft, KeyCode.btnRight, KeyCode.btnMiddle],
                                         EventType.rel: [0, 1, 8]])
    default:
        return nil
    }
}

/// Prints help (standard output) or a usage error (standard error) and exits with its status.
func finish(_ stop: ArgumentStop) -> Never {
    switch stop {
    case .help(let text): say(String(text.dropLast()))
    case .usage(let text): _ = Array(text.utf8).withUnsafeBytes { try? FileDescriptor.standardError.write($0) }
    }
    CurrentProcess.exit(stop.exitStatus)
}

let words = Array(CommandLine.arguments.dropFirst())
if words.first == "watch" {
    let syntax = CommandSyntax(command: "gestured-uinput watch", help: usageText, options: [.flag("--read-mask")], positionals: 1,
                               unknown: "unexpected argument")
    let parsed = syntax.parse(Array(words.dropFirst()))
    if let stop = parsed.stop { finish(stop) }
    let mode = parsed.arguments.compactMap { if case .positional(let p) = $0 { p } else { nil } }.first
    if let mode, DeviceMonitor.Mode(rawValue: mode) == nil { finish(syntax.invalid("the mode is udev or inotify, not '\(mode)'")) }
    CurrentProcess.exit(watchMain(mode, readMask: parsed.arguments.contains { if case .flag("--read-mask") = $0 { true } else { false } }))
}
let deviceSyntax = CommandSyntax(command: "gestured-uinput", help: usageText,
                                 options: [.value("--name", needs: "a name"), .value("--phys", needs: "a phys string")],
                                 positionals: 1)
var nameOverride: String?
var physOverride: String?
var deviceWord: String?
let parsedArguments = deviceSyntax.parse(words)
for argument in parsedArguments.arguments {
    switch argument {
    case .value("--name", let v): nameOverride = v
    case .value("--phys", let v): physOverride = v
    case .positional(let p): deviceWord = p
    default: fatalError("gestured-uinput bug: its syntax has no \(argument)")
    }
}
if let stop = parsedArguments.stop { finish(stop) }
guard let deviceArgument = deviceWord else { finish(.usage("gestured-uinput: which device? (an evemu file, keyboard or mouse)\n\n" + usageText)) }
let description: DeviceDescription
if let b = builtin(deviceArgument) {
    description = b
} else {
    do {
        if deviceArgument.hasSuffix(".desc") {
            let bytes = try RecordingLoader.readAll(path: deviceArgument, name: deviceArgument)
            description = try EvemuReader.parseDescription(bytes, file: deviceArgument)
        } else {
            description = try RecordingLoader.load(path: deviceArgument).description
        }
    } catch { say("error: \(error)"); CurrentProcess.exit(2) }
}

/// The device; `unplug` destroys it, `plug` makes a new one with the same description.
var current: UInputDevice?
do {
    current = try UInputDevice(description: description, name: nameOverride, phys: physOverride)
} catch {
    say("error: \(error)")
    CurrentProcess.exit(error.error == .noSuchFile || error.error == .noDevice ? 77 : 1)
}
say("node \(current?.devnode ?? "?")")

/// Forwards writes to the current device; fails with ENODEV while unplugged.
@MainActor enum device {
    static func write(type: UInt16, code: UInt16, value: Int32) throws(InputError) {
        guard let current else { throw InputError(operation: "write (unplugged)", error: .noDevice) }
        try current.write(type: type, code: code, value: value)
    }
    static func write(_ e: InputEvent) throws(InputError) { try write(type: e.type, code: e.code, value: e.value) }
}

/// What `play` left on the device (protocol B): the current slot, active slots with their
/// positions, keys held. `flood` jitters a played contact in place; `up` lifts them all.
var playedSlot: Int32 = 0
var playedContacts: [Int32: (x: Int32, y: Int32)] = [:]
var playedKeys: Set<UInt16> = []

@MainActor func track(_ e: InputEvent) {
    switch (e.type, e.code) {
    case (EventType.abs, AbsCode.mtSlot): playedSlot = e.value
    case (EventType.abs, AbsCode.mtTrackingId):
        if e.value < 0 { playedContacts[playedSlot] = nil } else if playedContacts[playedSlot] == nil { playedContacts[playedSlot] = (0, 0) }
    case (EventType.abs, AbsCode.mtPositionX): playedContacts[playedSlot]?.x = e.value
    case (EventType.abs, AbsCode.mtPositionY): playedContacts[playedSlot]?.y = e.value
    case (EventType.key, _): if e.value != 0 { playedKeys.insert(e.code) } else { playedKeys.remove(e.code) }
    default: break
    }
}

// One contact's state for down/move/up/flood.
var trackingId: Int32 = 100
var contact: (x: Int32, y: Int32)?
let proto = description.contactProtocol

@MainActor func frame(_ x: Int32?, _ y: Int32?, touching: Bool) throws(InputError) {
    switch proto {
    case .slots:
        try device.write(type: EventType.abs, code: AbsCode.mtSlot, value: 0)
        if touching {
            if contact == nil { trackingId += 1; try device.write(type: EventType.abs, code: AbsCode.mtTrackingId, value: trackingId) }
            if let x { try device.write(type: EventType.abs, code: AbsCode.mtPositionX, value: x) }
            if let y { try device.write(type: EventType.abs, code: AbsCode.mtPositionY, value: y) }
        } else {
            try device.write(type: EventType.abs, code: AbsCode.mtTrackingId, value: -1)
        }
    case .anonymous:
        if touching, let x, let y {
            try device.write(type: EventType.abs, code: AbsCode.mtPositionX, value: x)
            try device.write(type: EventType.abs, code: AbsCode.mtPositionY, value: y)
        }
        try device.write(type: EventType.syn, code: SynCode.mtReport, value: 0)
    default: break
    }
    if description.hasAxis(AbsCode.x), let x, touching { try device.write(type: EventType.abs, code: AbsCode.x, value: x) }
    if description.hasAxis(AbsCode.y), let y, touching { try device.write(type: EventType.abs, code: AbsCode.y, value: y) }
    let wasTouching = contact != nil
    if touching != wasTouching {
        if description.hasKey(KeyCode.btnTouch) { try device.write(type: EventType.key, code: KeyCode.btnTouch, value: touching ? 1 : 0) }
        if description.hasKey(KeyCode.btnToolFinger) { try device.write(type: EventType.key, code: KeyCode.btnToolFinger, value: touching ? 1 : 0) }
    }
    try device.write(type: EventType.syn, code: SynCode.report, value: 0)
    contact = touching ? (x ?? contact?.x ?? 0, y ?? contact?.y ?? 0) : nil
}

@MainActor func play(_ path: String, stopAfterMilliseconds: Int64?) throws(InputError) -> String {
    let file: Recording
    do {
        file = try RecordingLoader.load(path: path, descriptionPath: deviceArgument.hasSuffix(".desc") ? deviceArgument : nil)
    } catch { return "error: \(error)" }
    guard let first = file.events.first?.time else { return "ok play (no events)" }
    let start = MonotonicClock.now()
    var written = 0
    for e in file.events {
        let offset = e.time - first
        if let stop = stopAfterMilliseconds, offset > .milliseconds(stop) { break }
        sleep(for: start + offset - MonotonicClock.now())
        // SYN_DROPPED in a recording is the recorder's loss, not an event to inject.
        if e.type == EventType.syn && e.code == SynCode.dropped { continue }
        try device.write(e)
        track(e)
        written += 1
    }
    return "ok play \(written) events"
}

/// N contacts moving together (protocol B), with BTN_TOOL_* for the count as a touchpad sends them.
@MainActor func swipe(fingers n: Int32, x: Int32, y: Int32, dx: Int32, dy: Int32, milliseconds ms: Int32) throws(InputError) {
    let tools: [Int32: UInt16] = [1: KeyCode.btnToolFinger, 2: 0x14d, 3: 0x14e, 4: 0x14f, 5: 0x148]
    let steps = max(1, ms / 10)
    // A touchpad with fewer slots than fingers (2 slots, BTN_TOOL_TRIPLETAP) reports the first ones.
    let slots = min(n, description.absInfo[AbsCode.mtSlot].map { $0.maximum + 1 } ?? n)
    for step in 0...steps {
        for i in 0..<slots {
            try device.write(type: EventType.abs, code: AbsCode.mtSlot, value: i)
            if step == 0 { trackingId += 1; try device.write(type: EventType.abs, code: AbsCode.mtTrackingId, value: trackingId) }
            try device.write(type: EventType.abs, code: AbsCode.mtPositionX, value: x + i * 60 + dx * step / steps)
            try device.write(type: EventType.abs, code: AbsCode.mtPositionY, value: y + dy * step / steps)
        }
        if step == 0 {
            if description.hasKey(KeyCode.btnTouch) { try device.write(type: EventType.key, code: KeyCode.btnTouch, value: 1) }
            if let t = tools[n], description.hasKey(t) { try device.write(type: EventType.key, code: t, value: 1) }
        }
        try device.write(type: EventType.syn, code: SynCode.report, value: 0)
        sleep(for: .milliseconds(10))
    }
    for i in 0..<slots {
        try device.write(type: EventType.abs, code: AbsCode.mtSlot, value: i)
        try device.write(type: EventType.abs, code: AbsCode.mtTrackingId, value: -1)
    }
    if description.hasKey(KeyCode.btnTouch) { try device.write(type: EventType.key, code: KeyCode.btnTouch, value: 0) }
    if let t = tools[n], description.hasKey(t) { try device.write(type: EventType.key, code: t, value: 0) }
    try device.write(type: EventType.syn, code: SynCode.report, value: 0)
}

while let line = readLine() {
    let words = line.split(separator: " ").map(String.init)
    guard let command = words.first else { continue }
    func int(_ i: Int) -> Int32? { i < words.count ? Int32(words[i]) : nil }
    do {
        switch command {
        case "play":
            guard words.count >= 2 else { say("error: play FILE [STOP_AFTER_MS]"); continue }
            say(try play(words[1], stopAfterMilliseconds: words.count > 2 ? Int64(words[2]) : nil))
        case "down", "move":
            guard let x = int(1), let y = int(2) else { say("error: \(command) X Y"); continue }
            try frame(x, y, touching: true); say("ok \(command)")
        case "up":
            if !playedContacts.isEmpty || !playedKeys.isEmpty {
                for slot in playedContacts.keys.sorted() {
                    try device.write(type: EventType.abs, code: AbsCode.mtSlot, value: slot)
                    try device.write(type: EventType.abs, code: AbsCode.mtTrackingId, value: -1)
                }
                for key in playedKeys.sorted() { try device.write(type: EventType.key, code: key, value: 0) }
                try device.write(type: EventType.syn, code: SynCode.report, value: 0)
                playedContacts = [:]; playedKeys = []
            }
            if contact != nil { try frame(nil, nil, touching: false) }
            say("ok up")
        case "flood" where contact == nil && !playedContacts.isEmpty:
            // Jitter a contact the recording left down by one unit: still, but every frame new.
            let n = int(1) ?? 2000
            let slot = playedContacts.keys.min()!, at = playedContacts[slot]!
            for i in 0..<n {
                try device.write(type: EventType.abs, code: AbsCode.mtSlot, value: slot)
                try device.write(type: EventType.abs, code: AbsCode.mtPositionX, value: at.x + Int32(i % 2 == 0 ? 1 : 0))
                try device.write(type: EventType.syn, code: SynCode.report, value: 0)
            }
            say("ok flood \(n) (slot \(slot) in place)")
        case "flood":
            let n = int(1) ?? 2000
            let base = contact ?? (x: 100, y: 100)
            for i in 0..<n { try frame(base.x + Int32(i % 50), base.y + Int32(i % 50), touching: true) }
            say("ok flood \(n)")
        case "ev":
            // Raw events, written as given (no SYN_REPORT added): ev TYPE CODE VALUE [TYPE CODE VALUE…]
            let numbers = words.dropFirst().compactMap { Int32($0) }
            guard numbers.count == words.count - 1, !numbers.isEmpty, numbers.count % 3 == 0 else {
                say("error: ev TYPE CODE VALUE [TYPE CODE VALUE…]"); continue
            }
            for i in stride(from: 0, to: numbers.count, by: 3) {
                try device.write(type: UInt16(truncatingIfNeeded: numbers[i]), code: UInt16(truncatingIfNeeded: numbers[i + 1]),
                                 value: numbers[i + 2])
            }
            say("ok ev")
        case "key":
            guard let code = int(1), let value = int(2) else { say("error: key CODE VALUE"); continue }
            try device.write(type: EventType.key, code: UInt16(code), value: value)
            try device.write(type: EventType.syn, code: SynCode.report, value: 0)
            say("ok key")
        case "swipe":
            guard let n = int(1), let x = int(2), let y = int(3), let dx = int(4), let dy = int(5), let ms = int(6), n >= 1 else {
                say("error: swipe N X Y DX DY MS"); continue
            }
            try swipe(fingers: n, x: x, y: y, dx: dx, dy: dy, milliseconds: ms); say("ok swipe")
        case "sleep":
            sleep(for: .milliseconds(int(1) ?? 0)); say("ok sleep")
        case "echo":
            say(words.dropFirst().joined(separator: " "))
        case "unplug":
            current = nil; contact = nil; say("ok unplug")
        case "plug":
            if current == nil { current = try UInputDevice(description: description, name: nameOverride, phys: physOverride) }
            say("ok plug \(current?.devnode ?? "?")")
        case "quit":
            say("ok quit"); CurrentProcess.exit(0)
        default:
            say("error: unknown command '\(command)'")
        }
    } catch {
        say("error: \(error)")
    }
}
