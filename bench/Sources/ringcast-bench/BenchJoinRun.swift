import Foundation

/// `ringcast-bench --scenario join-storm`: keep one ring animating, open the watchers, then for
/// the window start `joinRate` new viewers a second, each reading its layout and keyframe and
/// leaving; measure the watchers' frames per second, joins completed and their latency, and the
/// server's late ticks. Every wait has a deadline.
///
/// Main thread only; the joiner and the watchers' client run on threads of their own.
struct BenchJoinRun {
    /// The watchers, the animated ring and the window.
    var load: BenchLoadRun
    /// New viewers a second.
    var joinRate: Double
    /// The server's data directory (`--data-dir`), to name its filesystem in the result.
    var dataDirectory: String?

    /// A join without its keyframe after this long counts as failed.
    private static let joinTimeoutSeconds = 5.0

    func run() throws(BenchFailure) -> BenchJoinResult {
        let settings = load.settings
        let (board, animated) = try load.readBoard()
        // Joins in flight at once: the join timeout's worth, so a stalled server cannot make the
        // bench open sockets without end.
        let inFlight = min(100_000, max(64, Int(joinRate * Self.joinTimeoutSeconds)))
        let outcome = try load.run(
            board: board, animated: animated, restoring: [], loadSockets: inFlight, finishSeconds: Self.joinTimeoutSeconds + 5
        ) { path, reader, window in
            startJoiner(path: path, reader: reader, inFlight: inFlight, window: window)
        }
        let tally = outcome.tallies[0]

        return BenchJoinResult(
            date: ISO8601DateFormatter().string(from: Date()),
            command: CommandLine.arguments,
            settings: .init(
                server: settings.address.description,
                board: settings.board,
                format: settings.format.rawValue,
                watchers: load.viewers,
                joinRate: joinRate,
                durationSeconds: settings.duration,
                warmupSeconds: settings.warmup,
                joinTimeoutSeconds: Self.joinTimeoutSeconds,
                animatedRing: animated.id,
                dataDirectory: dataDirectory
            ),
            dataFilesystem: dataDirectory.flatMap(BenchFilesystem.init(path:)),
            windowSeconds: BenchRun.round(outcome.seconds, 3),
            joins: .init(
                scheduled: tally.scheduled,
                started: tally.started,
                completed: tally.completed,
                completedPerSecond: BenchRun.round(Double(tally.completedInWindow) / outcome.seconds, 1),
                failed: tally.failed,
                latencyMilliseconds: tally.latency.percentiles,
                layoutMilliseconds: tally.layoutLatency.percentiles
            ),
            watchers: outcome.viewers,
            usage: outcome.usage
        )
    }

    /// The joiner's thread, starting joins through the window.
    private func startJoiner(
        path: String, reader: any BenchFrameReader, inFlight: Int, window: (start: UInt64, end: UInt64)
    ) -> BenchLoadThreads<BenchJoiner.Tally> {
        let address = load.settings.address
        let rate = joinRate
        return BenchLoadThreads(count: 1, lateFailure: "the joiner thread did not finish in time") { _ throws(BenchFailure) in
            let storm = try BenchJoiner(
                address: address, path: path, reader: reader, timeoutSeconds: Self.joinTimeoutSeconds,
                maximumInFlight: inFlight)
            return storm.run(rate: rate, window: window)
        }
    }
}

@available(*, unavailable)
extension BenchJoinRun: Sendable {}
