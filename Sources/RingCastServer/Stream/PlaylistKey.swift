import RingCastTransport

/// The stream of a playlist's viewers (`/ws?playlist=NAME`), in one encoding, at one motion: whichever board the
/// playlist shows, its viewers share this channel and receive the same bytes.
struct PlaylistKey: ChannelKey {
    var playlist: String
    var format: WireFormat
    var motion: StreamKey.Motion

    /// `playlist:wall/json/full`, for logs.
    var description: String { "playlist:\(playlist)/\(format.rawValue)/\(motion.rawValue)" }

    /// Every key of the playlist named `playlist`.
    static func all(of playlist: String) -> [PlaylistKey] {
        WireFormat.allCases.flatMap { format in
            StreamKey.Motion.allCases.map { PlaylistKey(playlist: playlist, format: format, motion: $0) }
        }
    }
}
