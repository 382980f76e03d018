/// The viewers that watch one named stream, and the newest message published to it.
/// "Latest wins": a viewer is sent `latest` if its `sentSequence` is one behind `sequence`, and
/// `latestKeyframe` (the same picture, self-contained) if it is further behind — a delta only
/// makes sense to a viewer that got the message before it.
///
/// Service thread only.
final class Channel {
    let name: String
    private(set) var latest: OutgoingMessage?
    private(set) var latestKeyframe: OutgoingMessage?
    /// Counts publishes; a viewer compares it with the last one it was sent.
    private(set) var sequence: UInt64 = 0
    var viewers: [ViewerID: Viewer] = [:]

    init(name: String) {
        self.name = name
    }

    func publish(_ message: OutgoingMessage, keyframe: OutgoingMessage?) {
        latest = message
        latestKeyframe = keyframe
        sequence &+= 1
    }
}

@available(*, unavailable)
extension Channel: Sendable {}
