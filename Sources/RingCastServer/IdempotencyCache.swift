import RingCastTransport

/// Answers a write retried with the same `Idempotency-Key` within the retention time with the
/// first answer, without applying it again. Touched only on the service thread.
final class IdempotencyCache {
    private struct Entry {
        var fingerprint: [UInt8]
        var response: HTTPResponse
        var expires: Double
    }

    private let retention: Double
    private let capacity: Int
    private var entries: [String: Entry] = [:]
    private var order: [(key: String, expires: Double)] = []

    init(retention: Double = 300, capacity: Int = 10_000) {
        self.retention = retention
        self.capacity = capacity
    }

    enum Lookup {
        case miss
        case replay(HTTPResponse)
        /// The key was used for a different request.
        case conflict
    }

    func lookup(key: String, fingerprint: [UInt8], at now: Double) -> Lookup {
        expire(at: now)
        guard let entry = entries[key] else { return .miss }
        return entry.fingerprint == fingerprint ? .replay(entry.response) : .conflict
    }

    func store(key: String, fingerprint: [UInt8], response: HTTPResponse, at now: Double) {
        expire(at: now)
        if entries.count >= capacity, let oldest = order.first {
            entries[oldest.key] = nil
            order.removeFirst()
        }
        entries[key] = Entry(fingerprint: fingerprint, response: response, expires: now + retention)
        order.append((key, now + retention))
    }

    private func expire(at now: Double) {
        var dropped = 0
        while dropped < order.count, order[dropped].expires <= now {
            if let entry = entries[order[dropped].key], entry.expires <= now {
                entries[order[dropped].key] = nil
            }
            dropped += 1
        }
        if dropped > 0 { order.removeFirst(dropped) }
    }
}

@available(*, unavailable)
extension IdempotencyCache: Sendable {}
