import RingCastTransport

/// One stream of frames a viewer can watch: a board, in one encoding, at one motion. Viewers of
/// the same key receive the same bytes.
struct StreamKey: ChannelKey {
    /// `/ws?motion=`: everything, or (`reduced`) only the frames that show the board at rest.
    enum Motion: String, CaseIterable, Sendable {
        case full
        case reduced
    }

    var board: String
    var format: WireFormat
    var motion: Motion

    /// `main/json/full`, for logs.
    var description: String { "\(board)/\(format.rawValue)/\(motion.rawValue)" }
}
