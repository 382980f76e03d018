import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The wall-clock tick grid every RingCast process shares: tick k starts k / fps seconds after the
/// Unix epoch (DESIGN §4). Processes whose clocks agree (as NTP keeps them) agree on the tick.
///
/// It reads the system's real-time clock, unless it was made with a `ManualTime` (in-process tests, which
/// move time by hand and never sleep).
struct TickClock: Sendable {
    let fps: Int
    /// nil: the real-time clock.
    private let manual: ManualTime?

    /// The grid on the system's real-time clock.
    init(fps: Int) {
        self.fps = fps
        manual = nil
    }

    /// The grid on `time`, which only moves when told to.
    init(fps: Int, time: ManualTime) {
        self.fps = fps
        manual = time
    }

    /// Seconds since the Unix epoch: the real-time clock's, or the manual time's.
    func now() -> Double {
        if let manual { return manual.now }
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The tick the grid is at now: the last one that has begun.
    func currentTick() -> Int64 {
        Int64((now() * Double(fps)).rounded(.down))
    }

    /// When `tick` begins, in seconds since the Unix epoch.
    func seconds(atTick tick: Int64) -> Double {
        Double(tick) / Double(fps)
    }

    /// Seconds from now until `tick` begins (negative once it has).
    func seconds(until tick: Int64) -> Double {
        seconds(atTick: tick) - now()
    }
}

/// A time that stands still until it is set: seconds since the Unix epoch, for a `TickClock` that in-process
/// tests advance by hand. Any thread.
final class ManualTime: Sendable {
    private let seconds: Mutex<Double>

    init(seconds: Double) {
        self.seconds = Mutex(seconds)
    }

    var now: Double {
        get { seconds.withLock { $0 } }
        set { seconds.withLock { $0 = newValue } }
    }
}
