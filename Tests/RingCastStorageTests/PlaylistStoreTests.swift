import RingCastStorage
import Testing

@testable import RingCastStorage

@Suite("Playlists in the store")
struct PlaylistStoreTests {
    private func playlist(_ name: String, _ text: String) -> StoredPlaylist {
        StoredPlaylist(name: name, definition: Array(text.utf8))
    }

    @Test func writtenPlaylists_areLoadedByANewStoreInstance_besideTheBoards() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            #expect(try completed { store.write(playlist: playlist("wall", #"{"boards":["ci"]}"#), completion: $0) } == nil)
            #expect(try completed { store.write(playlist: playlist("lobby", #"{"boards":["sales"]}"#), completion: $0) } == nil)
            let board = StoredRecord(board: "ci", revision: 3, state: [1, 2, 3])
            #expect(try completed { store.write([board], completion: $0) } == nil)
            store.close()

            let reopened = try SQLiteStore(directory: directory)
            defer { reopened.close() }
            #expect(
                try reopened.loadPlaylists() == [
                    playlist("lobby", #"{"boards":["sales"]}"#), playlist("wall", #"{"boards":["ci"]}"#),
                ])
            // A playlist and a board of the same name are two rows.
            #expect(try reopened.loadAll() == [board])
        }
    }

    @Test func aLaterWrite_replacesTheEarlier_inOneCommit_andDeleteRemovesIt() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            let log = CompletionLog()
            store.pauseWriter()
            store.write(playlist: playlist("wall", "1"), completion: log.completion(0))
            store.write([StoredRecord(board: "wall", revision: 1, state: [9])], completion: log.completion(1))
            store.write(playlist: playlist("wall", "2"), completion: log.completion(2))
            store.write(playlist: playlist("gone", "3"), completion: log.completion(3))
            store.delete(playlist: "gone", completion: log.completion(4))
            store.resumeWriter()
            #expect(log.waitFor(5))
            #expect(log.entries.allSatisfy { $0.error == nil })
            #expect(store.statistics.commits == 1)
            #expect(try store.loadPlaylists() == [playlist("wall", "2")])
            #expect(try store.loadAll() == [StoredRecord(board: "wall", revision: 1, state: [9])])

            #expect(try completed { store.delete(playlist: "wall", completion: $0) } == nil)
            #expect(try store.loadPlaylists() == [])
        }
    }
}
