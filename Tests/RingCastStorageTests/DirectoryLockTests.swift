import Foundation
import RingCastStorage
import Testing

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
