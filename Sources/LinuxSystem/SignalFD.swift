#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys

/// A non-blocking, close-on-exec signalfd: the given signals arrive as readable data instead of
/// interrupting the process.
public struct SignalFD {
    public let descriptor: FileDescriptor

    /// Resets `signals` to their default action (an ignored signal never reaches a signalfd),
    /// blocks them on the calling thread and opens a signalfd for them.
    public init(catching signals: [Signal]) throws(SystemError) {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in signals { sigaddset(&set, sig.rawValue); signal(sig.rawValue, SIG_DFL) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let fd = signalfd(-1, &set, Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC))
        guard fd >= 0 else { throw .last }
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// A signalfd opened already (another thread's handle on it).
    public init(descriptor: FileDescriptor) { self.descriptor = descriptor }

    /// The next pending signal, or nil when none is pending.
    public func next() -> Signal? {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        guard read(descriptor.rawValue, &info, size) == size else { return nil }
        return Signal(rawValue: Int32(info.ssi_signo))
    }
}
