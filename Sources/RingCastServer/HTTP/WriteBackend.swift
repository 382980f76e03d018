import RingCastStorage

/// Where writes go: the embedded store of one server, or Redis, shared by a cluster's nodes.
enum WriteBackend {
    case store(BoardWriter)
    case cluster(ClusterNode)

    /// Why writes are refused now, or nil: what `/readyz` says.
    var problem: String? {
        switch self {
        case .store(let writer): writer.problem
        case .cluster(let node): node.problem
        }
    }

    /// The embedded store's figures; nil in cluster mode.
    var storeStatistics: StorageStatistics? {
        switch self {
        case .store(let writer): writer.statistics
        case .cluster: nil
        }
    }
}

@available(*, unavailable)
extension WriteBackend: Sendable {}
