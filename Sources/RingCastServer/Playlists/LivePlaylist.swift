import RingCastCore
import RingCastTLS

/// One playlist as the server holds it while running: its definition, the one it replaced (which still holds the
/// ticks before the new anchor), the bytes it is stored as and its ETag. The request side changes it; the stream
/// side reads it. Touched only on the service thread.
final class LivePlaylist {
    private(set) var timeline: PlaylistTimeline
    /// `timeline.current.stored`: what the store and Redis hold.
    private(set) var stored: [UInt8]
    private(set) var etag: String

    /// Throws, serving nothing, when the playlist cannot be encoded (`Playlist.stored()`).
    init(_ playlist: Playlist, fps: Int) throws(EncodingFailure) {
        let stored = try playlist.stored()
        timeline = PlaylistTimeline(current: playlist, fps: fps)
        self.stored = stored
        etag = Self.etag(of: stored)
    }

    var name: String { timeline.current.name }
    var playlist: Playlist { timeline.current }

    /// Serves `playlist` from its anchor on, the current definition holding the ticks before. Throws, changing
    /// nothing, when the playlist cannot be encoded.
    func replace(with playlist: Playlist) throws(EncodingFailure) {
        let stored = try playlist.stored()
        timeline = PlaylistTimeline(current: playlist, previous: timeline.current, fps: timeline.fps)
        self.stored = stored
        etag = Self.etag(of: stored)
    }

    /// The ETag of a playlist stored as `stored`: a digest of the bytes, so that every node of a cluster (and every
    /// run) gives the same definition the same tag.
    static func etag(of stored: [UInt8]) -> String {
        let hex = SHA256Digest(of: stored).bytes.prefix(8).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "\"p-\(hex.joined())\""
    }
}

@available(*, unavailable)
extension LivePlaylist: Sendable {}
