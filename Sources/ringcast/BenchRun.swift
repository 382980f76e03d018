import Foundation

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
        var address: ServerAddress
        var token: String?
        var board: String
        var format: BenchFormat
        var client: BenchClientKind
        var viewers: Int
        var latencyViewers: Int
        var pushInterval: Double
        var duration: Double
        var warmup: Double
        var serverPID: Int?
        /// Only open viewers and count what arrives: no REST call at all (for servers without the
        /// API, such as bench/baseline's broadcaster).
        var watchOnly = false
        /// Write viewer 0's frames from the window here, for bench/baseline to replay.
        var recordFramesPath: String?
    }

    /// How long the stand-in animation runs (the API's longest), and how often it is renewed.
    private static let animationSeconds = 60.0
    private static let animationRenewal: UInt64 = 30_000_000_000
    /// Connections being opened at once: enough to fill 2000 viewers in seconds without
    /// overflowing the server's listen backlog.
    private static let connectBatch = 100

    private let settings: Settings
    private let http: HTTPClient
    private let encoder = JSONEncoder()
    private var probeRing = ""
    private var animatedRing = ""
    private var animateUpward = true
    private var nextProbe: UInt64 = 0
    private var nextAnimation: UInt64 = 0
    private var probesSent = 0

    init(settings: Settings) {
        self.settings = settings
        self.http = HTTPClient(address: settings.address, token: settings.token)
    }

    func run() throws(BenchFailure) -> BenchResult {
        var ringIDs: [String] = []
        var restore: (probe: BenchBoard.Ring, animated: BenchBoard.Ring)?
        if !settings.watchOnly {
            let board = try readBoard()
            guard let probe = board.probeRing, let animated = board.animatedRing else {
                throw BenchFailure("board \(settings.board) needs two plain rings (one to probe, one to keep animating)")
            }
            probeRing = probe.id
            animatedRing = animated.id
            animateUpward = (animated.progress ?? 0) < 5
            ringIDs = board.rings.map(\.id)
            restore = (probe, animated)
        }
        let serverPID = settings.serverPID.map(String.init)
        if let serverPID { _ = try BenchSystem.processSample(serverPID) }

        // One descriptor a viewer; lws sizes its tables from RLIMIT_NOFILE when its context is
        // created, so this comes before the client.
        try BenchSystem.raiseOpenFileLimit(to: settings.viewers + 128)
        let reader = settings.format.reader(ringIDs: ringIDs, probeRing: probeRing)
        let recorder = BenchRecorder(
            viewers: settings.viewers,
            sampled: settings.watchOnly ? 0 : settings.latencyViewers,
            reader: reader,
            recordFrames: settings.recordFramesPath != nil
        )
        let client = try settings.client.make(address: settings.address, recorder: recorder)
        defer {
            client.shutdown()
            if let restore { self.restore(restore.probe, restore.animated) }
        }

        if !settings.watchOnly { try animate() }
        try connect(client, recorder)
        nextProbe = BenchSystem.now()
        try drive(recorder, until: BenchSystem.now() + Self.nanoseconds(settings.warmup))

        let metricsBefore = scrapeMetrics()
        let loadAverage = BenchSystem.loadAverage()
        let before = try CPUSample(serverPID: serverPID)
        let windowStart = BenchSystem.now()
        let startSeq = recorder.startWindow()

        try drive(recorder, until: windowStart + Self.nanoseconds(settings.duration))

        let windowEnd = BenchSystem.now()
        let endSeq = recorder.endWindow()
        let after = try CPUSample(serverPID: serverPID)
        let metricsAfter = scrapeMetrics()

        // Let frames up to the window's last one, and those showing the last probes, arrive.
        let settled = BenchSystem.now() + 2_000_000_000
        while BenchSystem.now() < settled, let slowest = recorder.slowestOpenSeq(), slowest < endSeq + 3 {
            usleep(10_000)
        }
        let state = recorder.snapshot()
        if let path = settings.recordFramesPath { try Self.write(state.recording, to: path) }

        return summarize(
            state,
            recorder: recorder,
            window: (start: windowStart, end: windowEnd, startSeq: startSeq, endSeq: endSeq),
            usage: CPUSample.usage(
                from: before, to: after, seconds: Double(windowEnd - windowStart) / 1e9, serverPID: settings.serverPID),
            loadAverage: loadAverage,
            metrics: metricsBefore.flatMap { before in metricsAfter.map { BenchMetrics.delta(before, $0) } }
        )
    }

    /// CPU time of the server, the bench and the whole machine at one moment.
    private struct CPUSample {
        var server: BenchSystem.ProcessSample?
        var bench: BenchSystem.ProcessSample
        var machine: BenchSystem.MachineSample?

        init(serverPID: String?) throws(BenchFailure) {
            server = try serverPID.map { pid throws(BenchFailure) in try BenchSystem.processSample(pid) }
            bench = try BenchSystem.processSample("self")
            machine = BenchSystem.machineSample()
        }

        struct Usage {
            var server: BenchResult.Process?
            var bench: BenchResult.Process
            var machinePercent: Double?
            var othersPercent: Double?
        }

        static func usage(from before: CPUSample, to after: CPUSample, seconds: Double, serverPID: Int?) -> Usage {
            func percentOfOneCore(_ ticks: UInt64) -> Double {
                BenchRun.round(Double(ticks) / BenchSystem.clockTicksPerSecond / seconds * 100, 1)
            }
            func process(_ before: BenchSystem.ProcessSample, _ after: BenchSystem.ProcessSample, pid: Int?)
                -> BenchResult.Process
            {
                BenchResult.Process(
                    pid: pid,
                    cpuPercent: percentOfOneCore(after.cpuTicks - before.cpuTicks),
                    rssStartMiB: BenchRun.round(Double(before.residentKiB) / 1024, 1),
                    rssEndMiB: BenchRun.round(Double(after.residentKiB) / 1024, 1)
                )
            }
            var usage = Usage(
                server: before.server.flatMap { old in after.server.map { process(old, $0, pid: serverPID) } },
                bench: process(before.bench, after.bench, pid: Int(getpid()))
            )
            if let old = before.machine, let new = after.machine, new.totalTicks > old.totalTicks {
                let busy = new.busyTicks - old.busyTicks
                usage.machinePercent = BenchRun.round(Double(busy) / Double(new.totalTicks - old.totalTicks) * 100, 1)
                let ours =
                    (after.bench.cpuTicks - before.bench.cpuTicks)
                    + (after.server?.cpuTicks ?? 0) - (before.server?.cpuTicks ?? 0)
                usage.othersPercent = percentOfOneCore(busy > ours ? busy - ours : 0)
            }
            return usage
        }
    }

    // MARK: - Phases

    private func readBoard() throws(BenchFailure) -> BenchBoard {
        let response: HTTPClient.Response
        do {
            response = try http.request("GET", boardPath)
        } catch {
            throw BenchFailure("cannot reach the server at \(settings.address) (\(error)); is ringcast serve running there?")
        }
        guard response.isSuccess else {
            throw BenchFailure("GET \(boardPath): \(response.problem)")
        }
        do {
            return try JSONDecoder().decode(BenchBoard.self, from: Data(response.body))
        } catch {
            throw BenchFailure("GET \(boardPath) did not answer with a board: \(error)")
        }
    }

    /// Opens every viewer, `connectBatch` at a time, and waits for the handshakes: 10 s plus
    /// 20 ms a viewer at most.
    private func connect(_ client: any BenchViewerClient, _ recorder: BenchRecorder) throws(BenchFailure) {
        let query = "board=\(Self.escape(settings.board))&format=\(settings.format.rawValue)"
        let path = "/ws?" + query + (settings.token.map { "&token=\(Self.escape($0))" } ?? "")
        let deadline = BenchSystem.now() + 10_000_000_000 + UInt64(settings.viewers) * 20_000_000
        var issued = 0
        while BenchSystem.now() < deadline {
            // Viewers not issued yet also count as connecting in the census.
            let handshaking = recorder.census().connecting - (settings.viewers - issued)
            if issued == settings.viewers, handshaking == 0 { break }
            if handshaking < Self.connectBatch / 2, issued < settings.viewers {
                for index in issued..<min(settings.viewers, issued + Self.connectBatch) {
                    client.connect(viewer: index, path: path)
                }
                issued = min(settings.viewers, issued + Self.connectBatch)
            }
            usleep(5_000)
        }
        let census = recorder.census()
        guard census.open > 0 else {
            let reasons = recorder.snapshot().endings.sorted { $0.value > $1.value }.prefix(3)
                .map { "\($0.value)× \($0.key)" }.joined(separator: "; ")
            throw BenchFailure(
                "no viewer could connect to ws://\(settings.address.host):\(settings.address.port)\(path): \(reasons)")
        }
        if census.open < settings.viewers {
            FileHandle.standardError.write(Data("warning: \(census.open) of \(settings.viewers) viewers connected\n".utf8))
        }
    }

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
                let gap = Self.nanoseconds(settings.pushInterval * Double.random(in: 0.5..<1.5))
                nextProbe = max(nextProbe + gap, BenchSystem.now())
            }
            if now >= nextAnimation { try animate() }
            let wake = min(nextProbe, nextAnimation, deadline)
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
        let body = try encode(ProbeBody(progress: value, animation: "none"))
        recorder.probeSent(probe, at: BenchSystem.now())
        let response = try http.request("PUT", "\(boardPath)/rings/\(Self.escape(probeRing))", json: body)
        guard response.isSuccess else {
            throw BenchFailure("PUT \(boardPath)/rings/\(probeRing): \(response.problem)")
        }
        recorder.probeAcknowledged(probe, at: response.receivedAt)
    }

    /// Sends the animated ring towards 0 or 10 over 60 s, linearly, so the server composes a frame
    /// every tick; renewed every 30 s in the other direction.
    private func animate() throws(BenchFailure) {
        let target = animateUpward ? 10.0 : 0.0
        animateUpward.toggle()
        let body = try encode(
            BoardPatch(rings: [animatedRing: .init(progress: target, animation: .linear(seconds: Self.animationSeconds))])
        )
        let response = try http.request("PATCH", boardPath, json: body)
        guard response.isSuccess else {
            throw BenchFailure("PATCH \(boardPath): \(response.problem)")
        }
        nextAnimation = BenchSystem.now() + Self.animationRenewal
    }

    /// Puts both rings back at their targets from before the run (when they had one), without
    /// animation, so the board stops ticking. Best effort: the run's result stands either way.
    private func restore(_ probe: BenchBoard.Ring, _ animated: BenchBoard.Ring) {
        var rings: [String: BoardPatch.Target] = [:]
        rings[animated.id] = .init(progress: animated.target ?? 0, animation: .none)
        if let target = probe.target { rings[probe.id] = .init(progress: target, animation: .none) }
        guard let body = try? encode(BoardPatch(rings: rings)) else { return }
        _ = try? http.request("PATCH", boardPath, json: body)
    }

    private func scrapeMetrics() -> BenchMetrics? {
        guard !settings.watchOnly, let response = try? http.request("GET", "/metrics"), response.isSuccess else { return nil }
        return BenchMetrics(prometheusText: response.text, board: settings.board)
    }

    // MARK: - Result

    private func summarize(
        _ state: BenchRecorder.State,
        recorder: BenchRecorder,
        window: (start: UInt64, end: UInt64, startSeq: UInt64, endSeq: UInt64),
        usage: CPUSample.Usage,
        loadAverage: [Double]?,
        metrics: BenchResult.MetricsDelta?
    ) -> BenchResult {
        let seconds = Double(window.end - window.start) / 1e9
        let published = Int(window.endSeq - window.startSeq)
        let measured = state.viewers.filter(\.inWindow)
        let rates = measured.map { Double($0.windowFrames) / seconds }.sorted()
        let received = measured.reduce(0) { $0 + $1.windowFrames }
        let ratios = measured.map { published > 0 ? Double($0.windowFrames) / Double(published) : 0 }

        var fromResponse: [Double] = []
        var fromRequest: [Double] = []
        var roundTrips: [Double] = []
        var missed = 0
        var probes = 0
        let sampled = recorder.sampleSlots.filter { state.viewers[$0.key].inWindow && state.viewers[$0.key].state == .open }
        func milliseconds(from start: UInt64, to end: UInt64) -> Double {
            Double(Int64(bitPattern: end &- start)) / 1e6
        }
        for probe in state.probes {
            guard let sent = probe.sentAt, let acknowledged = probe.acknowledgedAt,
                acknowledged >= window.start, acknowledged <= window.end
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
                server: settings.address.description,
                board: settings.board,
                format: settings.format.rawValue,
                client: settings.client.rawValue,
                viewers: settings.viewers,
                pushIntervalSeconds: settings.pushInterval,
                durationSeconds: settings.duration,
                warmupSeconds: settings.warmup,
                latencyViewers: recorder.sampleSlots.count,
                probeRing: probeRing,
                animatedRing: animatedRing,
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
            loadAverage: loadAverage,
            metrics: metrics
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

    private var boardPath: String { "/api/v1/boards/\(Self.escape(settings.board))" }

    private func encode(_ value: some Encodable) throws(BenchFailure) -> [UInt8] {
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw BenchFailure("cannot encode a request body: \(error)")
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

    private static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(seconds * 1e9) }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}

@available(*, unavailable)
extension BenchRun: Sendable {}

/// `{"progress":V,"animation":"none"}` for the probe ring.
private struct ProbeBody: Encodable {
    var progress: Double
    var animation: String
}

/// `{"rings":{ID:{"progress":P,"animation":A}}}` for `PATCH /api/v1/boards/B`.
private struct BoardPatch: Encodable {
    struct Target: Encodable {
        enum Animation: Encodable {
            case none
            case linear(seconds: Double)

            private struct Timing: Encodable {
                var curve: String
                var duration: Double
            }

            func encode(to encoder: any Encoder) throws {
                switch self {
                case .none:
                    var container = encoder.singleValueContainer()
                    try container.encode("none")
                case .linear(let seconds):
                    try Timing(curve: "linear", duration: seconds).encode(to: encoder)
                }
            }
        }

        var progress: Double
        var animation: Animation
    }

    var rings: [String: Target]
}
