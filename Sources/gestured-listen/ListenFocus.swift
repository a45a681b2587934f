import FocusTracking
import GestureConfig
import GestureCore
import LinuxSystem

/// `--focus-backend` values: `auto` (from the environment), `off`, or one backend's name.
enum FocusChoice: Equatable {
    case auto, off
    case backend(FocusBackendKind)

    init?(_ s: String) {
        switch s {
        case "auto": self = .auto
        case "off", "none": self = .off
        default:
            guard let k = FocusBackendKind(rawValue: s) else { return nil }
            self = .backend(k)
        }
    }

    static var names: String { (["auto", "off"] + FocusBackendKind.allCases.map(\.rawValue)).joined(separator: ", ") }
}

/// Starts following the focused window for `listen`'s `app:` bindings (nil when off).
func startFocusTracking(_ choice: FocusChoice, bindings: [Binding]) -> FocusTracker? {
    let usesApp = bindings.contains { $0.app != nil }
    guard choice != .off else {
        if usesApp { eprint("gestured listen: --focus-backend off: bindings with app: never run") }
        return nil
    }
    guard usesApp else { return nil }   // nothing to choose between: no need to follow the focus
    var kind: FocusBackendKind? = nil
    if case .backend(let k) = choice { kind = k }
    let tracker = FocusTracker(backend: kind, environment: BackendSelection.processEnvironment()) { line in
        eprint("gestured listen: " + TextEscaping.controlsEscaped(line))
    }
    tracker.start()
    return tracker
}

/// `gestured listen --print-app`: the backend in use and every focus change, until interrupted.
func printFocusChanges(_ choice: FocusChoice) -> Int32 {
    var kind: FocusBackendKind? = nil
    switch choice {
    case .off: eprint("gestured listen: --print-app needs a focus backend, not off"); return 2
    case .backend(let k): kind = k
    case .auto: break
    }
    let tracker = FocusTracker(backend: kind, environment: BackendSelection.processEnvironment(), log: { line in
        eprint("gestured listen: " + TextEscaping.controlsEscaped(line))
    }, observe: { report in
        let line: String
        switch report {
        case .connected(let k, let endpoint): line = "backend: \(k.rawValue) (\(endpoint))"
        case .lost(let k): line = "backend lost: \(k.rawValue) (reconnecting)"
        case .changed(let c): line = describe(c)
        }
        writeAll(1, line + "\n")
    })
    tracker.start()
    CurrentProcess.waitForSignals()
}

/// One focus change as `--print-app` prints it: what to write after `app:`. The app id,
/// instance and title come from windows, any program's to set: their control characters are
/// escaped (`\x1b`, `\r`…), so a title cannot drive the terminal or forge a line.
func describe(_ c: FocusChange) -> String {
    switch c {
    case .nothing: return "app: none  (no window has the focus)"
    case .window(let w):
        let (appID, instance) = (TextEscaping.escaped(w.appID), TextEscaping.escaped(w.instance))
        let title = "title: \"\(TextEscaping.escaped(w.title))\""
        if appID.isEmpty && instance.isEmpty { return "app: (no id)  \(title)  (only bindings without app: run)" }
        if instance.isEmpty { return "app: \(appID)  \(title)" }
        return "app: \(appID)  instance: \(instance)  \(title)"
    }
}
