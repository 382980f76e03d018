/// One accepted WebSocket viewer: its connection, its channel, what it has been sent and what
/// it still owes the network.
///
/// Service thread only.
final class Viewer {
    let id: ViewerID
    /// The lws connection (`struct lws *`); valid until the viewer is removed in CLOSED.
    let wsi: OpaquePointer
    let channel: Channel
    private var greeting: [OutgoingMessage]
    private var greetingSent = 0
    /// Messages this viewer must get once each, in order, after its greeting and before the channel's
    /// next message (a board's events); at most `maximumNotices`, the oldest dropped beyond.
    private var notices: [OutgoingMessage] = []
    /// Notices a viewer may hold; one that stopped reading is closed by the stall sweep long before.
    static let maximumNotices = 64
    /// `channel.sequence` of the last published message sent (or what the greeting showed).
    private var sentSequence: UInt64
    /// `channel.publishes` when that message was sent, to count the ones skipped.
    private var sentPublishes: UInt64
    /// `channel.preambleNumber` of the preamble this viewer holds (its greeting counts as the
    /// channel's preamble at admission).
    private var sentPreamble: UInt64
    /// lws ESTABLISHED arrived; writes may be requested.
    var isEstablished = false
    /// A writeable callback is already requested.
    var writeRequested = false
    /// When the pending writeable callback was requested: lws gives it once the socket can take
    /// more, so a viewer that has waited longer than the stall timeout is not reading. Kept across
    /// a held viewer's looks, so it also says how long pacing has held it (`SendPacing.settle`).
    var waitingSince = 0.0
    /// When the peer's window has room for the next message (`SendPacing`).
    var pacing = SendPacing()
    /// Held back because the peer's window had no room: looked at again by a timer, not by a
    /// writeable callback (the socket itself is writeable).
    var isHeld = false
    /// Closed by the stall sweep.
    var evictedForStall = false
    /// Set by `EventLoop.close` and on shutdown; acted on in the next writeable callback.
    var pendingClose: (code: Int, reason: String)?
    /// A viewer refused in-band (`ViewerAdmission.refuseAfterUpgrade`): closed once its greeting
    /// is sent.
    var closeAfterGreeting: (code: Int, reason: String)?

    /// `sequence`: the number of the message the greeting brings the viewer up to (default: the
    /// channel's newest).
    init(id: ViewerID, wsi: OpaquePointer, channel: Channel, greeting: [OutgoingMessage], sequence: UInt64?) {
        self.id = id
        self.wsi = wsi
        self.channel = channel
        self.greeting = greeting
        self.sentSequence = sequence ?? channel.sequence
        self.sentPublishes = channel.publishes
        self.sentPreamble = channel.preambleNumber
    }

    var hasPendingMessage: Bool {
        greetingSent < greeting.count || !notices.isEmpty || (channel.latest != nil && channel.sequence > sentSequence)
    }

    /// Queues `message` to be sent once, after the greeting and before the channel's next message; false when
    /// the oldest queued notice had to be dropped to make room.
    func addNotice(_ message: OutgoingMessage) -> Bool {
        notices.append(message)
        guard notices.count > Self.maximumNotices else { return true }
        notices.removeFirst()
        return false
    }

    /// The size of the message `nextMessage()` would return, without taking it.
    var nextMessageSize: Int? {
        if greetingSent < greeting.count { return greeting[greetingSent].count }
        if let notice = notices.first { return notice.count }
        guard let latest = channel.latest, channel.sequence > sentSequence else { return nil }
        if channel.preambleNumber != sentPreamble, let preamble = channel.preamble { return preamble.count }
        return channel.latestBase.contains(sentSequence) ? latest.count : (channel.latestKeyframe ?? latest).count
    }

    /// The greeting messages first, in order, then the notices, then the channel's newest message if
    /// this viewer has not been sent it; `skipped` counts the older ones it missed. Notices go before
    /// the newest message so that a viewer slower than the frame rate still gets them.
    func nextMessage() -> (message: OutgoingMessage, skipped: UInt64)? {
        if greetingSent < greeting.count {
            let message = greeting[greetingSent]
            greetingSent += 1
            if greetingSent == greeting.count {
                greeting = []
                greetingSent = 0
            }
            return (message, 0)
        }
        if !notices.isEmpty {
            return (notices.removeFirst(), 0)
        }
        if let latest = channel.latest, channel.sequence > sentSequence {
            let holdsBase = channel.latestBase.contains(sentSequence)
            // Publishes since the last one sent, but for the one sent now.
            let skipped = channel.publishes > sentPublishes ? channel.publishes - sentPublishes - 1 : 0
            sentSequence = channel.sequence
            sentPublishes = channel.publishes
            if channel.preambleNumber != sentPreamble, let preamble = channel.preamble {
                // A new preamble (layout): it goes first, then the newest picture as a keyframe.
                sentPreamble = channel.preambleNumber
                greeting = [channel.latestKeyframe ?? latest]
                greetingSent = 0
                return (preamble, skipped)
            }
            return (holdsBase ? latest : channel.latestKeyframe ?? latest, skipped)
        }
        return nil
    }
}

@available(*, unavailable)
extension Viewer: Sendable {}

/// The channel key of a viewer refused in-band: a channel of its own, never published to.
struct RefusedViewer: ChannelKey {
    let id: ViewerID

    var description: String { "refused \(id)" }
}
