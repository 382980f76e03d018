import RingCastTLS
import RingCastTransport

/// Answers a write retried with the same `Idempotency-Key` within the retention time with the
/// first answer, without applying it again.
///
/// Holds a SHA-256 digest of each request (method, path, body), never the body itself, and the
/// first 2xx answer; the whole cache is bounded in bytes (`capacityBytes`), the oldest entry
/// evicted first. A key whose first request is still being stored is "in flight": a retry then
/// gets 409 rather than a second application. Touched only on the service thread.
final class IdempotencyCache {
    private struct Entry {
        var digest: SHA256Digest
        /// nil while the first request is in flight.
        var response: HTTPResponse?
        var expires: Double
        var bytes: Int
    }

    private let retention: Double
    private var capacityBytes: Int
    private var entries: [String: Entry] = [:]
    /// Keys in the order they were added, with their expiry, for expiry and eviction.
    private var order: [(key: String, expires: Double)] = []
    private var orderStart = 0
    /// Bytes held by `entries`, as counted by `cost`.
    private(set) var bytes = 0

    init(retention: Double = 300, capacityBytes: Int) {
        self.retention = retention
        self.capacityBytes = capacityBytes
    }

    enum Lookup {
        /// Not seen: the caller applies the request, then calls `finish`.
        case miss
        case replay(HTTPResponse)
        /// The key was used for a different request.
        case conflict
        /// The first request with this key is still being applied.
        case inFlight
    }

    /// The digest that identifies a request: method, path and body.
    static func digest(method: String, path: String, body: [UInt8]) -> SHA256Digest {
        SHA256Digest(of: Array("\(method) \(path)\n".utf8) + body)
    }

    /// Looks `key` up; on a miss the key is held as in flight until `finish` or `abandon`.
    func begin(key: String, digest: SHA256Digest, at now: Double) -> Lookup {
        expire(at: now)
        if let entry = entries[key] {
            guard entry.digest == digest else { return .conflict }
            return entry.response.map { .replay($0) } ?? .inFlight
        }
        guard capacityBytes > 0 else { return .miss }
        insert(key, Entry(digest: digest, response: nil, expires: now + retention, bytes: Self.cost(key: key, response: nil)))
        return .miss
    }

    /// Keeps the first answer to `key`'s request; a non-2xx answer is not kept (a retry may apply it).
    func finish(key: String, response: HTTPResponse, at now: Double) {
        guard var entry = entries[key], entry.response == nil else { return }
        guard (200..<300).contains(response.status) else {
            abandon(key: key)
            return
        }
        let cost = Self.cost(key: key, response: response)
        bytes += cost - entry.bytes
        entry.bytes = cost
        entry.response = response
        entries[key] = entry
        // Listed again: eviction may have passed over it while it was in flight.
        order.append((key, entry.expires))
        evict()
    }

    /// Forgets an in-flight key whose request failed.
    func abandon(key: String) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        bytes -= entry.bytes
    }

    var count: Int { entries.count }

    /// Holds at most `capacityBytes` from now on, dropping the oldest answers if it holds more
    /// (a reload); the replays it keeps stay valid.
    func resize(to capacityBytes: Int) {
        self.capacityBytes = capacityBytes
        evict()
    }

    private func insert(_ key: String, _ entry: Entry) {
        entries[key] = entry
        bytes += entry.bytes
        order.append((key, entry.expires))
        evict()
    }

    /// Drops the oldest finished entries until the cache fits (in-flight ones stay: they are small).
    private func evict() {
        var index = orderStart
        while bytes > capacityBytes, index < order.count {
            let key = order[index].key
            if let entry = entries[key], entry.response != nil, entry.expires == order[index].expires {
                entries[key] = nil
                bytes -= entry.bytes
            }
            index += 1
        }
        compact(from: index)
    }

    private func expire(at now: Double) {
        var index = orderStart
        while index < order.count, order[index].expires <= now {
            if let entry = entries[order[index].key], entry.expires <= now {
                entries[order[index].key] = nil
                bytes -= entry.bytes
            }
            index += 1
        }
        compact(from: index)
    }

    /// Forgets order entries before `index` once they are many, so the array does not grow forever.
    private func compact(from index: Int) {
        orderStart = index
        if orderStart > 1024, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    /// What one entry costs: the key, the digest, the answer's body and headers, and bookkeeping.
    private static func cost(key: String, response: HTTPResponse?) -> Int {
        let headers = response?.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 } ?? 0
        return 160 + key.utf8.count * 2 + SHA256Digest.byteCount + (response?.body.count ?? 0) + headers
    }
}

@available(*, unavailable)
extension IdempotencyCache: Sendable {}
