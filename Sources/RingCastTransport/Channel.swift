/// The viewers that watch one named stream, and the newest message published to it.
/// "Latest wins": a viewer is sent `latest` if its `sentSequence` is older than `sequence`.
///
/// Service thread only.
final class Channel {
    let name: String
    private(set) var latest: OutgoingMessage?
    /// Counts publishes; a viewer compares it with the last one it was sent.
    private(set) var sequence: UInt64 = 0
    var viewers: [ViewerID: Viewer] = [:]

    init(name: String) {
        self.name = name
    }

    func publish(_ message: OutgoingMessage) {
        latest = message
        sequence &+= 1
    }
}

@available(*, unavailable)
extension Channel: Sendable {}
