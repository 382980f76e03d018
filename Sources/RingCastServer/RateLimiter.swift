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
    private let maximumClients = 10_000

    init(perMinute: Int) {
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

    private func forgetFullBuckets(at now: Double) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + (now - bucket.updated) * refillPerSecond < capacity
        }
    }
}

@available(*, unavailable)
extension RateLimiter: Sendable {}
