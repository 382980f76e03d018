import RedisTestSupport
import RingCastCluster
import Testing

@Suite(.serialized) struct RedisSubscriberTests {
    @Test func publishedMessagesArriveWithTheirChannelAndBytes() throws {
        let redis = try RedisProcess()
        let recorder = Recorder()
        let subscriber = try recorder.subscriber(redis, channels: ["one", "two"])
        defer { subscriber.stop() }
        #expect(eventually { subscriber.state == .connected })
        let publisher = try RedisConnection(endpoint: redis.endpoint)
        let payload: [UInt8] = [0, 1, 2, 0x0A, 0xFF]
        #expect(try publisher.command([Array("PUBLISH".utf8), Array("two".utf8), payload]) == .integer(1))
        try publisher.command(["PUBLISH", "one", "hello"])
        try publisher.command(["PUBLISH", "elsewhere", "not for us"])
        #expect(eventually { recorder.received.count == 2 })
        #expect(
            recorder.received == [
                .init(channel: "two", payload: payload), .init(channel: "one", payload: Array("hello".utf8)),
            ])
    }

    @Test func aPatternDeliversEveryBoardsUpdatesWithTheirOwnChannel() throws {
        let redis = try RedisProcess()
        let recorder = Recorder()
        let subscriber = try recorder.subscriber(redis, channels: [], patterns: ["rc:{*}:updates"])
        defer { subscriber.stop() }
        #expect(eventually { subscriber.state == .connected })
        let publisher = try RedisConnection(endpoint: redis.endpoint)
        try publisher.command(["PUBLISH", "rc:{made later}:updates", "1"])
        try publisher.command(["PUBLISH", "rc:{made later}:other", "not matched"])
        try publisher.command(["PUBLISH", "rc:{main}:updates", "2"])
        #expect(eventually { recorder.received.count == 2 })
        #expect(
            recorder.received == [
                .init(channel: "rc:{made later}:updates", payload: [49]), .init(channel: "rc:{main}:updates", payload: [50]),
            ])
    }

    @Test func afterRedisIsKilledAndRestartedItResubscribes() throws {
        let redis = try RedisProcess()
        let recorder = Recorder()
        let subscriber = try recorder.subscriber(redis, channels: ["updates"], patterns: ["p:*"])
        defer { subscriber.stop() }
        #expect(eventually { recorder.connections == 1 })
        try redis.restart()
        #expect(eventually(within: .seconds(10)) { recorder.connections == 2 })
        #expect(recorder.reported.contains { if case .disconnected = $0 { true } else { false } })
        let publisher = try RedisConnection(endpoint: redis.endpoint)
        try publisher.command(["PUBLISH", "updates", "after the restart"])
        try publisher.command(["PUBLISH", "p:x", "pattern too"])
        #expect(
            eventually {
                recorder.received == [
                    .init(channel: "updates", payload: Array("after the restart".utf8)),
                    .init(channel: "p:x", payload: Array("pattern too".utf8)),
                ]
            })
    }

    @Test func aKilledSubscriptionIsMadeAgain() throws {
        let redis = try RedisProcess()
        let recorder = Recorder()
        let subscriber = try recorder.subscriber(redis, channels: ["updates"])
        defer { subscriber.stop() }
        #expect(eventually { recorder.connections == 1 })
        let admin = try RedisConnection(endpoint: redis.endpoint)
        #expect(try admin.command(["CLIENT", "KILL", "TYPE", "pubsub"]) == .integer(1))
        #expect(eventually { recorder.connections == 2 })
        try admin.command(["PUBLISH", "updates", "x"])
        #expect(eventually { recorder.received.count == 1 })
    }

    /// CLIENT PAUSE keeps every socket open while Redis delivers nothing: only the probe notices.
    @Test func theProbeNoticesASubscriptionThatStopsDeliveringAndReconnects() throws {
        let redis = try RedisProcess()
        let recorder = Recorder()
        let options = RedisSubscriber.Options(
            commandTimeout: .milliseconds(300), probeInterval: .milliseconds(100), probeTimeout: .milliseconds(400),
            backoff: Backoff(initial: .milliseconds(20), maximum: .milliseconds(100), seed: 7))
        let subscriber = try recorder.subscriber(redis, channels: ["updates"], options: options)
        defer { subscriber.stop() }
        #expect(eventually { recorder.connections == 1 })
        let admin = try RedisConnection(endpoint: redis.endpoint, commandTimeout: .seconds(5))
        try admin.command(["CLIENT", "PAUSE", "1500", "ALL"])
        #expect(eventually { recorder.reported.count >= 2 })
        guard case .disconnected(let reason) = recorder.reported[1] else {
            Issue.record("expected a disconnection, got \(recorder.reported)")
            return
        }
        #expect(reason.contains("probe"))
        #expect(eventually(within: .seconds(8)) { recorder.connections == 2 })
        try admin.command(["PUBLISH", "updates", "delivered again"])
        #expect(eventually { recorder.received.count == 1 })
    }

    @Test func stopEndsTheThreadPromptlyEvenWhileReconnecting() throws {
        let port = try RedisProcess.freePort()
        let recorder = Recorder()
        let subscriber = try RedisSubscriber(
            endpoint: RedisEndpoint(host: "127.0.0.1", port: port), channels: ["x"],
            options: .init(backoff: Backoff(initial: .seconds(2), maximum: .seconds(2), jitter: 0, seed: 0)),
            onMessage: { recorder.onMessage($0) }, onState: { recorder.onState($0) })
        #expect(eventually { !recorder.reported.isEmpty })
        guard case .disconnected(let reason) = subscriber.state else {
            Issue.record("expected disconnected, got \(subscriber.state)")
            return
        }
        #expect(reason.contains("refused"))
        let clock = ContinuousClock()
        let start = clock.now
        subscriber.stop()
        #expect(clock.now - start < .milliseconds(500))
    }
}
