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
}
