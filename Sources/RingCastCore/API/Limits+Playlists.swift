extension Limits {
    /// Boards a playlist shows in turn.
    public static let playlistBoards: ClosedRange<Int> = 1...16
    /// Whole seconds each board of a playlist is shown: whole, so that every switch falls on a tick whatever the
    /// server's fps.
    public static let playlistSeconds: ClosedRange<Int> = 1...86_400
    /// Playlists a server (or a cluster) holds.
    public static let maximumPlaylists = 100
    /// A playlist's anchor, in Unix seconds: from the epoch to about the year 5138, so that anchor × fps and every
    /// switch tick stay far inside a 64-bit integer.
    public static let playlistAnchors: ClosedRange<Int64> = 0...100_000_000_000

    /// 422 `out_of_range` unless `seconds` is a whole number in `playlistSeconds`.
    public static func check(playlistSeconds seconds: Double, field: String?) throws(APIError) {
        guard seconds.isFinite, seconds.rounded() == seconds, Double(playlistSeconds.lowerBound) <= seconds,
            seconds <= Double(playlistSeconds.upperBound)
        else {
            throw .unprocessable(
                "seconds must be a whole number of seconds from \(playlistSeconds.lowerBound) to \(playlistSeconds.upperBound) "
                    + "(a day), got \(RequestField.describe(seconds))",
                field: field)
        }
    }
}
