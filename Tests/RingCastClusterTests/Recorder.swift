import RedisTestSupport
import RingCastCluster
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Collects what a subscriber reports, from its thread, for a test to wait on.
final class Recorder: Sendable {
    private let messages = Mutex<[RedisSubscriber.Message]>([])
    private let states = Mutex<[RedisSubscriber.State]>([])

    var received: [RedisSubscriber.Message] { messages.withLock { $0 } }
    var reported: [RedisSubscriber.State] { states.withLock { $0 } }

    func onMessage(_ message: RedisSubscriber.Message) { messages.withLock { $0.append(message) } }
    func onState(_ state: RedisSubscriber.State) { states.withLock { $0.append(state) } }

    /// How many times `.connected` was reported.
    var connections: Int { reported.filter { $0 == .connected }.count }

    func subscriber(
        _ redis: RedisProcess, channels: [String], patterns: [String] = [], options: RedisSubscriber.Options = .init()
    ) throws -> RedisSubscriber {
        try RedisSubscriber(
            endpoint: redis.endpoint, channels: channels, patterns: patterns, options: options,
            onMessage: { self.onMessage($0) }, onState: { self.onState($0) })
    }
}

/// Polls `condition` every 10 ms until it holds (true) or `timeout` passes (false).
func eventually(within timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
