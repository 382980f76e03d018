import RingCastTransport

/// What the server asks of the loop it runs on, and nothing more: its viewers by channel, the messages they are
/// sent, timers and closes on the service thread, and the queue other threads hand work back through. The
/// transport's `EventLoop` in production; in-process tests give `Application` a loop of their own that records what
/// each viewer was sent and runs timers when the test moves its `ManualTime`, without sockets or sleeps.
///
/// One call per publish, per count and per close: whatever a loop does per viewer it does behind the call.
/// Service thread only.
protocol ServiceLoop: AnyObject {
    /// Viewers connected now, on every channel.
    var viewerCount: Int { get }

    /// Viewers of `channel` now.
    func viewerCount(of channel: some ChannelKey) -> Int

    /// Viewers on each of the transport's loops now (`--loops`), the first loop's first.
    var viewerCounts: [Int] { get }

    /// Publishes the channel's next message, latest wins (`EventLoop.publish`): a viewer that holds one of the
    /// messages in `base` gets `message`, another `keyframe`, after `preamble` if it was not sent that.
    func publish(
        _ message: OutgoingMessage, keyframe: OutgoingMessage?, to channel: some ChannelKey, sequence: UInt64?,
        base: ClosedRange<UInt64>?, preamble: OutgoingMessage?)

    /// Sends `message` once to every viewer of `channel` now, before the channel's next message: an event.
    func notify(_ message: OutgoingMessage, viewersOf channel: some ChannelKey)

    /// Runs `body` once, `seconds` from now, on the service thread.
    func schedule(after seconds: Double, _ body: @escaping () -> Void)

    /// Closes `viewer` with `code` and `reason`; unknown or already closing viewers are ignored.
    func close(_ viewer: ViewerID, code: Int, reason: String)

    /// Closes every viewer of `channel` as `close(_:code:reason:)` does.
    func closeViewers(of channel: some ChannelKey, code: Int, reason: String)

    /// How other threads (the store's writer, the webhook sender) get back onto the service thread.
    var queue: any ServiceQueue { get }

    /// What was sent to viewers since start, for `/status`.
    var statistics: TransportStatistics { get }
}

extension ServiceLoop {
    /// One loop.
    var viewerCounts: [Int] { [viewerCount] }
}

extension LoopGroup: ServiceLoop {
    var queue: any ServiceQueue { handle }
}
