/// A playlist as it is stored (the embedded store's `playlists` table, Redis's `rc:playlists` hash):
/// `{"anchor":1763700000,"boards":["ci","sales"],"name":"wall","seconds":30,"transition":"circle"}`, keys sorted.
///
/// Read back through the same checks as the API's body (`PlaylistDefinition`), plus the name and the anchor, so a
/// playlist the API accepts is stored and loads again, and one that would not (an older or damaged record) is
/// refused with the key and what is wrong.
extension Playlist: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, boards, seconds, transition, anchor
    }

    public init(from decoder: any Decoder) throws {
        let object = try RequestField.object(
            decoder, allowing: ["name", "anchor"] + PlaylistDefinition.keys, expected: "a stored playlist (a JSON object)")
        guard let name = try RequestField.string("name", in: object) else {
            throw APIError.malformed("missing key \"name\"", field: "name")
        }
        try Name.check(name, as: .playlist, field: "name")
        let definition = try PlaylistDefinition(fields: object)
        let anchorKey = AnyCodingKey("anchor")
        guard object.contains(anchorKey) else { throw APIError.malformed("missing key \"anchor\"", field: "anchor") }
        guard let anchor = try? object.decode(Int64.self, forKey: anchorKey), Limits.playlistAnchors.contains(anchor) else {
            throw APIError.unprocessable(
                "anchor must be a whole number of Unix seconds from \(Limits.playlistAnchors.lowerBound) to \(Limits.playlistAnchors.upperBound)",
                field: "anchor")
        }
        self.init(name: name, definition: definition, anchor: anchor)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(boards, forKey: .boards)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(PlaylistTransitionName(transition), forKey: .transition)
        try container.encode(anchor, forKey: .anchor)
    }

    /// The bytes to store: JSON with sorted keys, the same for the same playlist in every process. Names and whole
    /// numbers always encode; should that ever fail, it is a typed error, never empty bytes stored as a playlist.
    public func stored() throws(EncodingFailure) -> [UInt8] {
        try JSONBytes.encode(self)
    }

    /// The playlist `bytes` hold, checked as a request body is; the error names the key and what is wrong.
    public static func loading(_ bytes: [UInt8]) throws(APIError) -> Playlist {
        if let problem = StrictJSON.firstProblem(in: bytes) {
            throw .malformed("not JSON: \(problem.message) (line \(problem.line), column \(problem.column))", field: problem.path)
        }
        return try RequestDecoder.decode(Playlist.self, from: bytes)
    }
}
