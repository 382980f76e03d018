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
    private var frames: [String: CoreMetrics.Counter] = [:]
    private var frameBytes: [String: CoreMetrics.Counter] = [:]
    private var pushes: [String: CoreMetrics.Counter] = [:]
    private var requests: [String: CoreMetrics.Counter] = [:]
    private let tickLateness: CoreMetrics.Timer
    private let encodeTime: CoreMetrics.Timer

    /// Transport totals are read at scrape time and added as the difference since the last one.
    private var transportSeen = TransportStatistics()
    private let messagesSent: CoreMetrics.Counter
    private let bytesSent: CoreMetrics.Counter
    private let messagesSkipped: CoreMetrics.Counter
    private let viewersStalled: CoreMetrics.Counter
    /// The store's totals, likewise.
    private var storeSeen = StorageStatistics()
    private let storeCommits: CoreMetrics.Counter
    private let storeRecords: CoreMetrics.Counter
    private let storeFailures: CoreMetrics.Counter
    private let storeHealthy: CoreMetrics.Gauge
    private let reloads: CoreMetrics.Counter
    private let reloadFailures: CoreMetrics.Counter

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
        encodeTime = CoreMetrics.Timer(label: "ringcast_frame_encode_seconds", factory: factory)
        messagesSent = CoreMetrics.Counter(label: "ringcast_messages_sent_total", factory: factory)
        bytesSent = CoreMetrics.Counter(label: "ringcast_bytes_sent_total", factory: factory)
        messagesSkipped = CoreMetrics.Counter(label: "ringcast_frames_skipped_total", factory: factory)
        viewersStalled = CoreMetrics.Counter(label: "ringcast_viewers_evicted_total", factory: factory)
        storeCommits = CoreMetrics.Counter(label: "ringcast_store_commits_total", factory: factory)
        storeRecords = CoreMetrics.Counter(label: "ringcast_store_records_written_total", factory: factory)
        storeFailures = CoreMetrics.Counter(label: "ringcast_store_failed_commits_total", factory: factory)
        storeHealthy = CoreMetrics.Gauge(label: "ringcast_store_healthy", factory: factory)
        reloads = CoreMetrics.Counter(label: "ringcast_config_reloads_total", factory: factory)
        reloadFailures = CoreMetrics.Counter(label: "ringcast_config_reload_failures_total", factory: factory)
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

    /// A reload (SIGHUP) took effect, or was refused and changed nothing.
    func configurationReloaded(succeeded: Bool) {
        (succeeded ? reloads : reloadFailures).increment()
    }

    func pushed(board: String) {
        counter(&pushes, "ringcast_pushes_total", board: board).increment()
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
    func render(transport: TransportStatistics, store: StorageStatistics, storeHealthy healthy: Bool) -> [UInt8] {
        storeCommits.increment(by: store.commits - storeSeen.commits)
        storeRecords.increment(by: store.recordsWritten - storeSeen.recordsWritten)
        storeFailures.increment(by: store.failedCommits - storeSeen.failedCommits)
        storeSeen = store
        storeHealthy.record(healthy ? 1 : 0)
        messagesSent.increment(by: Int(transport.messagesSent - transportSeen.messagesSent))
        bytesSent.increment(by: Int(transport.bytesSent - transportSeen.bytesSent))
        messagesSkipped.increment(by: Int(transport.messagesSkipped - transportSeen.messagesSkipped))
        viewersStalled.increment(by: Int(transport.viewersClosedWhileStalled - transportSeen.viewersClosedWhileStalled))
        transportSeen = transport
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
