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
    /// `channel.sequence` of the last published message sent (or of admission time).
    private var sentSequence: UInt64
    /// lws ESTABLISHED arrived; writes may be requested.
    var isEstablished = false
    /// A writeable callback is already requested.
    var writeRequested = false
    /// When the pending writeable callback was requested: lws gives it once the socket can take
    /// more, so a viewer that has waited longer than the stall timeout is not reading.
    var waitingSince = 0.0
    /// Closed by the stall sweep.
    var evictedForStall = false
    /// Set by `EventLoop.close` and on shutdown; acted on in the next writeable callback.
    var pendingClose: (code: Int, reason: String)?

    init(id: ViewerID, wsi: OpaquePointer, channel: Channel, greeting: [OutgoingMessage]) {
        self.id = id
        self.wsi = wsi
        self.channel = channel
        self.greeting = greeting
        self.sentSequence = channel.sequence
    }

    var hasPendingMessage: Bool {
        greetingSent < greeting.count || (channel.latest != nil && sentSequence != channel.sequence)
    }

    /// The greeting messages first, in order, then the channel's newest message if this viewer
    /// has not been sent it; `skipped` counts the older ones it missed.
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
        if let latest = channel.latest, sentSequence != channel.sequence {
            let skipped = channel.sequence &- sentSequence &- 1
            sentSequence = channel.sequence
            return (skipped == 0 ? latest : channel.latestKeyframe ?? latest, skipped)
        }
        return nil
    }
}

@available(*, unavailable)
extension Viewer: Sendable {}
