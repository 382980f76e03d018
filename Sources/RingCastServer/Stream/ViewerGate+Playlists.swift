import RingCastCore
import RingCastTransport

extension ViewerGate {
    /// `/ws?playlist=NAME` (with `format` and `motion` as for a board): the playlist's stream, greeted with the layout
    /// and a keyframe of the board it shows now; 404 for an unknown playlist (or one none of whose boards is served),
    /// 400 beside `board`.
    func admitPlaylist(_ request: HTTPRequest, id: ViewerID, loop: any ServiceLoop, broadcaster: Broadcaster)
        throws(ViewerRefusal)
        -> ViewerAdmission
    {
        // A playlist's viewer sees each of its boards in turn, so its token must read every one.
        let name = request.query["playlist"] ?? ""
        let boards = broadcaster.playlists?.playlists[name]?.playlist.boards ?? []
        try checkAccess(request, loop: loop, to: .boards(boards, playlist: name))
        let key: PlaylistKey
        do throws(APIError) {
            key = try playlistKey(of: request)
        } catch {
            throw ViewerRefusal(error)
        }
        guard let playlists = broadcaster.playlists else {
            throw ViewerRefusal(.notFound("no playlist named \"\(key.playlist)\"", field: "playlist"))
        }
        let greeting = try playlists.greeting(for: key)
        logger.debug("viewer \(id) joins \(key) (\(playlists.viewers(of: key.playlist)) already watching)")
        return .accept(channel: key, greeting: greeting.messages, sequence: UInt64(clamping: greeting.tick))
    }

    /// The playlist stream the upgrade's query asks for; 400 for an unknown format or motion, or a board beside it.
    func playlistKey(of request: HTTPRequest) throws(APIError) -> PlaylistKey {
        let name = request.query["playlist"] ?? ""
        guard request.query["board"] == nil else {
            throw .malformed("give board or playlist, not both", field: "playlist")
        }
        // The same format and motion rules as a board's stream.
        let board = try streamKey(of: request)
        return PlaylistKey(playlist: name, format: board.format, motion: board.motion)
    }
}
