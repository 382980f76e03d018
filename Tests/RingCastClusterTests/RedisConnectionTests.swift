import RedisTestSupport
import RingCastCluster
import Testing

@Suite(.serialized) struct RedisConnectionTests {
    @Test func binaryValuesRoundTripUnchanged() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        let key: [UInt8] = [0x6B, 0x00, 0x0D, 0x0A, 0xFF]
        let value: [UInt8] = [0x00, 0x01, 0x0D, 0x0A, 0x00, 0xFF, 0xFE, 0x24, 0x2A]
        #expect(try connection.command([Array("SET".utf8), key, value]) == .status("OK"))
        #expect(try connection.command([Array("GET".utf8), key]) == .bulk(value))
        #expect(try connection.command([Array("SET".utf8), Array("empty".utf8), []]) == .status("OK"))
        #expect(try connection.command(["GET", "empty"]) == .bulk([]))
        #expect(try connection.command(["GET", "missing"]) == .nil)
        #expect(try connection.command(["RPUSH", "list", "a", "b"]) == .integer(2))
        #expect(try connection.command(["LRANGE", "list", "0", "-1"]) == .array([.bulk([97]), .bulk([98])]))
    }

    @Test func errorRepliesAreThrownAndTheConnectionStaysUsable() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        #expect {
            try connection.command(["NOSUCHCOMMAND", "x"])
        } throws: { error in
            guard case .server(let message) = error as? RedisError else { return false }
            return message.hasPrefix("ERR unknown command")
        }
        try connection.command(["SET", "text", "abc"])
        #expect(throws: RedisError.server("ERR value is not an integer or out of range")) {
            try connection.command(["INCR", "text"])
        }
        #expect(connection.isConnected)
        #expect(try connection.command(["PING"]) == .status("PONG"))
    }

    @Test func connectingToAClosedPortNamesHostAndPort() throws {
        let port = try RedisProcess.freePort()
        #expect {
            try RedisConnection(endpoint: RedisEndpoint(host: "127.0.0.1", port: port), connectTimeout: .seconds(1))
        } throws: { error in
            guard case .connectFailed(let endpoint, let reason) = error as? RedisError else { return false }
            return endpoint == "127.0.0.1:\(port)" && reason.contains("refused")
                && "\(error)".contains("cannot connect to Redis at 127.0.0.1:\(port)")
        }
    }

    @Test func aConnectionRecoversAfterRedisRestarts() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        try connection.command(["SET", "kept", "yes"])
        try redis.restart()
        // The old socket is dead: the first command fails with an I/O error (it is never resent)…
        #expect {
            try connection.command(["GET", "kept"])
        } throws: { error in
            guard case .io(let endpoint, _) = error as? RedisError else { return false }
            return endpoint == redis.endpoint.address
        }
        #expect(!connection.isConnected)
        // …and the next one connects again first; the AOF kept the value.
        #expect(try connection.command(["GET", "kept"]) == .bulk(Array("yes".utf8)))
        #expect(connection.isConnected)
    }

    @Test func theDatabaseInTheURLIsSelectedAgainOnEveryConnect() throws {
        let redis = try RedisProcess()
        let three = try RedisConnection(endpoint: RedisEndpoint(url: "redis://127.0.0.1:\(redis.port)/3"))
        let zero = try RedisConnection(endpoint: redis.endpoint)
        try three.command(["SET", "where", "three"])
        #expect(try zero.command(["GET", "where"]) == .nil)
        try three.reconnect()
        #expect(try three.command(["GET", "where"]) == .bulk(Array("three".utf8)))
    }

    @Test func aCommandThatOutlivesTheTimeoutFailsAsIO() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint, commandTimeout: .milliseconds(200))
        #expect {
            try connection.command(["BLPOP", "nothing", "1"])
        } throws: { error in
            guard case .io(_, let reason) = error as? RedisError else { return false }
            return reason.contains("timeout")
        }
    }

    @Test func waitWithoutReplicasAnswersZero() throws {
        let redis = try RedisProcess()
        let connection = try RedisConnection(endpoint: redis.endpoint)
        try connection.command(["SET", "a", "b"])
        #expect(try connection.wait(replicas: 1, timeoutMilliseconds: 50) == 0)
    }
}
