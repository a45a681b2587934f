import GestureConfig
import GestureCore
import LinuxInput

extension DeviceSessions {
    /// `exclusive: true` for a device just opened: its clone now, the grab once no finger is down.
    /// A device that cannot be exclusive stays shared (as without the setting), said in the log,
    /// and its reads leave out again what the decoder never reads.
    func startExclusive(_ s: DeviceSession, settings: DeviceSettings) {
        guard let evdev = s.source.realDevice else { return }
        do { try s.readEverything() } catch {
            // The clone would start from stale values of the axes the reads left out.
            log.error("devices: \(s.source.node): exclusive: \(error.description)")
            s.readOnlyWhatIsDecoded()
            return
        }
        do {
            let x = try ExclusiveDevice(evdev: evdev, state: s.deviceState, hold: settings.exclusiveHold, landing: settings.exclusiveLanding,
                                        claims: plan.device(evdev.description), log: log)
            if !x.finished { s.exclusive = x }
        } catch {
            log.error("devices: \(s.source.node): exclusive: \(error.description)")
        }
        s.readOnlyWhatIsDecoded()
    }

    /// After a reload: devices that became exclusive get their clone, devices that stopped being
    /// exclusive are released once no finger is down, the others take the new bindings and hold.
    func reconcileExclusive() {
        for s in sessions.values.sorted(by: { $0.id < $1.id }) {
            guard s.source.realDevice != nil else { continue }
            let device = plan.device(s.source.description)
            let settings = device.settings
            if let x = s.exclusive {
                x.reconfigure(exclusive: settings.exclusive, hold: settings.exclusiveHold, landing: settings.exclusiveLanding,
                              claims: device, state: s.deviceState)
                if x.finished { s.exclusive = nil }
            } else if settings.exclusive {
                startExclusive(s, settings: settings)
            }
        }
    }
}
