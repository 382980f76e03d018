import Foundation
import RingCastClient

#if canImport(Glibc)
    import Glibc
#endif

/// One benchmark run against a live server, phase by phase: read the board, keep it animating,
/// open the viewers, warm up, measure a window while probing latency, let the last frames land,
/// close everything, compute the result. Every wait has a deadline. With `cluster` the server is
/// one or several cluster nodes sharing a port: the probes go to each node in turn, and each
/// viewer and probe is counted for the node that holds its connection.
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
        /// The server is cluster nodes, one `shared.serverPIDs` each (`--cluster`).
        var cluster = false
        /// Viewers, evenly spread, whose frames are compared byte for byte across nodes.
        var comparedViewers = 0
    }

    private let settings: Settings
    private let session: BenchBoardSession
    private var probeRing = ""
    private var nextProbe: UInt64 = 0
    private var probesSent = 0
    private var cluster: BenchCluster?
    /// Probe → the node that answered it (`cluster` only; nil: unknown).
    private var probeNodes: [Int: Int?] = [:]

    init(settings: Settings) {
        self.settings = settings
        self.session = BenchBoardSession(settings.shared)
    }

    func run() throws(BenchFailure) -> BenchResult {
        let shared = settings.shared
        var restore: (probe: BenchBoard.Ring, animated: BenchBoard.Ring)?
        if !settings.watchOnly {
            let board = try session.readBoard()
            guard let probe = board.probeRing, let animated = board.animatedRing else {
                throw BenchFailure("board \(shared.board) needs two plain rings (one to probe, one to keep animating)")
            }
            probeRing = probe.id
            restore = (probe, animated)
        }
        let serverPIDs = try shared.readableServerPIDs()
        if settings.cluster { cluster = try BenchCluster(settings: shared) }

        // One descriptor a viewer; lws sizes its tables from RLIMIT_NOFILE when its context is
        // created, so this comes before the client.
        try BenchSystem.raiseOpenFileLimit(to: settings.viewers + 128)
        let reader = shared.format.reader(probeRing: probeRing)
        let recorder = BenchRecorder(
            viewers: settings.viewers,
            sampled: settings.watchOnly ? 0 : settings.latencyViewers,
            reader: reader,
            recordedViewers: Set(settings.recordFramesPath == nil ? [] : [0])
                .union(BenchRecorder.spread(settings.comparedViewers, over: settings.viewers))
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
        // Read before the window, so that reading /proc costs the window nothing.
        let viewerNodes = try cluster.map { cluster throws(BenchFailure) in
            let owners = try cluster.owners()
            return recorder.snapshot().viewers.map { viewer in viewer.localPort.flatMap(owners.owner(ofClientPort:)) }
        }

        let window = try BenchWindow(recorder: recorder, serverPIDs: serverPIDs, metrics: scrapeMetrics) {
            start throws(BenchFailure) in try drive(recorder, until: start + BenchSystem.nanoseconds(shared.duration))
        }

        // Let frames up to the window's last one, and those showing the last probes, arrive.
        recorder.settle(upTo: window.end.seq + 3)
        let state = recorder.snapshot()
        if let path = settings.recordFramesPath { try Self.write(state.recordings[0] ?? [], to: path) }

        var result = summarize(state, recorder: recorder, window: window)
        if let cluster, let viewerNodes {
            result.cluster = summarizeCluster(cluster, viewerNodes: viewerNodes, state, recorder: recorder, window: window)
        }
        return result
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
        if let cluster {
            // Each node in turn; the node that served it is known after the answer.
            let answer = try cluster.request(node: probe % cluster.nodes.count, "PUT", path, json: body)
            response = answer.response
            probeNodes[probe] = answer.servedBy
        } else {
            do {
                response = try session.http.request("PUT", path, json: body)
            } catch {
                throw BenchFailure("PUT \(session.boardPath)/rings/\(probeRing): \(error)")
            }
        }
        recorder.probeAcknowledged(probe, at: response.receivedAt)
    }

    private func scrapeMetrics() -> BenchMetrics? {
        settings.watchOnly ? nil : cluster?.scrapeMetrics() ?? session.scrapeMetrics()
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
        let usage = window.usage(serverPIDs: shared.serverPIDs)
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

    // MARK: - Cluster

    /// Per node: its viewers, their delivery, the pushes it answered and its process; push→frame
    /// split by whether the viewer was on the node that answered the push; and the recorded
    /// viewers' frames compared across nodes.
    private func summarizeCluster(
        _ cluster: BenchCluster, viewerNodes: [Int?], _ state: BenchRecorder.State, recorder: BenchRecorder,
        window: BenchWindow
    ) -> BenchResult.Cluster {
        let published = Int(window.end.seq - window.start.seq)
        let usage = window.usage(serverPIDs: settings.shared.serverPIDs)
        let inWindow = state.probes.indices.filter { index in
            guard let acknowledged = state.probes[index].acknowledgedAt else { return false }
            return acknowledged >= window.start.time && acknowledged <= window.end.time
        }
        let nodes = cluster.nodes.indices.map { node in
            let viewers = state.viewers.indices.filter { state.viewers[$0].inWindow && viewerNodes[$0] == node }
            let received = viewers.reduce(0) { $0 + state.viewers[$1].windowFrames }
            return BenchResult.Cluster.Node(
                name: cluster.nodes[node].name,
                pid: cluster.nodes[node].pid,
                viewers: viewers.count,
                delivery: viewers.isEmpty || published == 0
                    ? 0 : Self.round(Double(received) / Double(viewers.count * published), 5),
                pushes: inWindow.filter { probeNodes[$0] == node }.count,
                process: node < usage.servers.count ? usage.servers[node] : nil,
                metrics: cluster.metricsDelta(node: node)
            )
        }

        var sameNode: [Double] = []
        var otherNode: [Double] = []
        for (viewer, slot) in recorder.sampleSlots
        where state.viewers[viewer].inWindow && state.viewers[viewer].state == .open {
            guard let viewerNode = viewerNodes[viewer] else { continue }
            for index in inWindow {
                guard let pushNode = probeNodes[index] ?? nil, let acknowledged = state.probes[index].acknowledgedAt,
                    let received = state.probes[index].receivedAt[slot]
                else { continue }
                let milliseconds = Double(Int64(bitPattern: received &- acknowledged)) / 1e6
                if viewerNode == pushNode { sameNode.append(milliseconds) } else { otherNode.append(milliseconds) }
            }
        }

        return BenchResult.Cluster(
            nodes: nodes,
            unattributedViewers: state.viewers.indices.filter { state.viewers[$0].inWindow && viewerNodes[$0] == nil }.count,
            sameNode: Self.percentiles(sameNode),
            otherNode: Self.percentiles(otherNode),
            frames: compareFrames(state.recordings, viewerNodes: viewerNodes, cluster: cluster)
        )
    }

    /// Groups the recorded viewers' frames by `seq` and kind and, for every group received on two
    /// nodes or more, checks that every copy has the same bytes.
    private func compareFrames(_ recordings: [Int: [[UInt8]]], viewerNodes: [Int?], cluster: BenchCluster)
        -> BenchResult.Cluster.FrameComparison
    {
        struct Key: Hashable, Comparable {
            var seq: UInt64
            var keyframe: Bool
            static func < (a: Key, b: Key) -> Bool { (a.seq, a.keyframe ? 1 : 0) < (b.seq, b.keyframe ? 1 : 0) }
        }
        let reader = settings.shared.format.reader(probeRing: "")
        /// Each different byte string received for one key, with the nodes it came from and how often.
        struct Version {
            var bytes: [UInt8]
            var copiesByNode: [Int: Int]
        }
        var versions: [Key: [Version]] = [:]
        var viewersByNode = Array(repeating: 0, count: cluster.nodes.count)
        for (viewer, frames) in recordings {
            guard let node = viewerNodes[viewer] else { continue }
            viewersByNode[node] += 1
            for frame in frames {
                let key: Key? = frame.withUnsafeBytes { message in
                    guard case .frame(let seq) = reader.sequence(in: message, isBinary: settings.shared.format == .binary)
                    else { return nil }
                    return Key(seq: seq, keyframe: reader.isKeyframe(message))
                }
                guard let key else { continue }
                var known = versions[key, default: []]
                if let index = known.firstIndex(where: { $0.bytes == frame }) {
                    known[index].copiesByNode[node, default: 0] += 1
                } else {
                    known.append(Version(bytes: frame, copiesByNode: [node: 1]))
                }
                versions[key] = known
            }
        }
        let compared = versions.filter { Set($0.value.flatMap(\.copiesByNode.keys)).count >= 2 }
        // "seq 812 keyframe: 2 versions, 412 bytes on a ×3, 418 bytes on b ×2".
        func describe(_ key: Key) -> String {
            let kinds = compared[key]!.map { version in
                let nodes = version.copiesByNode.sorted { $0.key < $1.key }
                    .map { "\(cluster.nodes[$0.key].name ?? "pid \(cluster.nodes[$0.key].pid)") ×\($0.value)" }
                return "\(version.bytes.count) bytes on \(nodes.joined(separator: " and "))"
            }
            return "seq \(key.seq) \(key.keyframe ? "keyframe" : "delta"): \(kinds.count) versions, "
                + kinds.joined(separator: "; ")
        }
        return BenchResult.Cluster.FrameComparison(
            viewers: viewersByNode.reduce(0, +),
            viewersByNode: viewersByNode,
            compared: compared.count,
            identical: compared.values.filter { $0.count == 1 }.count,
            firstDifferences: compared.filter { $0.value.count > 1 }.keys.sorted().prefix(5).map(describe)
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
