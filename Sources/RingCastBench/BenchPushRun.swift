import Foundation

/// `ringcast-bench --scenario pushers`: keep one ring animating, open the viewers, then let
/// `pushers` threads push to the other rings as fast as the server answers while the viewers
/// watch; measure pushes acknowledged, their latency, the viewers' frame gaps and the server's
/// late ticks over the window. Every wait has a deadline.
///
/// Main thread only; the pushers and the viewer client run on threads of their own.
struct BenchPushRun {
    /// The viewers, the animated ring and the window.
    var load: BenchLoadRun
    var pushers: Int
    /// What each push asks for (`--push-animation`).
    var animation: BenchPushAnimation
    /// The server's data directory (`--data-dir`), to name its filesystem in the result.
    var dataDirectory: String?

    /// Different progress values each ring is pushed with (0.01 to 1).
    private static let values = 100
    /// A push without an answer for this long counts as failed.
    private static let timeoutSeconds = 5

    func run() throws(BenchFailure) -> BenchPushResult {
        let settings = load.settings
        let (board, animated) = try load.readBoard()
        // Every plain ring but the animated one: a push would stop or retarget it.
        let pushed = board.rings.filter { $0.kind == "plain" && $0.id != animated.id }
        guard !pushed.isEmpty else {
            throw BenchFailure("board \(settings.board) needs two plain rings (one to push, one to keep animating)")
        }
        let requests = try requests(rings: pushed.map(\.id))
        let outcome = try load.run(
            board: board, animated: animated, restoring: pushed, loadSockets: pushers,
            finishSeconds: Double(Self.timeoutSeconds + 5)
        ) { _, _, window in
            startPushers(requests: requests, rings: pushed.count, window: window)
        }
        let tally = outcome.tallies.reduce(into: BenchPusher.Tally()) { $0.merge($1) }

        return BenchPushResult(
            date: ISO8601DateFormatter().string(from: Date()),
            command: CommandLine.arguments,
            settings: .init(
                server: settings.address.description,
                board: settings.board,
                format: settings.format.rawValue,
                pushers: pushers,
                viewers: load.viewers,
                durationSeconds: settings.duration,
                warmupSeconds: settings.warmup,
                rings: pushed.map(\.id),
                animatedRing: animated.id,
                animation: animation.argument,
                dataDirectory: dataDirectory
            ),
            dataFilesystem: dataDirectory.flatMap(BenchFilesystem.init(path:)),
            windowSeconds: BenchRun.round(outcome.seconds, 3),
            pushes: .init(
                acknowledged: tally.acknowledged,
                acknowledgedPerSecond: BenchRun.round(Double(tally.acknowledged) / outcome.seconds, 1),
                rejected: Dictionary(uniqueKeysWithValues: tally.rejected.map { (String($0.key), $0.value) }),
                failed: tally.failed,
                latencyMilliseconds: tally.latency.percentiles
            ),
            viewers: outcome.viewers,
            usage: outcome.usage
        )
    }

    /// Every request a pusher may send, ready to write: for value v and ring r, index v × rings + r.
    private func requests(rings: [String]) throws(BenchFailure) -> [[UInt8]] {
        var requests: [[UInt8]] = []
        for value in 1...Self.values {
            for ring in rings {
                let body = try load.session.encode(
                    BenchRingBody(progress: Double(value) / Double(Self.values), animation: animation))
                var head = "PUT \(load.session.boardPath)/rings/\(BenchBoardSession.escape(ring)) HTTP/1.1\r\n"
                head += "Host: \(load.settings.address.authority)\r\n"
                if let token = load.settings.token { head += "Authorization: Bearer \(token)\r\n" }
                head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                requests.append(Array(head.utf8) + body)
            }
        }
        return requests
    }

    /// Starts one thread a pusher, each running until the window ends. Pusher p's k-th push goes
    /// to ring (p + k) mod rings, so every pusher cycles over every ring, with value
    /// ((k / rings) × 7 + p × 13) mod values + 1, so consecutive pushes to a ring change it.
    private func startPushers(
        requests: [[UInt8]], rings: Int, window: (start: UInt64, end: UInt64)
    ) -> BenchLoadThreads<BenchPusher.Tally> {
        let address = load.settings.address
        return BenchLoadThreads(
            count: pushers,
            lateFailure: "a pusher thread did not finish within \(Self.timeoutSeconds + 5) s of the window's end"
        ) { pusher in
            BenchPusher(address: address, timeoutSeconds: Self.timeoutSeconds).run(window: window) { push in
                let ring = (pusher + push) % rings
                let value = ((push / rings) * 7 + pusher * 13) % Self.values
                return requests[value * rings + ring]
            }
        }
    }
}

@available(*, unavailable)
extension BenchPushRun: Sendable {}
