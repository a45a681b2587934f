// swift-tools-version:6.0
// gestured: a Linux touch-gesture daemon. Dependencies point one way:
// executable → daemon → {LinuxInput, config, wire, recording} → core. No outside packages.
import PackageDescription

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gestured-bench", targets: ["gestured-bench"]),
    ],
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // sd-login and sd-bus: who sits at the seat, and whether their session is locked.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // Linux headers the Glibc module leaves out (epoll, timerfd, signalfd): header-only.
        .systemLibrary(name: "CLinuxSys"),

        // Pure core: stdlib only, no Foundation, no C, no clock.
        .target(name: "GestureCore"),
        // Thin safe wrapper over libyaml: a node tree with line:column marks.
        .target(name: "YAML", dependencies: ["CYAML"]),
        .target(name: "GestureRecording", dependencies: ["GestureCore", "YAML"]),
        .target(name: "GestureConfig", dependencies: ["GestureCore", "YAML"]),
        .target(name: "GestureWire", dependencies: ["GestureCore"]),
        .target(name: "LinuxInput", dependencies: ["GestureCore", "CLibevdev", "CLibudev"]),
        .target(name: "GestureDaemon", dependencies: [
            "GestureCore", "GestureRecording", "GestureConfig", "GestureWire", "LinuxInput", "CLinuxSys", "CSystemd",
        ]),
        .executableTarget(name: "gestured", dependencies: [
            "GestureDaemon", "GestureCore", "GestureRecording", "GestureWire", "GestureConfig", "LinuxInput",
        ]),
        // Test helper for the kernel suite (Tests/VM): uinput devices from recordings' headers.
        .executableTarget(name: "gestured-uinput", dependencies: [
            "GestureCore", "GestureRecording", "GestureWire", "LinuxInput",
        ]),
        // Measured speed: `swift run -c release gestured-bench` prints one `name: value unit` per figure.
        .executableTarget(name: "gestured-bench", dependencies: [
            "GestureDaemon", "GestureCore", "GestureRecording", "GestureConfig", "GestureWire", "LinuxInput",
        ]),

        // Shared by every test suite: devices, event helpers.
        .target(name: "GestureTestSupport", dependencies: ["GestureCore"], path: "Tests/Support"),
        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore", "GestureTestSupport"]),
        .testTarget(name: "GestureRecordingTests", dependencies: ["GestureRecording", "GestureCore", "GestureTestSupport"]),
        .testTarget(name: "GestureConfigTests", dependencies: ["GestureConfig", "GestureCore", "YAML", "GestureTestSupport"]),
        .testTarget(name: "GestureWireTests", dependencies: ["GestureWire", "GestureTestSupport"]),
        .testTarget(name: "GestureDaemonTests", dependencies: [
            "GestureDaemon", "GestureConfig", "GestureWire", "GestureCore", "GestureRecording", "GestureTestSupport",
        ]),
        .testTarget(name: "LinuxInputTests", dependencies: ["LinuxInput", "GestureCore", "GestureConfig", "GestureTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
