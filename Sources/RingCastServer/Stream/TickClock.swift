#if canImport(Glibc)
    import Glibc
#endif

/// The wall-clock tick grid every RingCast process shares: tick k starts k / fps seconds after the
/// Unix epoch (DESIGN §4). Processes whose clocks agree (as NTP keeps them) agree on the tick.
struct TickClock: Sendable {
    let fps: Int

    /// Seconds since the Unix epoch, from the system's real-time clock.
    func now() -> Double {
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
