import RingCastCluster
import Testing

@Suite struct RedisEndpointTests {
    @Test(arguments: [
        ("redis://localhost", "localhost", 6379, 0),
        ("redis://127.0.0.1:6380", "127.0.0.1", 6380, 0),
        ("redis://cache.internal:7000/3", "cache.internal", 7000, 3),
        ("redis://cache/15", "cache", 6379, 15),
        ("redis://cache:6379/", "cache", 6379, 0),
        ("redis://[::1]:6390/2", "::1", 6390, 2),
        ("REDIS://Host:1", "Host", 1, 0),
        ("  redis://h:65535/0  ", "h", 65535, 0),
    ])
    func goodURLsParse(url: String, host: String, port: Int, database: Int) throws {
        let endpoint = try RedisEndpoint(url: url)
        #expect(endpoint == RedisEndpoint(host: host, port: port, database: database))
        #expect(try RedisEndpoint(url: endpoint.description) == endpoint)
    }

    @Test(arguments: [
        ("rediss://cache:6380", "TLS"),
        ("http://cache:6379", "scheme"),
        ("cache:6379", "expected redis://"),
        ("redis://", "host is missing"),
        ("redis://:6379", "host is missing"),
        ("redis://cache:0", "port"),
        ("redis://cache:65536", "port"),
        ("redis://cache:abc", "port"),
        ("redis://cache:", "port"),
        ("redis://cache:+80", "port"),
        ("redis://cache/16", "database"),
        ("redis://cache/-1", "database"),
        ("redis://cache/x", "database"),
        ("redis://user:secret@cache", "credentials"),
        ("redis://cache?db=1", "query"),
        ("redis://[::1", "]"),
    ])
    func badURLsAreRefusedWithAReason(url: String, reason: String) {
        #expect {
            try RedisEndpoint(url: url)
        } throws: { error in
            guard case .invalidEndpoint(let named, let why) = error as? RedisError else { return false }
            return named == url && why.contains(reason) && "\(error)".contains(url)
        }
    }

    @Test func descriptionIsTheURLWithPortAndDatabase() throws {
        #expect(try RedisEndpoint(url: "redis://cache").description == "redis://cache:6379/0")
        #expect(try RedisEndpoint(url: "redis://[::1]/4").description == "redis://[::1]:6379/4")
        #expect(RedisEndpoint(host: "10.0.0.1", port: 7000).address == "10.0.0.1:7000")
    }
}

@Suite struct BackoffTests {
    @Test func withoutJitterDelaysDoubleUpToTheCapAndResetStartsOver() {
        var backoff = Backoff(initial: .milliseconds(50), maximum: .seconds(2), jitter: 0, seed: 1)
        let delays = (0..<9).map { _ in backoff.next() }
        #expect(delays == [50, 100, 200, 400, 800, 1600, 2000, 2000, 2000].map { Duration.milliseconds($0) })
        #expect(backoff.attempts == 9)
        backoff.reset()
        #expect(backoff.next() == .milliseconds(50))
    }

    @Test func jitterShortensEachDelayByAtMostItsFractionAndIsFixedBySeed() {
        var first = Backoff(jitter: 0.5, seed: 42)
        var second = Backoff(jitter: 0.5, seed: 42)
        var other = Backoff(jitter: 0.5, seed: 43)
        let bases: [Double] = [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2, 2, 2, 2]
        var a: [Duration] = []
        var c: [Duration] = []
        for base in bases {
            let delay = first.next()
            a.append(delay)
            #expect(second.next() == delay)
            c.append(other.next())
            let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
            #expect(seconds <= base + 1e-9 && seconds >= base * 0.5 - 1e-9)
        }
        #expect(a != c)
    }

    @Test func aHugeAttemptCountStaysAtTheCap() {
        var backoff = Backoff(jitter: 0, seed: 0)
        for _ in 0..<10_000 { _ = backoff.next() }
        #expect(backoff.next() == .seconds(2))
    }
}

@Suite struct BoardUpdateTests {
    @Test func payloadIsTheDocumentedHeaderThenTheUpdateBytes() throws {
        let update = BoardUpdate(revision: 7, base: 6, tick: 123_456_789, digest: [0xAB, 0x01], update: [0, 10, 255, 32])
        #expect(update.payload == Array("RC1 7 6 123456789 ab01\n".utf8) + [0, 10, 255, 32])
        #expect(try BoardUpdate(payload: update.payload) == update)
        let empty = BoardUpdate(revision: 1, base: 0, tick: -5, digest: [], update: [])
        #expect(try BoardUpdate(payload: empty.payload) == empty)
    }

    @Test(arguments: ["no header", "RC2 1 0 0 ab\n", "RC1 1 0 0 abc\n", "RC1 1 x 0 ab\n", "RC1 1 0 0\n"])
    func malformedPayloadsAreRefused(text: String) {
        #expect(throws: RedisError.self) { try BoardUpdate(payload: Array(text.utf8)) }
    }
}
