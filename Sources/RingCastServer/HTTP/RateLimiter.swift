/// A token bucket per client: `perMinute` writes on average, bursts up to `perMinute`.
/// Touched only on the service thread.
final class RateLimiter {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let capacity: Double
    private let refillPerSecond: Double
    private var buckets: [String: Bucket] = [:]
    /// Bounds memory however many clients there are: idle, full buckets are forgotten.
    private let maximumClients: Int

    init(perMinute: Int, maximumClients: Int = 10_000) {
        self.maximumClients = maximumClients
        capacity = Double(perMinute)
        refillPerSecond = Double(perMinute) / 60
    }

    /// Takes one token for `client`; when none is left, returns the whole seconds to wait.
    func take(for client: String, at now: Double) -> Int? {
        guard capacity > 0 else { return nil }
        var bucket = buckets[client] ?? Bucket(tokens: capacity, updated: now)
        bucket.tokens = min(capacity, bucket.tokens + (now - bucket.updated) * refillPerSecond)
        bucket.updated = now
        defer {
            if buckets.count >= maximumClients { forgetFullBuckets(at: now) }
            buckets[client] = bucket
        }
        if bucket.tokens >= 1 {
            bucket.tokens -= 1
            return nil
        }
        return max(1, Int(((1 - bucket.tokens) / refillPerSecond).rounded(.up)))
    }

    /// Forgets buckets that have refilled (the client would start full anyway); if that is not
    /// enough — more clients writing at once than the table holds — the least recently seen half
    /// too, so the table stays bounded whatever arrives.
    private func forgetFullBuckets(at now: Double) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + (now - bucket.updated) * refillPerSecond < capacity
        }
        if buckets.count >= maximumClients {
            let keep = buckets.sorted { $0.value.updated > $1.value.updated }.prefix(maximumClients / 2)
            buckets = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
    }

    var clientCount: Int { buckets.count }
}

@available(*, unavailable)
extension RateLimiter: Sendable {}
