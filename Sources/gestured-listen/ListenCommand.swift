import CommandArguments
import FocusTracking
import GestureConfig
import GestureCore
import GestureDaemon
import GestureWire
import LinuxSystem

let listenUsage = """
    usage: gestured listen [--config FILE] [--socket PATH] [--focus-backend NAME] [--print-app]
                           [--print-screen]

    Runs the bindings of FILE in your session, from the gestures the system daemon streams on its
    socket: commands get your environment (DISPLAY, WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS), so
    wtype, ydotool, xdotool and notify-send work. Reconnects with backoff (0.5 s doubling up to
    30 s) when the daemon restarts. Only the `bindings` and `hooks` sections of FILE are used
    (and `socket.path` when --socket is not given).

      --config FILE   bindings (default ~/.config/gestured/config.yaml)
      --socket PATH   the daemon's socket (default: socket.path of FILE, /run/gestured/gestured.sock)
      --focus-backend NAME
                      how to learn the focused window for `app:` bindings: auto (default: from
                      the session's environment), off, or one of hyprland, niri, sway, i3, kwin,
                      gnome, wlr, x11
      --print-app     print the focus backend and each focus change (the ids to write after
                      `app:`, and the title), without connecting to the daemon
      --print-screen  print the session's outputs and their transforms as the compositor
                      reports them, and its touchscreen mapping where it has one (GNOME,
                      KWin, Hyprland), without connecting to the daemon

    listen also follows the transforms of the session's outputs (sway: IPC output events) and
    tells the daemon how the screen each touchscreen shows on turns its picture, so directions,
    edges and positions are the picture's: the output the compositor maps the touchscreen to
    (GNOME's touchscreen setting, KWin's outputName, Hyprland's input:touchdevice:output), else
    the output udev names (WL_OUTPUT), else the built-in panel (eDP, LVDS, DSI), else the only
    output. Each change is logged ("screen: …").
      -h, --help      this text

    """

let listenSyntax = CommandSyntax(command: "gestured listen", help: listenUsage, options: [
    .flag("--print-app"), .flag("--print-screen"), .value("--config"), .value("--socket"), .value("--focus-backend"),
])

func listenMain(_ arguments: [String]) -> Int32 {
    var configPath: String?
    var socketPath: String?
    var focusChoice = FocusChoice.auto
    var printApp = false
    var printScreen = false
    let parsed = listenSyntax.parse(arguments)
    for argument in parsed.arguments {
        switch argument {
        case .flag("--print-app"): printApp = true
        case .flag("--print-screen"): printScreen = true
        case .value("--config", let v): configPath = v
        case .value("--socket", let v): socketPath = v
        case .value("--focus-backend", let v):
            guard let c = FocusChoice(v) else { return listenSyntax.invalid("unknown focus backend '\(v)' (one of: \(FocusChoice.names))").report() }
            focusChoice = c
        default: fatalError("gestured bug: listen's syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
    // A parent may hand us blocked or ignored signals (Dispatch threads block them): make SIGTERM
    // and SIGINT stop us as they should.
    CurrentProcess.restoreDefault([.terminate, .interrupt, .hangUp])
    CurrentProcess.ignore(.brokenPipe)
    if printApp { return printFocusChanges(focusChoice) }
    if printScreen { return printScreenChanges() }
    let path = configPath ?? ((CurrentProcess.environmentValue("HOME") ?? "") + "/.config/gestured/config.yaml")
    let config: Config
    do { config = try Config.load(path: path, purpose: .listen) } catch {
        eprint("gestured listen: config error: \(error.description)")
        return 1
    }
    if config.bindings.isEmpty { eprint("gestured listen: \(path) has no bindings; gestures will only be logged") }
    let socket = socketPath ?? config.socket.path
    let plan = BindingPlan(config)
    // SIGTERM, SIGINT and SIGHUP end listen through `stopOnSignals`, which ends the binding
    // shells first; blocked here, before any thread starts, so every thread inherits the mask
    // (hooks get an empty mask from ChildSpawn).
    let signals = try? SignalFD(catching: [.terminate, .interrupt, .hangUp])
    let runner = HookRunner(bindings: plan.commandBindings, limits: config.hooks, reapsAdoptedChildren: true) { priority, message in
        eprint((priority <= 4 ? "gestured listen: warning: " : "gestured listen: ") + message)
    }
    defer { runner.shutdown() }
    if let signals { stopOnSignals(signals, runner) } else { CurrentProcess.restoreDefault([.terminate, .interrupt, .hangUp]) }
    let focus = startFocusTracking(focusChoice, bindings: config.bindings)
    // Ask only for what is bound (an empty list would mean nothing: then ask for everything).
    let kinds = plan.boundKinds
    let subscribe = WireEncoder.subscribe(Subscription(kinds: kinds.isEmpty ? nil : kinds))

    let lock = config.bindings.isEmpty ? nil : SessionLockWatcher(report: reportLock)
    var lines = ListenLines()
    var dispatch = ListenDispatch(plan: plan)   // commands here; keys:/button: → emit requests
    let relay = OrientationRelay { eprint("gestured listen: " + $0) }
    let mapping = TouchscreenMappingTracker(environment: BackendSelection.processEnvironment(),
                                            log: { eprint("gestured listen: " + $0) }, observe: { relay.mapping($0) })
    let screen = ScreenTracker(environment: BackendSelection.processEnvironment(),
                               log: { eprint("gestured listen: " + $0) }, observe: { relay.screens($0); mapping.refresh() })
    screen.start()
    mapping.start()
    defer { screen.stop(); mapping.stop() }
    ReconnectingClient(path: socket, subscribe: subscribe).runReplying { event, send in
        switch event {
        case .connectFailed(let error, _, let first):
            if first { eprint("\(error.description)\ngestured listen: retrying with backoff (up to 30 s)") }
        case .connected:
            lines = ListenLines()
            dispatch = ListenDispatch(config: config)
            relay.connected(send)
        case .message(let message, _):
            relay.handle(message)
            switch lines.handle(message, socket: socket, bindings: config.bindings.count) {
            case .gesture(let g, let id, let name, let kind, let node):
                let device = HookDevice(id: id, name: name, kind: kind, node: node)
                let app = focus?.focus ?? .unknown
                let (fire, skipped) = dispatch.actions(for: g, device: device, focus: app, locked: lock?.locked ?? false)
                for _ in 0..<skipped { lock?.noteSkipped() }
                for action in fire {
                    switch action {
                    case .run(let b): runner.run(b, event: g, device: device)
                    case .emit(let request): _ = relay.send(WireEncoder.emit(request))
                    }
                }
            case .log(let text): eprint("gestured listen: " + text)
            case .nothing: break
            }
        case .unparsable(let line, let reason):
            eprint("gestured listen: unparsable line from the daemon (\(TextEscaping.escaped(reason))): \(TextEscaping.escaped(line))")
        case .disconnected:
            relay.disconnected()
            eprint("gestured listen: the daemon closed the connection; reconnecting")
        }
        return true
    }
    return 0
}

/// Waits on its own thread for SIGTERM, SIGINT or SIGHUP; then ends every binding shell and what
/// it started (as the hook runner ends them: TERM, then KILL) and exits. Without it the default
/// action would leave the shells running, adopted by init.
func stopOnSignals(_ signals: SignalFD, _ runner: HookRunner) {
    let fd = signals.descriptor
    let started = try? SystemThread.detached {
        while true {
            _ = try? Poll.wait(for: fd, .readable, timeoutMilliseconds: -1)
            guard let s = SignalFD(descriptor: fd).next() else { continue }
            eprint("gestured listen: stopping (signal \(s)): ending the binding shells")
            runner.shutdown()
            CurrentProcess.exit(0)
        }
    }
    if started == nil {
        eprint("gestured listen: warning: cannot start the signal thread; a signal ends listen at once")
        CurrentProcess.restoreDefault([.terminate, .interrupt, .hangUp])
    }
}

/// Lock and unlock of the session listen follows (SessionLockWatcher), said once each.
@Sendable func reportLock(_ r: SessionLockWatcher.Report) {
    switch r {
    case .unavailable(let why):
        eprint("gestured listen: \(why): a locked screen cannot be detected; bindings run regardless")
    case .following(let session?):
        eprint("gestured listen: following whether session \(session) is locked (logind LockedHint)")
    case .following(nil):
        eprint("gestured listen: no logind session of this user yet (nor an active one on seat0): bindings run until one is found locked")
    case .locked(let session):
        eprint("gestured listen: session \(session ?? "?") locked: bindings paused until it is unlocked (when_locked: true still runs)")
    case .unlocked(let session, let skipped):
        eprint("gestured listen: session \(session ?? "?") unlocked" + (skipped > 0 ? "; \(skipped) binding run(s) skipped while locked" : ""))
    }
}
