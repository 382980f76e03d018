import Dispatch
import RedisTestSupport
import RingCastCluster
import Synchronization
import Testing

@Suite(.serialized) struct RedisWorkerTests {
    @Test func jobsRunInTheOrderSubmitted_andStopRunsTheOnesAlreadySubmitted() throws {
        let redis = try RedisProcess()
        let worker = try RedisWorker(endpoint: redis.endpoint, script: WriteScript())
        let seen = Mutex<[Int64]>([])
        for _ in 1...200 {
            worker.submit { session in
                let value = (try? session.connection.command(["INCR", "counter"]).integer) ?? -1
                seen.withLock { $0.append(value) }
            }
        }
        worker.stop()
        #expect(seen.withLock { $0 } == Array(1...200))
        let late = Mutex(false)
        worker.submit { _ in late.withLock { $0 = true } }
        #expect(!late.withLock { $0 }, "a job submitted after stop() is dropped")
    }

    @Test func theClusterIDIsMadeOnce_andBoardNamesComeFromTheStateKeys() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        let first = try connection.clusterID(candidate: "one")
        #expect(first == "one")
        #expect(try connection.clusterID(candidate: "two") == "one", "the first node's id stays")
        for board in ["main", "ci-7", "b"] {
            try connection.command(["HSET", BoardKeys(board: board).state, "revision", "1"])
        }
        try connection.command(["SET", "rc:{other}:stream-not-state", "x"])
        #expect(try connection.boardNames() == ["b", "ci-7", "main"])
        #expect(try connection.ping() > .zero)
    }

    @Test func boardNamesAreReadBackFromKeysAndChannels() {
        #expect(BoardKeys.board(ofStateKey: BoardKeys(board: "main").state) == "main")
        #expect(BoardKeys.board(ofUpdatesChannel: BoardKeys(board: "ci_7").updates) == "ci_7")
        for other in ["rc:{main}:stream", "rc:{}:state", "rc:main:state", "rc:probe:ab12", "x"] {
            #expect(BoardKeys.board(ofStateKey: other) == nil, "\(other)")
        }
        #expect(BoardKeys.board(ofUpdatesChannel: "rc:{main}:state") == nil)
    }
}
