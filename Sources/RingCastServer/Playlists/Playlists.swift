import Logging
import RingCastCore

/// Who must hear of playlists written and deleted: the broadcaster's playlist streams, which switch their viewers.
protocol PlaylistObserver: AnyObject {
    /// `playlist` was created, or replaced (it takes effect at its anchor).
    func playlistChanged(_ playlist: LivePlaylist)
    /// `playlist` is gone: its viewers are closed with 4404.
    func playlistRemoved(_ playlist: LivePlaylist)
}

/// Every playlist the server serves, by name: the stored ones, then those written through the API (on this node or,
/// in a cluster, any). Touched only on the service thread (after `init`, which runs before the loop starts).
final class Playlists {
    private var byName: [String: LivePlaylist] = [:]
    let fps: Int
    /// Told of every playlist set or removed (the broadcaster's playlist streams).
    weak var observer: (any PlaylistObserver)?

    /// None yet.
    init(fps: Int) {
        self.fps = fps
    }

    /// Serves `stored`; one that cannot be encoded is logged and not served (`Playlist.stored()`).
    init(stored: [Playlist], fps: Int, logger: Logger) {
        self.fps = fps
        for playlist in stored {
            do {
                byName[playlist.name] = try LivePlaylist(playlist, fps: fps)
            } catch {
                logger.error("playlist \(playlist.name) cannot be encoded (\(error)); not serving it")
            }
        }
    }

    /// Every playlist, by name.
    var all: [LivePlaylist] { byName.keys.sorted().map { byName[$0]! } }

    var count: Int { byName.count }

    subscript(name: String) -> LivePlaylist? { byName[name] }

    /// The playlist named `name`, or 404 `not_found` naming it.
    func playlist(named name: String) throws(APIError) -> LivePlaylist {
        guard let playlist = byName[name] else { throw .notFound("no playlist named \"\(name)\"", field: "playlist") }
        return playlist
    }

    /// Serves `playlist` from now on: a new one at once, a changed one from its anchor. The same definition again
    /// (a notification of this node's own write) changes nothing, and so does a playlist that cannot be encoded,
    /// which throws.
    func set(_ playlist: Playlist) throws(EncodingFailure) {
        if let live = byName[playlist.name] {
            guard live.playlist != playlist else { return }
            try live.replace(with: playlist)
            observer?.playlistChanged(live)
        } else {
            let live = try LivePlaylist(playlist, fps: fps)
            byName[playlist.name] = live
            observer?.playlistChanged(live)
        }
    }

    /// Stops serving the playlist named `name`, if it is served.
    func remove(_ name: String) {
        guard let live = byName.removeValue(forKey: name) else { return }
        observer?.playlistRemoved(live)
    }

    /// The stored playlists `records` hold, each checked as the API checks a body; one that fails is logged and
    /// skipped, never served (nor a reason not to start).
    static func loading(_ records: [(name: String, definition: [UInt8])], source: String, logger: Logger) -> [Playlist] {
        records.compactMap { record in
            do {
                let playlist = try Playlist.loading(record.definition)
                guard playlist.name == record.name else {
                    throw APIError.invalidValue("it names itself \"\(playlist.name)\"", field: "name")
                }
                return playlist
            } catch {
                logger.error("\(source): playlist \(record.name) cannot be loaded (\(error)); not serving it")
                return nil
            }
        }
    }
}

@available(*, unavailable)
extension Playlists: Sendable {}
