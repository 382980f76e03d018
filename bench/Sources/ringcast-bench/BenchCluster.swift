import RingCastClient

/// The server as `--cluster` sees it: one RingCast cluster node, or several sharing one port
/// (SO_REUSEPORT), one `--server-pid` each. For every node it keeps a keep-alive REST connection
/// that the kernel gave to that node, through which the bench pushes to it and reads its
/// `/metrics`. Which node holds a connection is read from /proc (`BenchConnectionOwners`), not
/// asked of the server, and checked again whenever a connection had to be reopened.
///
/// Main thread only.
final class BenchCluster {
    struct Node {
        var pid: Int
        /// The `node` label of `ringcast_cluster_node_info` on the node's `/metrics` (nil when absent).
        var name: String?
        let http: HTTPClient
        /// The local port of `http`'s connection when it was last found on this node.
        var port: UInt16?
    }

    /// Connections opened at most to find one that a given node accepted.
    private static let connectionAttempts = 64

    private(set) var nodes: [Node] = []
    /// Every node's `/metrics` at each `scrapeMetrics()` that read them all, in order.
    private(set) var scrapes: [[BenchMetrics]] = []
    private let settings: BenchSettings

    /// Opens connections until every node holds one.
    init(settings: BenchSettings) throws(BenchFailure) {
        self.settings = settings
        var found: [Int: Node] = [:]
        for index in settings.serverPIDs.indices where found[index] == nil {
            for _ in 0..<Self.connectionAttempts {
                let http = HTTPClient(address: settings.address, token: settings.token)
                let name = try Self.metrics(from: http, board: settings.board).clusterNode
                guard let port = http.localPort, let owner = try owners().owner(ofClientPort: port) else { continue }
                if found[owner] == nil {
                    found[owner] = Node(pid: settings.serverPIDs[owner], name: name, http: http, port: port)
                }
                if owner == index { break }
            }
            guard found[index] != nil else {
                throw BenchFailure(
                    "none of \(Self.connectionAttempts) connections to \(settings.address) was accepted by pid "
                        + "\(settings.serverPIDs[index]): is every --server-pid a node listening there?")
            }
        }
        nodes = settings.serverPIDs.indices.map { found[$0]! }
    }

    /// Who holds which connection to the server's port, now.
    func owners() throws(BenchFailure) -> BenchConnectionOwners {
        try BenchConnectionOwners(pids: settings.serverPIDs, serverPort: UInt16(settings.address.port))
    }

    /// Sends a request on node `node`'s connection and returns the answer with the node that
    /// served it: node `node`, unless the connection had been closed and the reopened one went to
    /// another node (nil when /proc no longer shows it). The connection is then put back on its node
    /// for the next request.
    func request(
        node: Int, _ method: String, _ path: String, json body: [UInt8]? = nil
    ) throws(BenchFailure) -> (response: HTTPClient.Response, servedBy: Int?) {
        let http = nodes[node].http
        let response: HTTPClient.Response
        do {
            response = try http.request(method, path, json: body)
        } catch {
            throw BenchFailure("\(method) \(path) on node \(describe(node)): \(error)")
        }
        guard let port = http.localPort, port != nodes[node].port else { return (response, node) }
        let servedBy = try owners().owner(ofClientPort: port)
        try reattach(node)
        return (response, servedBy)
    }

    /// Reopens node `node`'s connection until that node accepts it.
    private func reattach(_ node: Int) throws(BenchFailure) {
        let http = nodes[node].http
        for _ in 0..<Self.connectionAttempts {
            if let port = http.localPort, try owners().owner(ofClientPort: port) == node {
                nodes[node].port = port
                return
            }
            http.disconnect()
            _ = try Self.metrics(from: http, board: settings.board)
        }
        throw BenchFailure("node \(describe(node)) accepted none of \(Self.connectionAttempts) new connections")
    }

    /// Every node's `/metrics`, summed; nil when a node's cannot be read. Kept in `scrapes`.
    func scrapeMetrics() -> BenchMetrics? {
        var parts: [BenchMetrics] = []
        for node in nodes.indices {
            guard let answer = try? request(node: node, "GET", "/metrics"), answer.servedBy == node else { return nil }
            parts.append(BenchMetrics(prometheusText: answer.response.text, board: settings.board))
        }
        scrapes.append(parts)
        return BenchMetrics.summed(parts)
    }

    /// Node `node`'s figures between the first and the last `scrapes`.
    func metricsDelta(node: Int) -> BenchResult.Cluster.NodeMetrics? {
        guard scrapes.count >= 2, let before = scrapes.first?[node], let after = scrapes.last?[node] else { return nil }
        func difference(_ key: KeyPath<BenchMetrics, Double?>) -> Int? { BenchMetrics.difference(before, after, key) }
        return BenchResult.Cluster.NodeMetrics(
            framesComposed: difference(\.framesPublished),
            lateTicks: BenchMetrics.lateTicks(before, after, threshold: BenchUsage.lateTickThresholdSeconds),
            lateUpdates: difference(\.lateUpdates),
            catchUps: difference(\.catchUps),
            digestMismatches: difference(\.digestMismatches)
        )
    }

    /// "a (pid 123)", or "pid 123" for a node without a name.
    func describe(_ node: Int) -> String {
        nodes[node].name.map { "\($0) (pid \(nodes[node].pid))" } ?? "pid \(nodes[node].pid)"
    }

    private static func metrics(from http: HTTPClient, board: String) throws(BenchFailure) -> BenchMetrics {
        do {
            return BenchMetrics(prometheusText: try http.request("GET", "/metrics").text, board: board)
        } catch {
            throw BenchFailure("GET /metrics: \(error)")
        }
    }
}

@available(*, unavailable)
extension BenchCluster: Sendable {}
