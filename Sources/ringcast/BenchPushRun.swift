import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcast bench --scenario pushers`: keep one ring animating, open the viewers, then let
/// `pushers` threads push to the other rings as fast as the server answers while the viewers
/// watch; measure pushes acknowledged, their latency, the viewers' frame gaps and the server's
/// late ticks over the window. Every wait has a deadline.
///
/// Main thread only; the pushers and the viewer client run on threads of their own.
final class BenchPushRun {
    struct Settings {
        var address: ServerAddress
        var token: String?
        var board: String
        var format: BenchFormat
        var pushers: Int
        var viewers: Int
        var duration: Double
        var warmup: Double
        var serverPID: Int?
        var dataDirectory: String?
    }

    /// Different progress values each ring is pushed with (0.01 to 1).
    private static let values = 100
    /// A push without an answer for this long counts as failed.
    private static let timeoutSeconds = 5

    private let settings: Settings
    private let session: BenchBoardSession

    init(settings: Settings) {
        self.settings = settings
        self.session = BenchBoardSession(address: settings.address, token: settings.token, board: settings.board)
    }

    func run() throws(BenchFailure) -> BenchPushResult {
        let board = try session.readBoard()
        guard let animated = board.animatedRing else {
            throw BenchFailure("board \(settings.board) has no plain ring to keep animating")
        }
        // Every plain ring but the animated one: a push with "animation":"none" would stop it.
        let pushed = board.rings.filter { $0.kind == "plain" && $0.id != animated.id }
        guard !pushed.isEmpty else {
            throw BenchFailure("board \(settings.board) needs two plain rings (one to push, one to keep animating)")
        }
        let serverPID = settings.serverPID.map(String.init)
        if let serverPID { _ = try BenchSystem.processSample(serverPID) }
        try BenchSystem.raiseOpenFileLimit(to: settings.viewers + settings.pushers + 128)

        let recorder = BenchRecorder(
            viewers: settings.viewers,
            sampled: 0,
            reader: settings.format.reader(ringIDs: board.rings.map(\.id), probeRing: ""),
            measuresFrameGaps: true
        )
        let client = try BenchSocketClient(address: settings.address, recorder: recorder)
        defer {
            client.shutdown()
            session.restore(animated: animated, others: pushed)
        }
        try session.startAnimating(animated)
        try client.open(
            viewers: settings.viewers, path: session.viewerPath(format: settings.format), address: settings.address,
            recorder: recorder)

        let requests = try requests(rings: pushed.map(\.id))
        let windowStart = BenchSystem.now() + Self.nanoseconds(settings.warmup)
        let window = (start: windowStart, end: windowStart + Self.nanoseconds(settings.duration))
        let pushers = startPushers(requests: requests, rings: pushed.count, window: window)

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
        let tally = try pushers.wait(until: window.end + UInt64(Self.timeoutSeconds + 5) * 1_000_000_000)
        Self.settle(recorder, endSeq: endSeq)

        let seconds = Double(window.end - window.start) / 1e9
        let framesSeconds = Double(framesEnd - framesStart) / 1e9
        return BenchPushResult(
            date: ISO8601DateFormatter().string(from: Date()),
            command: CommandLine.arguments,
            settings: .init(
                server: settings.address.description,
                board: settings.board,
                format: settings.format.rawValue,
                pushers: settings.pushers,
                viewers: settings.viewers,
                durationSeconds: settings.duration,
                warmupSeconds: settings.warmup,
                rings: pushed.map(\.id),
                animatedRing: animated.id,
                dataDirectory: settings.dataDirectory
            ),
            dataFilesystem: settings.dataDirectory.flatMap(BenchFilesystem.init(path:)),
            windowSeconds: BenchRun.round(seconds, 3),
            pushes: .init(
                acknowledged: tally.acknowledged,
                acknowledgedPerSecond: BenchRun.round(Double(tally.acknowledged) / seconds, 1),
                rejected: Dictionary(uniqueKeysWithValues: tally.rejected.map { (String($0.key), $0.value) }),
                failed: tally.failed,
                latencyMilliseconds: tally.latency.percentiles
            ),
            viewers: BenchViewerSummary(
                recorder.snapshot(), requested: settings.viewers, seconds: framesSeconds, startSeq: startSeq, endSeq: endSeq),
            usage: BenchUsage(
                from: before, to: after, seconds: framesSeconds, serverPID: settings.serverPID, loadAverage: loadAverage,
                metricsBefore: metricsBefore, metricsAfter: metricsAfter)
        )
    }

    /// Every request a pusher may send, ready to write: for value v and ring r, index v × rings + r.
    private func requests(rings: [String]) throws(BenchFailure) -> [[UInt8]] {
        var requests: [[UInt8]] = []
        for value in 1...Self.values {
            for ring in rings {
                let body = try session.encode(BenchRingBody(progress: Double(value) / Double(Self.values)))
                var head = "PUT \(session.boardPath)/rings/\(BenchBoardSession.escape(ring)) HTTP/1.1\r\n"
                head += "Host: \(settings.address.authority)\r\n"
                if let token = settings.token { head += "Authorization: Bearer \(token)\r\n" }
                head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                requests.append(Array(head.utf8) + body)
            }
        }
        return requests
    }

    /// The pusher threads, running until the window ends.
    private final class Pushers: Sendable {
        let tallies = Mutex<[BenchPusher.Tally]>([])
        let finished = DispatchSemaphore(value: 0)
        let count: Int

        init(count: Int) { self.count = count }

        /// Their tallies together, once every thread has finished.
        func wait(until deadline: UInt64) throws(BenchFailure) -> BenchPusher.Tally {
            for _ in 0..<count {
                let now = BenchSystem.now()
                guard now < deadline, finished.wait(timeout: .now() + .nanoseconds(Int(deadline - now))) == .success else {
                    let seconds = BenchPushRun.timeoutSeconds + 5
                    throw BenchFailure("a pusher thread did not finish within \(seconds) s of the window's end")
                }
            }
            return tallies.withLock { tallies in
                tallies.reduce(into: BenchPusher.Tally()) { $0.merge($1) }
            }
        }
    }

    /// Starts one thread a pusher. Pusher p's k-th push goes to ring (p + k) mod rings, so every
    /// pusher cycles over every ring, with value ((k / rings) × 7 + p × 13) mod values + 1, so
    /// consecutive pushes to a ring change it.
    private func startPushers(requests: [[UInt8]], rings: Int, window: (start: UInt64, end: UInt64)) -> Pushers {
        let pushers = Pushers(count: settings.pushers)
        let address = settings.address
        for pusher in 0..<settings.pushers {
            Thread.detachNewThread {
                let tally = BenchPusher(address: address, timeoutSeconds: Self.timeoutSeconds).run(window: window) { push in
                    let ring = (pusher + push) % rings
                    let value = ((push / rings) * 7 + pusher * 13) % Self.values
                    return requests[value * rings + ring]
                }
                pushers.tallies.withLock { $0.append(tally) }
                pushers.finished.signal()
            }
        }
        return pushers
    }

    /// Lets the frames up to the window's last one arrive: 2 s at most.
    static func settle(_ recorder: BenchRecorder, endSeq: UInt64) {
        let settled = BenchSystem.now() + 2_000_000_000
        while BenchSystem.now() < settled, let slowest = recorder.slowestOpenSeq(), slowest < endSeq {
            usleep(10_000)
        }
    }

    static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(seconds * 1e9) }
}

@available(*, unavailable)
extension BenchPushRun: Sendable {}
