import Foundation
import RingCastClient

#if canImport(Glibc)
    import Glibc
#endif

/// One benchmark run against a live server, phase by phase: read the board, keep it animating,
/// open the viewers, warm up, measure a window while probing latency, let the last frames land,
/// close everything, compute the result. Every wait has a deadline.
///
/// Main thread only; the WebSocket client's thread touches only the recorder.
final class BenchRun {
    struct Settings {
        var shared: BenchSettings
        var client: BenchClientKind
        var viewers: Int
        var latencyViewers: Int
        var pushInterval: Double
        /// Only open viewers and count what arrives: no REST call at all (for servers without the
        /// API, such as bench/baseline's broadcaster).
        var watchOnly = false
        /// Write viewer 0's frames from the window here, for bench/baseline to replay.
        var recordFramesPath: String?
    }

    private let settings: Settings
    private let session: BenchBoardSession
    private var probeRing = ""
    private var nextProbe: UInt64 = 0
    private var probesSent = 0

    init(settings: Settings) {
        self.settings = settings
        self.session = BenchBoardSession(settings.shared)
    }

    func run() throws(BenchFailure) -> BenchResult {
        let shared = settings.shared
        var ringIDs: [String] = []
        var restore: (probe: BenchBoard.Ring, animated: BenchBoard.Ring)?
        if !settings.watchOnly {
            let board = try session.readBoard()
            guard let probe = board.probeRing, let animated = board.animatedRing else {
                throw BenchFailure("board \(shared.board) needs two plain rings (one to probe, one to keep animating)")
            }
            probeRing = probe.id
            ringIDs = board.rings.map(\.id)
            restore = (probe, animated)
        }
        let serverPID = try shared.readableServerPID()

        // One descriptor a viewer; lws sizes its tables from RLIMIT_NOFILE when its context is
        // created, so this comes before the client.
        try BenchSystem.raiseOpenFileLimit(to: settings.viewers + 128)
        let reader = shared.format.reader(ringIDs: ringIDs, probeRing: probeRing)
        let recorder = BenchRecorder(
            viewers: settings.viewers,
            sampled: settings.watchOnly ? 0 : settings.latencyViewers,
            reader: reader,
            recordFrames: settings.recordFramesPath != nil
        )
        let client = try settings.client.make(address: shared.address, recorder: recorder)
        defer {
            client.shutdown()
            if let restore { session.restore(animated: restore.animated, others: [restore.probe]) }
        }

        if let restore { try session.startAnimating(restore.animated) }
        try client.open(
            viewers: settings.viewers, path: session.viewerPath(format: shared.format), address: shared.address,
            recorder: recorder)
        nextProbe = BenchSystem.now()
        try drive(recorder, until: BenchSystem.now() + BenchSystem.nanoseconds(shared.warmup))

        let window = try BenchWindow(recorder: recorder, serverPID: serverPID, metrics: scrapeMetrics) {
            start throws(BenchFailure) in try drive(recorder, until: start + BenchSystem.nanoseconds(shared.duration))
        }

        // Let frames up to the window's last one, and those showing the last probes, arrive.
        recorder.settle(upTo: window.end.seq + 3)
        let state = recorder.snapshot()
        if let path = settings.recordFramesPath { try Self.write(state.recording, to: path) }

        return summarize(state, recorder: recorder, window: window)
    }

    // MARK: - Phases

    /// Pushes a probe every push interval on average and renews the animation, until `deadline`.
    /// Each gap is drawn from 0.5 to 1.5 intervals: a fixed 200 ms is exactly 12 ticks at 60 fps,
    /// so every probe would land at the same point of the server's tick and the latency would
    /// describe that one phase instead of the spread a real push sees.
    private func drive(_ recorder: BenchRecorder, until deadline: UInt64) throws(BenchFailure) {
        if settings.watchOnly {
            while BenchSystem.now() < deadline { usleep(useconds_t(min(deadline - BenchSystem.now(), 50_000_000) / 1000)) }
            return
        }
        while true {
            let now = BenchSystem.now()
            guard now < deadline else { return }
            if now >= nextProbe {
                try probe(recorder)
                let gap = BenchSystem.nanoseconds(settings.pushInterval * Double.random(in: 0.5..<1.5))
                nextProbe = max(nextProbe + gap, BenchSystem.now())
            }
            if now >= session.nextAnimation { try session.animate() }
            let wake = min(nextProbe, session.nextAnimation, deadline)
            let current = BenchSystem.now()
            if wake > current { usleep(useconds_t(min(wake - current, 50_000_000) / 1000)) }
        }
    }

    /// `PUT …/rings/{probe ring} {"progress":V,"animation":"none"}` with a value no earlier probe
    /// used (for 8000 probes), registered before it is sent.
    private func probe(_ recorder: BenchRecorder) throws(BenchFailure) {
        let value = Double(1000 + probesSent % 8000) / 10000
        probesSent += 1
        let probe = recorder.registerProbe(value: value)
        let body = try session.encode(BenchRingBody(progress: value))
        recorder.probeSent(probe, at: BenchSystem.now())
        let path = "\(session.boardPath)/rings/\(BenchBoardSession.escape(probeRing))"
        let response: HTTPClient.Response
        do {
            response = try session.http.request("PUT", path, json: body)
        } catch {
            throw BenchFailure("PUT \(session.boardPath)/rings/\(probeRing): \(error)")
        }
        recorder.probeAcknowledged(probe, at: response.receivedAt)
    }

    private func scrapeMetrics() -> BenchMetrics? {
        settings.watchOnly ? nil : session.scrapeMetrics()
    }

    // MARK: - Result

    private func summarize(_ state: BenchRecorder.State, recorder: BenchRecorder, window: BenchWindow) -> BenchResult {
        let shared = settings.shared
        let seconds = window.seconds
        let published = Int(window.end.seq - window.start.seq)
        let measured = state.viewers.filter(\.inWindow)
        let rates = measured.map { Double($0.windowFrames) / seconds }.sorted()
        let received = measured.reduce(0) { $0 + $1.windowFrames }
        let ratios = measured.map { published > 0 ? Double($0.windowFrames) / Double(published) : 0 }

        var fromResponse: [Double] = []
        var fromRequest: [Double] = []
        var roundTrips: [Double] = []
        var missed = 0
        var probes = 0
        let usage = window.usage(serverPID: shared.serverPID)
        let sampled = recorder.sampleSlots.filter { state.viewers[$0.key].inWindow && state.viewers[$0.key].state == .open }
        func milliseconds(from start: UInt64, to end: UInt64) -> Double {
            Double(Int64(bitPattern: end &- start)) / 1e6
        }
        for probe in state.probes {
            guard let sent = probe.sentAt, let acknowledged = probe.acknowledgedAt,
                acknowledged >= window.start.time, acknowledged <= window.end.time
            else { continue }
            probes += 1
            roundTrips.append(milliseconds(from: sent, to: acknowledged))
            for slot in sampled.values {
                if let received = probe.receivedAt[slot] {
                    fromResponse.append(milliseconds(from: acknowledged, to: received))
                    fromRequest.append(milliseconds(from: sent, to: received))
                } else {
                    missed += 1
                }
            }
        }

        return BenchResult(
            date: ISO8601DateFormatter().string(from: Date()),
            command: CommandLine.arguments,
            settings: .init(
                server: shared.address.description,
                board: shared.board,
                format: shared.format.rawValue,
                client: settings.client.rawValue,
                viewers: settings.viewers,
                pushIntervalSeconds: settings.pushInterval,
                durationSeconds: shared.duration,
                warmupSeconds: shared.warmup,
                latencyViewers: recorder.sampleSlots.count,
                probeRing: probeRing,
                animatedRing: session.animatedRing,
                watchOnly: settings.watchOnly
            ),
            viewers: .init(
                requested: settings.viewers,
                connected: state.viewers.filter(\.opened).count,
                measured: measured.count,
                droppedDuringWindow: measured.filter { $0.state == .ended }.count,
                endings: state.endings
            ),
            window: .init(
                seconds: Self.round(seconds, 3),
                framesPublished: published,
                publishedPerSecond: Self.round(Double(published) / seconds, 2)
            ),
            framesPerSecondPerViewer: .init(
                min: Self.round(rates.first ?? 0, 2),
                median: Self.round(Self.percentile(rates, 0.5) ?? 0, 2),
                max: Self.round(rates.last ?? 0, 2)
            ),
            delivery: .init(
                ratio: measured.isEmpty || published == 0
                    ? 0 : Self.round(Double(received) / Double(measured.count * published), 5),
                minViewer: Self.round(ratios.min() ?? 0, 5),
                outOfOrder: state.viewers.reduce(0) { $0 + $1.outOfOrder },
                unreadableMessages: state.unreadableMessages
            ),
            latencyMilliseconds: .init(
                viewersSampled: sampled.count,
                probes: probes,
                missed: missed,
                fromResponse: Self.percentiles(fromResponse),
                fromRequest: Self.percentiles(fromRequest),
                pushRoundTrip: Self.percentiles(roundTrips)
            ),
            bytesPerViewerPerSecond: measured.isEmpty
                ? 0 : Self.round(Double(measured.reduce(0) { $0 + $1.windowBytes }) / Double(measured.count) / seconds, 0),
            server: usage.server,
            bench: usage.bench,
            machineCPUPercent: usage.machinePercent,
            otherProcessesCPUPercent: usage.othersPercent,
            loadAverage: window.loadAverage,
            metrics: window.metricsDelta
        )
    }

    // MARK: - Helpers

    /// Recorded frames as bench/baseline/broadcaster.c reads them: each a little-endian u32 length,
    /// then its bytes.
    private static func write(_ frames: [[UInt8]], to path: String) throws(BenchFailure) {
        guard !frames.isEmpty else { throw BenchFailure("--record-frames: viewer 0 received no frame in the window") }
        var bytes: [UInt8] = []
        for frame in frames {
            let length = UInt32(frame.count)
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
            bytes += frame
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw BenchFailure("cannot write \(path): \(error.localizedDescription)")
        }
    }

    static func percentiles(_ samples: [Double]) -> BenchResult.Percentiles {
        let sorted = samples.sorted()
        return BenchResult.Percentiles(
            count: sorted.count,
            p50: percentile(sorted, 0.5).map { round($0, 2) },
            p99: percentile(sorted, 0.99).map { round($0, 2) },
            max: sorted.last.map { round($0, 2) },
            min: sorted.first.map { round($0, 2) }
        )
    }

    /// Nearest-rank percentile of sorted values.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    static func round(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}

@available(*, unavailable)
extension BenchRun: Sendable {}
