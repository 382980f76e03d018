import CoreMetrics
import Prometheus
import RingCastStorage
import RingCastTransport

/// The server's figures for `GET /metrics`, through swift-metrics into a Prometheus registry of
/// this server's own (not the process-wide bootstrap, so several servers can share a process).
///
/// Touched only on the service thread.
final class ServerMetrics {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    private var viewers: [String: CoreMetrics.Gauge] = [:]
    private var loopViewers: [String: CoreMetrics.Gauge] = [:]
    private var frames: [String: CoreMetrics.Counter] = [:]
    private var frameBytes: [String: CoreMetrics.Counter] = [:]
    private var pushes: [String: CoreMetrics.Counter] = [:]
    /// Playlist writes stored, by playlist: `ringcast_playlist_writes_total{playlist}`; and how many are served.
    private var playlistWrites: [String: CoreMetrics.Counter] = [:]
    private let playlists: CoreMetrics.Gauge
    private var requests: [String: CoreMetrics.Counter] = [:]
    private var refusals: [String: CoreMetrics.Counter] = [:]
    private let tickLateness: CoreMetrics.Timer
    private let ticksSkipped: CoreMetrics.Counter
    private let encodeTime: CoreMetrics.Timer

    /// Transport totals are read at scrape time and added as the difference since the last one.
    private var transportSeen = TransportStatistics()
    private let messagesSent: CoreMetrics.Counter
    private let bytesSent: CoreMetrics.Counter
    private let messagesSkipped: CoreMetrics.Counter
    private let viewersStalled: CoreMetrics.Counter
    private let viewersHeld: CoreMetrics.Counter
    /// The store's totals, likewise.
    private var storeSeen = StorageStatistics()
    private let storeCommits: CoreMetrics.Counter
    private let storeRecords: CoreMetrics.Counter
    private let storeFailures: CoreMetrics.Counter
    private let storeHealthy: CoreMetrics.Gauge
    private let reloads: CoreMetrics.Counter
    private let reloadFailures: CoreMetrics.Counter
    /// Cluster mode's figures; nil when serving alone.
    private var cluster: ClusterFigures?
    /// The webhook sender's totals, read at scrape time like the transport's: `ringcast_webhooks_total{outcome}`.
    var webhookStatistics: () -> WebhookStatistics = { WebhookStatistics() }
    private var webhooksSeen = WebhookStatistics()
    private var webhookOutcomes: [String: CoreMetrics.Counter] = [:]

    private struct ClusterFigures {
        let roundTrip: CoreMetrics.Gauge
        let subscribed: CoreMetrics.Gauge
        let updates: CoreMetrics.Counter
        let catchUps: CoreMetrics.Counter
        let lateUpdates: CoreMetrics.Counter
        let digestMismatches: CoreMetrics.Counter
        let writesAgain: CoreMetrics.Counter
    }

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        let milliseconds: [Duration] = [1, 2, 4, 8, 16, 33, 66, 133, 500].map { .milliseconds($0) }
        let microseconds: [Duration] = [10, 25, 50, 100, 250, 500, 1000, 5000].map { .microseconds($0) }
        factory.durationHistogramBuckets = [
            "ringcast_tick_lateness_seconds": milliseconds,
            "ringcast_frame_encode_seconds": microseconds,
        ]
        self.factory = factory
        tickLateness = CoreMetrics.Timer(label: "ringcast_tick_lateness_seconds", factory: factory)
        ticksSkipped = CoreMetrics.Counter(label: "ringcast_ticks_skipped_total", factory: factory)
        encodeTime = CoreMetrics.Timer(label: "ringcast_frame_encode_seconds", factory: factory)
        messagesSent = CoreMetrics.Counter(label: "ringcast_messages_sent_total", factory: factory)
        bytesSent = CoreMetrics.Counter(label: "ringcast_bytes_sent_total", factory: factory)
        messagesSkipped = CoreMetrics.Counter(label: "ringcast_frames_skipped_total", factory: factory)
        viewersStalled = CoreMetrics.Counter(label: "ringcast_viewers_evicted_total", factory: factory)
        viewersHeld = CoreMetrics.Counter(label: "ringcast_viewers_held_total", factory: factory)
        storeCommits = CoreMetrics.Counter(label: "ringcast_store_commits_total", factory: factory)
        storeRecords = CoreMetrics.Counter(label: "ringcast_store_records_written_total", factory: factory)
        storeFailures = CoreMetrics.Counter(label: "ringcast_store_failed_commits_total", factory: factory)
        storeHealthy = CoreMetrics.Gauge(label: "ringcast_store_healthy", factory: factory)
        reloads = CoreMetrics.Counter(label: "ringcast_config_reloads_total", factory: factory)
        reloadFailures = CoreMetrics.Counter(label: "ringcast_config_reload_failures_total", factory: factory)
        playlists = CoreMetrics.Gauge(label: "ringcast_playlists", factory: factory)
    }

    // MARK: Cluster mode

    /// This server is cluster node `name`: `ringcast_cluster_node_info{node}` and the cluster's figures.
    func clusterNode(_ name: String) {
        let info = CoreMetrics.Gauge(label: "ringcast_cluster_node_info", dimensions: [("node", name)], factory: factory)
        info.record(1)
        cluster = ClusterFigures(
            roundTrip: CoreMetrics.Gauge(label: "ringcast_cluster_redis_rtt_seconds", factory: factory),
            subscribed: CoreMetrics.Gauge(label: "ringcast_cluster_subscribed", factory: factory),
            updates: CoreMetrics.Counter(label: "ringcast_cluster_updates_received_total", factory: factory),
            catchUps: CoreMetrics.Counter(label: "ringcast_cluster_catchups_total", factory: factory),
            lateUpdates: CoreMetrics.Counter(label: "ringcast_cluster_late_updates_total", factory: factory),
            digestMismatches: CoreMetrics.Counter(label: "ringcast_cluster_digest_mismatches_total", factory: factory),
            writesAgain: CoreMetrics.Counter(label: "ringcast_cluster_writes_again_total", factory: factory))
        cluster?.subscribed.record(0)
    }

    /// The last PING's round trip to Redis.
    func clusterRoundTrip(_ duration: Duration) {
        let components = duration.components
        cluster?.roundTrip.record(Double(components.seconds) + Double(components.attoseconds) * 1e-18)
    }

    func clusterSubscribed(_ subscribed: Bool) {
        cluster?.subscribed.record(subscribed ? 1 : 0)
    }

    /// An update applied in turn (this node's or another's).
    func clusterUpdateReceived() {
        cluster?.updates.increment()
    }

    /// A write computed again: another node's write to the board got in first, or one of this node's sent before it
    /// did not land.
    func clusterWriteAgain() {
        cluster?.writesAgain.increment()
    }

    /// A board or every board read again from Redis.
    func clusterCatchUp() {
        cluster?.catchUps.increment()
    }

    /// An update that arrived for a tick already sent: the board was reloaded.
    func clusterLateUpdate() {
        cluster?.lateUpdates.increment()
    }

    /// A state that differed from the accepting node's: the board was reloaded.
    func clusterDigestMismatch() {
        cluster?.digestMismatches.increment()
    }

    func setViewers(_ count: Int, board: String) {
        gauge(&viewers, "ringcast_viewers", board: board).record(count)
    }

    func framePublished(board: String, bytes: Int, encodeNanoseconds: Int64) {
        counter(&frames, "ringcast_frames_total", board: board).increment()
        counter(&frameBytes, "ringcast_frame_bytes_total", board: board).increment(by: bytes)
        encodeTime.recordNanoseconds(encodeNanoseconds)
    }

    func tickLate(bySeconds lateness: Double) {
        tickLateness.recordNanoseconds(Int64(max(0, lateness) * 1e9))
    }

    /// A timer woke so late that the frames of `count` ticks of a moving board were never sent (latest wins).
    func ticksSkipped(_ count: Int64) {
        ticksSkipped.increment(by: Int(count))
    }

    /// A reload (SIGHUP) took effect, or was refused and changed nothing.
    func configurationReloaded(succeeded: Bool) {
        (succeeded ? reloads : reloadFailures).increment()
    }

    func pushed(board: String) {
        counter(&pushes, "ringcast_pushes_total", board: board).increment()
    }

    /// A write of playlist `name` (a creation, replacement or deletion) was stored, through this server.
    func playlistWritten(_ name: String) {
        let counter =
            playlistWrites[name]
            ?? CoreMetrics.Counter(label: "ringcast_playlist_writes_total", dimensions: [("playlist", name)], factory: factory)
        playlistWrites[name] = counter
        counter.increment()
    }

    /// The playlists served now.
    func setPlaylists(_ count: Int) {
        playlists.record(count)
    }

    /// `ringcast_loop_viewers{loop}`: how the viewers are spread over the transport's loops (`--loops`).
    func setLoopViewers(_ counts: [Int]) {
        for (loop, count) in counts.enumerated() {
            let label = String(loop)
            let gauge =
                loopViewers[label]
                ?? CoreMetrics.Gauge(label: "ringcast_loop_viewers", dimensions: [("loop", label)], factory: factory)
            loopViewers[label] = gauge
            gauge.record(count)
        }
    }

    /// A request or viewer refused for its token (401, 403): by the token's name (`none` without one, `invalid`
    /// for one no token has), never its secret, and the permission it lacked.
    func refused(token: String, permission: AccessToken.Access) {
        let key = "\(token) \(permission)"
        if let counter = refusals[key] {
            counter.increment()
            return
        }
        let counter = CoreMetrics.Counter(
            label: "ringcast_auth_refusals_total", dimensions: [("token", token), ("permission", "\(permission)")],
            factory: factory)
        refusals[key] = counter
        counter.increment()
    }

    func request(route: String, method: String, status: Int) {
        let key = "\(route) \(method) \(status)"
        if let counter = requests[key] {
            counter.increment()
            return
        }
        let counter = CoreMetrics.Counter(
            label: "ringcast_http_requests_total",
            dimensions: [("route", route), ("method", method), ("status", String(status))],
            factory: factory
        )
        requests[key] = counter
        counter.increment()
    }

    /// The Prometheus text exposition, after catching up with the transport's and the store's
    /// totals (commits per write show how well group commit batches).
    /// `store` is nil in cluster mode (Redis is the store); `healthy` says whether writes are taken.
    func render(transport: TransportStatistics, store: StorageStatistics?, storeHealthy healthy: Bool) -> [UInt8] {
        if let store {
            storeCommits.increment(by: store.commits - storeSeen.commits)
            storeRecords.increment(by: store.recordsWritten - storeSeen.recordsWritten)
            storeFailures.increment(by: store.failedCommits - storeSeen.failedCommits)
            storeSeen = store
        }
        storeHealthy.record(healthy ? 1 : 0)
        messagesSent.increment(by: Int(transport.messagesSent - transportSeen.messagesSent))
        bytesSent.increment(by: Int(transport.bytesSent - transportSeen.bytesSent))
        messagesSkipped.increment(by: Int(transport.messagesSkipped - transportSeen.messagesSkipped))
        viewersStalled.increment(by: Int(transport.viewersClosedWhileStalled - transportSeen.viewersClosedWhileStalled))
        viewersHeld.increment(by: Int(transport.viewersHeld - transportSeen.viewersHeld))
        transportSeen = transport
        let webhooks = webhookStatistics()
        for ((outcome, count), (_, seen)) in zip(webhooks.outcomes, webhooksSeen.outcomes) {
            let counter =
                webhookOutcomes[outcome]
                ?? CoreMetrics.Counter(label: "ringcast_webhooks_total", dimensions: [("outcome", outcome)], factory: factory)
            webhookOutcomes[outcome] = counter
            counter.increment(by: count - seen)
        }
        webhooksSeen = webhooks
        return registry.emitToBuffer()
    }

    private func counter(_ cache: inout [String: CoreMetrics.Counter], _ label: String, board: String) -> CoreMetrics.Counter {
        if let counter = cache[board] { return counter }
        let counter = CoreMetrics.Counter(label: label, dimensions: [("board", board)], factory: factory)
        cache[board] = counter
        return counter
    }

    private func gauge(_ cache: inout [String: CoreMetrics.Gauge], _ label: String, board: String) -> CoreMetrics.Gauge {
        if let gauge = cache[board] { return gauge }
        let gauge = CoreMetrics.Gauge(label: label, dimensions: [("board", board)], factory: factory)
        cache[board] = gauge
        return gauge
    }
}

@available(*, unavailable)
extension ServerMetrics: Sendable {}
