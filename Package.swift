// swift-tools-version:6.0
// gestured: a Linux touch-gesture daemon. Dependencies point one way:
// executable → daemon → {LinuxInput, config, wire, recording} → core; LinuxSystem (errno, the
// monotonic clock, file reads) sits under every module that calls the system. No outside packages.
import PackageDescription

// No module imports Swift's Regex support, yet Swift imports `_StringProcessing` into every module
// implicitly, and with the README's `--static-swift-stdlib` that links _RegexParser and
// _StringProcessing (about 950 kB of code) into every executable. Leaving the implicit import out
// drops them, and the daemon's resident code with them (docs/performance-history.md, fourth pass).
// How the daemon's executable is linked (release only; each figure from docs/performance-history.md, fourth
// pass, host smaps of an idle `gestured run` with one client):
// - lld packs the 27 000 relative relocations (660 kB of `.rela.dyn` that ld.so reads, and so keeps
//   resident, at every start) into 5 kB of DT_RELR (glibc ≥ 2.36): −0.6 MB;
// - no `-export-dynamic` (the static runtime's link arguments export every symbol, and ld.so looks
//   each shared library's symbols up in the executable first): −0.3 MB;
// - scripts/gestured.order puts the functions the daemon runs next to each other, so start-up and
//   streaming fault in a few hundred kB of code instead of pages all over the static runtime;
// - libstdc++ linked statically: the static Swift runtime needs about twenty of its functions, and
//   the shared library costs 0.95 MB resident (ld.so relocating it, its iostream start-up). The
//   runtime's link arguments say `-lstdc++`; scripts/link/libstdc++.so, found first on the library
//   path, is a linker script that answers with GCC's libstdc++.a: −0.6 to −1.1 MB (fifth pass);
// - scripts/link/rodata.lds keeps `.rodata` read-only: swiftc marks a few of its input sections
//   writable, which would make the whole 1 MB section writable, in a mapping CodeHandBack cannot
//   drop;
// - every library call bound at start (`-z now`): full RELRO, the PLT's table read-only once the
//   daemon runs (Debian's `bindnow` hardening); the resident set is the same (2026-12-05, the
//   kernel VM's smaps of the 3M scenario).
let packageRoot = String(#filePath.dropLast("Package.swift".count))
let daemonLink: [LinkerSetting] = [.unsafeFlags([
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "now",
    "-Xlinker", "--symbol-ordering-file=\(packageRoot)scripts/gestured.order", "-Xlinker", "--no-warn-symbol-ordering",
    "-L", "\(packageRoot)scripts/link", "-Xlinker", "-T", "-Xlinker", "\(packageRoot)scripts/link/rodata.lds",
], .when(configuration: .release))]
// Release builds leave out the run-time exclusivity checks (swift_beginAccess on every access to
// a class's stored `var`): about 30 calls and 2.7 k instructions per input frame, 11 % of the
// daemon's event path (callgrind, issue 13). Debug builds, and so the tests, keep them.
let lean: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"]),
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
    // Each function in a section of its own, as the static Swift runtime's are: the linker's
    // symbol ordering (scripts/gestured.order) moves whole sections, and with one .text a source
    // file it could only move files, so the functions a frame runs stayed spread over the code.
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)),
]

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gestured-listen", targets: ["gestured-listen"]),
        .executable(name: "gestured-bench", targets: ["gestured-bench"]),
    ],
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // sd-login and sd-bus (who sits at the seat, whether their session is locked; listen's D-Bus
        // focus backends): libsystemd-dev's headers only, libsystemd.so.0 dlopen()ed on first use, so
        // a daemon that never asks logind does not map it (docs/ARCHITECTURE.md, "libsystemd").
        .target(name: "CSystemd"),
        // Two empty functions that mark where the daemon's hot code begins and ends in its .text
        // (scripts/gen-order.sh places them; CodePages keeps what lies between at a hand-back).
        .target(name: "CCodeOrder", cSettings: [.unsafeFlags(["-ffunction-sections"])]),
        // Focus tracking in the user's session (gestured listen): X11 (xcb, and xcb-randr for the
        // outputs' rotation), Wayland (D-Bus goes through CSystemd).
        .systemLibrary(name: "CXCB", pkgConfig: "xcb", providers: [.apt(["libxcb1-dev", "libxcb-randr0-dev"])]),
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        // wlr-foreign-toplevel-management's client code, generated by wayland-scanner (NOTICE).
        .target(name: "CWlrForeignToplevel", dependencies: ["CWaylandClient"]),
        // xdg-output's client code, generated by wayland-scanner (NOTICE): output names where
        // wl_output is older than version 4.
        .target(name: "CXdgOutput", dependencies: ["CWaylandClient"]),
        // Linux headers the Glibc module leaves out (epoll, timerfd, signalfd): header-only.
        .systemLibrary(name: "CLinuxSys"),

        // Pure core: stdlib only, no Foundation, no C, no clock.
        .target(name: "GestureCore", swiftSettings: lean),
        // The one argument parser of the commands: stdlib only.
        .target(name: "CommandArguments", swiftSettings: lean),
        // What a recording did, for people: touch sequences measured against the thresholds
        // (`explain`), thresholds from a person's own gestures (`tune`), the replay page. Pure.
        .target(name: "GestureInsight", dependencies: ["GestureCore"], swiftSettings: lean),
        // Thin safe wrapper over libyaml: a node tree with line:column marks.
        .target(name: "YAML", dependencies: ["CYAML"], swiftSettings: lean),
        // The bridge to the operating system: errno as SystemError, the monotonic clock as the
        // core's Instant, whole-file reads, the commands' standard streams.
        .target(name: "LinuxSystem", dependencies: ["GestureCore", "CommandArguments", "CLinuxSys", "CCodeOrder"], swiftSettings: lean),
        .target(name: "GestureRecording", dependencies: ["GestureCore", "YAML", "LinuxSystem"], swiftSettings: lean),
        .target(name: "GestureConfig", dependencies: ["GestureCore", "YAML", "LinuxSystem"], swiftSettings: lean),
        .target(name: "GestureWire", dependencies: ["GestureCore"], swiftSettings: lean),
        .target(name: "LinuxInput", dependencies: ["GestureCore", "LinuxSystem", "CLibevdev", "CLibudev"], swiftSettings: lean),
        // Which window has the focus, pushed by the desktop (gestured listen's `app:` bindings).
        .target(name: "FocusTracking", dependencies: [
            "GestureConfig", "GestureWire", "LinuxSystem", "CXCB", "CWlrForeignToplevel", "CXdgOutput", "CWaylandClient", "CSystemd",
        ], swiftSettings: lean),
        .target(name: "GestureDaemon", dependencies: [
            "GestureCore", "GestureRecording", "GestureConfig", "GestureWire", "LinuxInput", "LinuxSystem", "CSystemd",
        ], swiftSettings: lean),
        .executableTarget(name: "gestured", dependencies: [
            "CommandArguments", "GestureDaemon", "GestureCore", "GestureRecording", "GestureWire", "GestureConfig", "LinuxInput", "LinuxSystem",
            "GestureInsight",
        ], swiftSettings: lean, linkerSettings: daemonLink),
        // `gestured listen` (which execs it): bindings in the user's session, with focus tracking,
        // whose libraries (libxcb, libwayland-client) the daemon then does not load.
        .executableTarget(name: "gestured-listen", dependencies: [
            "CommandArguments", "GestureDaemon", "GestureCore", "GestureWire", "GestureConfig", "LinuxSystem", "FocusTracking",
        ], swiftSettings: lean, linkerSettings: daemonLink),
        // Test helper for the kernel suite (Tests/VM): uinput devices from recordings' headers.
        .executableTarget(name: "gestured-uinput", dependencies: [
            "CommandArguments", "GestureCore", "GestureRecording", "GestureWire", "LinuxInput", "LinuxSystem",
        ], swiftSettings: lean),
        // Measured speed: `swift run -c release gestured-bench` prints one `name: value unit` per figure.
        .executableTarget(name: "gestured-bench", dependencies: [
            "CommandArguments", "GestureDaemon", "GestureCore", "GestureRecording", "GestureConfig", "GestureWire", "LinuxInput", "LinuxSystem",
        ], swiftSettings: lean),

        // Shared by every test suite: devices, event helpers.
        .target(name: "GestureTestSupport", dependencies: ["GestureCore"], path: "Tests/Support"),
        .testTarget(name: "CommandArgumentsTests", dependencies: ["CommandArguments"]),
        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore", "GestureTestSupport"]),
        .testTarget(name: "GestureRecordingTests", dependencies: ["GestureRecording", "GestureCore", "GestureTestSupport"]),
        .testTarget(name: "GestureConfigTests", dependencies: ["GestureConfig", "GestureCore", "YAML", "GestureTestSupport"]),
        .testTarget(name: "GestureInsightTests", dependencies: [
            "GestureInsight", "GestureCore", "GestureRecording", "GestureConfig", "LinuxSystem", "GestureTestSupport",
        ]),
        .testTarget(name: "GestureWireTests", dependencies: ["GestureWire", "GestureRecording", "GestureTestSupport"]),
        .testTarget(name: "GestureDaemonTests", dependencies: [
            "GestureDaemon", "GestureConfig", "GestureWire", "GestureCore", "GestureRecording", "LinuxSystem", "GestureTestSupport",
        ]),
        .testTarget(name: "LinuxInputTests", dependencies: ["LinuxInput", "LinuxSystem", "GestureCore", "GestureConfig", "GestureTestSupport"]),
        .testTarget(name: "LinuxSystemTests", dependencies: ["LinuxSystem", "GestureCore"]),
        .testTarget(name: "FocusTrackingTests", dependencies: ["FocusTracking", "GestureConfig", "CSystemd"]),
    ],
    swiftLanguageModes: [.v6]
)
