import Foundation
import Testing

@testable import RingCastStorage

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The data directory and its lock")
struct DirectoryLockTests {
    @Test func secondStoreOnAnOpenDirectory_isRefusedWithTheHoldersPid_andOpensOnceTheFirstCloses() throws {
        try withTemporaryDirectory { directory in
            let first = try SQLiteStore(directory: directory)
            let error = #expect(throws: StorageError.self) { try SQLiteStore(directory: directory) }
            #expect(error?.message == "data directory \(directory) is in use by another ringcast (pid \(getpid()))")
            #expect(error?.path == directory + "/LOCK")
            first.close()

            let second = try SQLiteStore(directory: directory)
            second.close()
        }
    }

    /// Issue 21: deleting LOCK let a second server start on the directory and overwrite the first
    /// one's acknowledged writes. The database itself is locked too, so it cannot.
    @Test func lockFileDeletedUnderAnOpenStore_secondStoreIsStillRefused_andTheFirstTakesLockBackAndKeepsWriting() throws {
        try withTemporaryDirectory { directory in
            let notices = NoticeLog()
            let first = try SQLiteStore(directory: directory, notify: notices.record)
            #expect(try completed { first.write([record("before")], completion: $0) } == nil)
            try FileManager.default.removeItem(atPath: directory + "/LOCK")

            let error = #expect(throws: StorageError.self) { try SQLiteStore(directory: directory) }
            #expect(error?.path == directory + "/" + SQLiteStore.fileName)
            #expect(
                error?.message
                    == "data directory \(directory) is in use by another ringcast (pid \(getpid())), which holds its "
                    + "database; its LOCK file was deleted or replaced while that ringcast ran")

            // The refused store left a new LOCK behind, which nobody holds: the first store locks it
            // before its next commit, says so, and commits.
            #expect(try completed { first.write([record("after")], completion: $0) } == nil)
            #expect(notices.all.map(\.level) == [.error])
            #expect(notices.all.first?.path == directory + "/LOCK")
            #expect(
                notices.all.first?.message
                    == "the lock file \(directory)/LOCK was replaced while this ringcast ran; no other process held it, "
                    + "the database was untouched, and this ringcast has locked it again")
            #expect(try String(contentsOfFile: directory + "/LOCK", encoding: .utf8) == "\(getpid())\n")
            let again = #expect(throws: StorageError.self) { try SQLiteStore(directory: directory) }
            #expect(again?.message == "data directory \(directory) is in use by another ringcast (pid \(getpid()))")
            first.close()

            let reopened = try SQLiteStore(directory: directory)
            defer { reopened.close() }
            #expect(try reopened.loadAll().map(\.board) == ["after", "before"])
        }
    }

    @Test func lockFileReplacedByOneAnotherProcessHolds_failsWritesAndChecks_untilItIsLetGo() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            let lock = directory + "/LOCK"
            try FileManager.default.removeItem(atPath: lock)
            // Another open file description plays the other process: flock locks conflict between them.
            let other = open(lock, O_RDWR | O_CREAT, 0o644)
            #expect(other >= 0)
            defer { close(other) }
            #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
            #expect(pwrite(other, "4242\n", 5, 0) == 5)

            let refused = try completed { store.write([record("refused")], completion: $0) }
            #expect(refused?.path == lock)
            #expect(
                refused?.message
                    == "the lock file \(lock) was replaced while this ringcast ran, and another process holds it now "
                    + "(pid 4242); writes are refused until this ringcast holds it again")
            #expect(!store.isHealthy)
            // The periodic check and the probe see the same.
            #expect(try completed { store.check(completion: $0) }?.description == refused?.description)
            #expect(try completed { store.probe(completion: $0) }?.description == refused?.description)

            #expect(flock(other, LOCK_UN) == 0)
            #expect(try completed { store.probe(completion: $0) } == nil)
            #expect(store.isHealthy)
            #expect(try completed { store.write([record("accepted")], completion: $0) } == nil)
            #expect(try String(contentsOfFile: lock, encoding: .utf8) == "\(getpid())\n")
            #expect(try store.loadAll().map(\.board) == ["accepted"])
        }
    }

    @Test func databaseMovedAwayUnderAnOpenStore_failsWritesAndProbes_sinceNoRestartWouldReadThem() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            #expect(try completed { store.write([record("kept")], completion: $0) } == nil)
            let database = store.databasePath
            #expect(rename(database, directory + "/moved.sqlite3") == 0)

            let refused = try completed { store.write([record("lost")], completion: $0) }
            #expect(refused?.path == database)
            #expect(refused?.message.hasPrefix("the database \(database) was deleted while this ringcast ran") == true)
            #expect(try completed { store.probe(completion: $0) } != nil)

            #expect(FileManager.default.createFile(atPath: database, contents: Data()))
            let replaced = try completed { store.check(completion: $0) }
            // The store was failing already; the check reports that failure.
            #expect(replaced?.description == refused?.description)
            let probed = try completed { store.probe(completion: $0) }
            #expect(probed?.message.hasPrefix("the database \(database) was replaced while this ringcast ran") == true)
            #expect(!store.isHealthy)
        }
    }

    @Test func anotherConnectionCommittingToTheDatabase_failsTheNextWrite_andEveryProbeAfter() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            #expect(try completed { store.write([record("first")], completion: $0) } == nil)
            do {
                // What an older ringcast or the sqlite3 shell would do, sidestepping the locks.
                let other = try SQLiteConnection(path: store.databasePath, mode: .readWrite)
                try other.execute("INSERT INTO boards (name, revision, state) VALUES ('intruder', 1, x'00')")
            }

            let refused = try completed { store.write([record("second")], completion: $0) }
            #expect(refused?.message.hasPrefix("another program committed to the database \(store.databasePath)") == true)
            #expect(try completed { store.probe(completion: $0) }?.description == refused?.description)
            #expect(try store.loadAll().map(\.board) == ["first", "intruder"])
        }
    }

    /// `PRAGMA data_version` must not move for the store's own commits, checkpoints and WAL resets.
    @Test func manyCommitsAcrossCheckpoints_neverLookLikeAnotherWriter() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(directory: directory)
            defer { store.close() }
            // 64 KiB each: SQLite checkpoints every 1000 pages (4 MiB) and then writes the WAL from its start.
            for index in 0..<160 {
                let error = try completed {
                    store.write([record("b\(index % 7)", revision: Int64(index + 1), count: 1 << 16)], completion: $0)
                }
                #expect(error == nil, "write \(index): \(String(describing: error))")
                if error != nil { break }
            }
            #expect(store.isHealthy)
            #expect(try completed { store.check(completion: $0) } == nil)
        }
    }

    @Test func lockHeldWithoutAPidInTheFile_isReportedAsPidUnknown() throws {
        try withTemporaryDirectory { directory in
            let descriptor = open(directory + "/LOCK", O_RDWR | O_CREAT, 0o644)
            #expect(descriptor >= 0)
            defer { close(descriptor) }
            #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)

            let error = #expect(throws: StorageError.self) { try SQLiteStore(directory: directory) }
            #expect(error?.message == "data directory \(directory) is in use by another ringcast (pid unknown)")
        }
    }

    @Test func missingDataDirectory_isCreatedWithItsParents() throws {
        try withTemporaryDirectory { directory in
            let nested = directory + "/one/two/data/"
            let store = try SQLiteStore(directory: nested)
            store.close()
            #expect(FileManager.default.fileExists(atPath: nested + SQLiteStore.fileName))
            let pid = try String(contentsOfFile: nested + "LOCK", encoding: .utf8)
            #expect(pid == "\(getpid())\n")
        }
    }

    @Test func dataDirectoryBelowARegularFile_isRefusedNamingThePath() throws {
        try withTemporaryDirectory { directory in
            let file = directory + "/plain-file"
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
            let error = #expect(throws: StorageError.self) { try SQLiteStore(directory: file + "/data") }
            #expect(error?.path == file + "/data")
            #expect(error?.message == "cannot create the data directory: a part of the path is a file, not a directory")
        }
    }
}
