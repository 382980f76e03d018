/// The viewers that watch one named stream, and the newest message published to it.
/// "Latest wins": a viewer that has not been sent `sequence` is sent `latest` if the last message
/// it got is `latestBase` (the one the delta was computed against), and `latestKeyframe` (the same
/// picture, self-contained) otherwise — a delta only makes sense to a viewer that holds its base.
///
/// Service thread only.
final class Channel {
    let key: any ChannelKey
    private(set) var latest: OutgoingMessage?
    private(set) var latestKeyframe: OutgoingMessage?
    /// The newest message's number (rising: a frame's tick); a viewer compares it with the last
    /// one it was sent.
    private(set) var sequence: UInt64 = 0
    /// The numbers of the messages `latest` is a delta against (several when they showed the
    /// same thing, as a resting board's frames do).
    private(set) var latestBase: ClosedRange<UInt64> = 0...0
    /// Counts publishes, for the count of messages a slow viewer skipped.
    private(set) var publishes: UInt64 = 0
    /// The message every viewer must have been sent before the newest one (a board's layout),
    /// and its number, raised whenever a publish brings a new one.
    private(set) var preamble: OutgoingMessage?
    private(set) var preambleNumber: UInt64 = 0
    var viewers: [ViewerID: Viewer] = [:]

    init(key: any ChannelKey) {
        self.key = key
    }

    /// Publishes message number `sequence` (default: one more than the last), a delta against
    /// any of the numbers in `base` (default: the one before it).
    /// With `preamble`, that message precedes this one and every later one for a viewer that has
    /// not been sent it.
    func publish(
        _ message: OutgoingMessage, keyframe: OutgoingMessage?, sequence: UInt64?, base: ClosedRange<UInt64>?,
        preamble: OutgoingMessage? = nil
    ) {
        if let preamble {
            self.preamble = preamble
            preambleNumber &+= 1
        }
        let number = max(sequence ?? self.sequence &+ 1, self.sequence &+ 1)
        latest = message
        latestKeyframe = keyframe
        latestBase = base ?? (number &- 1)...(number &- 1)
        self.sequence = number
        publishes &+= 1
    }
}

@available(*, unavailable)
extension Channel: Sendable {}
