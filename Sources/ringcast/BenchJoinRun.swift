import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcast bench --scenario join-storm`: keep one ring animating, open the watchers, then for
/// the window start `joinRate` new viewers a second, each reading its layout and keyframe and
/// leaving; measure the watchers' frames per second, joins completed and their latency, and the
/// server's late ticks. Every wait has a deadline.
///
/// Main thread only; the joiner and the watchers' client run on threads of their own.
final class BenchJoinRun {
    struct Settings {
        var address: ServerAddress
        var token: String?
        var board: String
        var format: BenchFormat
        var watchers: Int
        var joinRate: Double
        var duration: Double
        var warmup: Double
        var serverPID: Int?
        var dataDirectory: String?
    }

    /// A join without its keyframe after this long counts as failed.
    private static let joinTimeoutSeconds = 5.0

    private let settings: Settings
    private let session: BenchBoardSession

    init(settings: Settings) {
        self.settings = settings
        self.session = BenchBoardSession(address: settings.address, token: settings.token, board: settings.board)
    }

    func run() throws(BenchFailure) -> BenchJoinResult {
        let board = try session.readBoard()
        guard let animated = board.animatedRing else {
            throw BenchFailure("board \(settings.board) has no plain ring to keep animating")
        }
        let serverPID = settings.serverPID.map(String.init)
        if let serverPID { _ = try BenchSystem.processSample(serverPID) }
        // Joins in flight at once: the join timeout's worth, so a stalled server cannot make the
        // bench open sockets without end.
        let inFlight = min(100_000, max(64, Int(settings.joinRate * Self.joinTimeoutSeconds)))
        try BenchSystem.raiseOpenFileLimit(to: settings.watchers + inFlight + 128)

        let reader = settings.format.reader(ringIDs: board.rings.map(\.id), probeRing: "")
        let recorder = BenchRecorder(viewers: settings.watchers, sampled: 0, reader: reader, measuresFrameGaps: true)
        let client = try BenchSocketClient(address: settings.address, recorder: recorder)
        defer {
            client.shutdown()
            session.restore(animated: animated, others: [])
        }
        let path = session.viewerPath(format: settings.format)
        try session.startAnimating(animated)
        try client.open(viewers: settings.watchers, path: path, address: settings.address, recorder: recorder)

        let windowStart = BenchSystem.now() + BenchPushRun.nanoseconds(settings.warmup)
        let window = (start: windowStart, end: windowStart + BenchPushRun.nanoseconds(settings.duration))
        let joiner = startJoiner(path: path, reader: reader, inFlight: inFlight, window: window)

        try session.keepAnimating(until: window.start)
        let metricsBefore = session.scrapeMetrics()
        let loadAverage = BenchSystem.loadAverage()
        let before = try BenchCPUSample(serverPID: serverPID)
        let framesStart = BenchSystem.now()
        let startSeq = recorder.startWindow()

        try session.keepAnimating(until: window.end)

        let framesEnd = BenchSystem.now()
        let endSeq = recorder.endWindow()
        let after = try BenchCPUSample(serverPID: serverPID)
        let metricsAfter = session.scrapeMetrics()
        let tally = try joiner.wait(until: window.end + BenchPushRun.nanoseconds(Self.joinTimeoutSeconds + 5))
        BenchPushRun.settle(recorder, endSeq: endSeq)

        let seconds = Double(window.end - window.start) / 1e9
        let framesSeconds = Double(framesEnd - framesStart) / 1e9
        return BenchJoinResult(
            date: ISO8601DateFormatter().string(from: Date()),
            command: CommandLine.arguments,
            settings: .init(
                server: settings.address.description,
                board: settings.board,
                format: settings.format.rawValue,
                watchers: settings.watchers,
                joinRate: settings.joinRate,
                durationSeconds: settings.duration,
                warmupSeconds: settings.warmup,
                joinTimeoutSeconds: Self.joinTimeoutSeconds,
                animatedRing: animated.id,
                dataDirectory: settings.dataDirectory
            ),
            dataFilesystem: settings.dataDirectory.flatMap(BenchFilesystem.init(path:)),
            windowSeconds: BenchRun.round(seconds, 3),
            joins: .init(
                scheduled: tally.scheduled,
                started: tally.started,
                completed: tally.completed,
                completedPerSecond: BenchRun.round(Double(tally.completedInWindow) / seconds, 1),
                failed: tally.failed,
                latencyMilliseconds: tally.latency.percentiles,
                layoutMilliseconds: tally.layoutLatency.percentiles
            ),
            watchers: BenchViewerSummary(
                recorder.snapshot(), requested: settings.watchers, seconds: framesSeconds, startSeq: startSeq, endSeq: endSeq),
            usage: BenchUsage(
                from: before, to: after, seconds: framesSeconds, serverPID: settings.serverPID, loadAverage: loadAverage,
                metricsBefore: metricsBefore, metricsAfter: metricsAfter)
        )
    }

    /// The joiner's thread and, once it has finished, its tally.
    private final class Joiner: Sendable {
        let outcome = Mutex<Result<BenchJoiner.Tally, BenchFailure>?>(nil)
        let finished = DispatchSemaphore(value: 0)

        func wait(until deadline: UInt64) throws(BenchFailure) -> BenchJoiner.Tally {
            let now = BenchSystem.now()
            guard now < deadline, finished.wait(timeout: .now() + .nanoseconds(Int(deadline - now))) == .success,
                let outcome = outcome.withLock({ $0 })
            else {
                throw BenchFailure("the joiner thread did not finish in time")
            }
            return try outcome.get()
        }
    }

    private func startJoiner(
        path: String, reader: any BenchFrameReader, inFlight: Int, window: (start: UInt64, end: UInt64)
    ) -> Joiner {
        let joiner = Joiner()
        let address = settings.address
        let rate = settings.joinRate
        Thread.detachNewThread {
            let outcome: Result<BenchJoiner.Tally, BenchFailure>
            do throws(BenchFailure) {
                let storm = try BenchJoiner(
                    address: address, path: path, reader: reader, timeoutSeconds: Self.joinTimeoutSeconds,
                    maximumInFlight: inFlight)
                outcome = .success(storm.run(rate: rate, window: window))
            } catch {
                outcome = .failure(error)
            }
            joiner.outcome.withLock { $0 = outcome }
            joiner.finished.signal()
        }
        return joiner
    }
}

@available(*, unavailable)
extension BenchJoinRun: Sendable {}
