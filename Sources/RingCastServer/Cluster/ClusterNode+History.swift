import RingCastCluster
import RingCastCore
import RingCastStorage

extension ClusterNode {
    /// A ring's history as Redis holds it (the write script keeps it: `RingHistory`), read on the node's Redis
    /// connection, behind the writes sent before.
    func history(_ query: HistoryQuery, completion: @escaping (Result<[HistoryPoint], APIError>) -> Void) {
        guard let queue else {
            return completion(.failure(.storageUnavailable("the node is starting; retry in a moment")))
        }
        let bound =
            query.bound.map { RingHistory.Bound(seconds: $0.seconds, points: $0.points) }
            ?? RingHistory.Bound(historyRetention)
        let address = endpoint.address
        let now = Int64((clock.now() * 1_000).rounded(.down))
        let done = ServiceThreadBound(value: completion)
        worker.submit { session in
            let result: Result<[HistoryPoint], APIError>
            do throws(RedisError) {
                let points = try session.connection.history(
                    board: query.board, ring: query.ring, since: query.since, until: query.until, now: now, bound: bound)
                result = .success(points.map { HistoryPoint(tick: $0.milliseconds, value: $0.value, status: $0.status) })
            } catch {
                result = .failure(.storageUnavailable("cannot read the history from Redis at \(address): \(error)"))
            }
            queue.async { done.value(result) }
        }
    }
}

extension RingHistory.Bound {
    init(_ retention: HistoryRetention) {
        self.init(seconds: Int64(retention.seconds), points: Int64(retention.points))
    }
}
