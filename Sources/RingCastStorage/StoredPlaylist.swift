/// What a store holds for one playlist: its definition, as opaque bytes (JSON in practice, `Playlist.stored`).
public struct StoredPlaylist: Sendable, Equatable {
    public var name: String
    public var definition: [UInt8]

    public init(name: String, definition: [UInt8]) {
        self.name = name
        self.definition = definition
    }
}
