import RedisTestSupport
import RingCastCluster
import Testing

/// The playlist write script on a real Redis: one atomic step checks If-Match and the limit, stores or deletes,
/// and announces the name.
@Suite(.serialized) struct PlaylistScriptTests {
    private let wall = Array(#"{"name":"wall"}"#.utf8)

    @Test func aWriteIsStored_readBackWhole_andAnnounced() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        let recorder = Recorder()
        let subscriber = try recorder.subscriber(redis, channels: [PlaylistKeys.channel])
        defer { subscriber.stop() }
        #expect(eventually { recorder.connections == 1 })
        #expect(try connection.readPlaylists() == [:])

        #expect(try connection.writePlaylist("wall", definition: wall, expected: .none, maximum: 10) == .written)
        #expect(try connection.readPlaylists() == ["wall": wall])
        #expect(eventually { recorder.received.count == 1 })
        #expect(recorder.received.map(\.payload) == [Array("wall".utf8)])

        #expect(try connection.writePlaylist("wall", definition: nil, expected: .none, maximum: 10) == .written)
        #expect(try connection.readPlaylists() == [:])
        #expect(try connection.writePlaylist("wall", definition: nil, expected: .none, maximum: 10) == .notFound)
    }

    @Test func ifMatchAndTheLimit_refuseAndChangeNothing() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        #expect(try connection.writePlaylist("wall", definition: wall, expected: .exists, maximum: 10) == .preconditionFailed)
        #expect(try connection.writePlaylist("wall", definition: wall, expected: .none, maximum: 1) == .written)
        #expect(try connection.writePlaylist("lobby", definition: wall, expected: .none, maximum: 1) == .limitExceeded)
        // Replacing one that is there is within the limit.
        let other = Array(#"{"name":"other"}"#.utf8)
        #expect(
            try connection.writePlaylist("wall", definition: other, expected: .definition(Array("stale".utf8)), maximum: 1)
                == .preconditionFailed)
        #expect(try connection.writePlaylist("wall", definition: other, expected: .definition(wall), maximum: 1) == .written)
        #expect(try connection.readPlaylists() == ["wall": other])
    }

    @Test func ifNoneMatch_createsOnlyAPlaylistRedisDoesNotHold() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        #expect(try connection.writePlaylist("wall", definition: wall, expected: .absent, maximum: 10) == .written)
        let other = Array(#"{"name":"other"}"#.utf8)
        #expect(try connection.writePlaylist("wall", definition: other, expected: .absent, maximum: 10) == .preconditionFailed)
        #expect(try connection.readPlaylists() == ["wall": wall], "a refusal changes nothing")
        #expect(try connection.writePlaylist("wall", definition: nil, expected: .none, maximum: 10) == .written)
        #expect(try connection.writePlaylist("wall", definition: other, expected: .absent, maximum: 10) == .written)
        #expect(try connection.readPlaylists() == ["wall": other])
    }

    @Test func theRateLimitComesFirst_thenTheIdempotencyKey_asForABoard() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        let key = BoardWrite.Idempotency(key: "k1", requestDigest: Array("request".utf8))
        let keyed = PlaylistWriteAdmission(
            client: "10.0.0.1", rateLimitPerMinute: 2, idempotency: key, answer: Array("201 first".utf8))
        #expect(
            try connection.writePlaylist("wall", definition: wall, expected: .none, maximum: 10, admission: keyed) == .written)
        // The same request again: its first answer, nothing written (not even where If-None-Match would refuse).
        #expect(
            try connection.writePlaylist("wall", definition: wall, expected: .absent, maximum: 10, admission: keyed)
                == .replay(answer: Array("201 first".utf8)))
        #expect(try connection.readPlaylists() == ["wall": wall])
        // The bucket (2 a minute) is empty now: limited before the key is looked at.
        let limited = try connection.writePlaylist("wall", definition: wall, expected: .none, maximum: 10, admission: keyed)
        guard case .rateLimited(let wait) = limited, (1...30).contains(wait) else {
            Issue.record("a third write within the minute is limited, a token back within 30 s: \(limited)")
            return
        }
        // Another client has its own bucket; the key with another request is refused.
        var other = keyed
        other.client = "10.0.0.2"
        other.idempotency = BoardWrite.Idempotency(key: "k1", requestDigest: Array("another".utf8))
        #expect(
            try connection.writePlaylist("wall", definition: nil, expected: .none, maximum: 10, admission: other) == .keyReused)
        #expect(try connection.readPlaylists() == ["wall": wall])
        let ttl = try connection.command(["TTL", PlaylistKeys.idempotency("k1")]).integer ?? -1
        #expect((290...300).contains(ttl), "kept 5 minutes, as a board's")
        #expect(
            try connection.command(["ZSCORE", BoardKeys.idempotencyBudget, PlaylistKeys.idempotency("k1")]) != .nil,
            "counted in the byte budget every answer shares")
    }
}
