import Foundation
import Testing

@testable import RingCastStorage

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 21: a deleted or damaged -wal started the server with older data, or none, and not a word.
/// Each test copies an open store's files as they are on disk (what a crash leaves), changes the
/// copy, and opens a store on it.
@Suite("The -wal and -shm files at start")
struct SideFilesTests {
    private static let names = [SQLiteStore.fileName, SQLiteStore.fileName + "-wal", SQLiteStore.fileName + "-shm"]

    /// Writes one board per commit into a store in `directory`/live, then copies `files` of it, as they
    /// are while it is open, into `directory`/crashed (which it returns) and closes the store.
    private static func crashImage(in directory: String, boards: Int = 3, files: [String] = names) throws -> String {
        let live = directory + "/live"
        let crashed = directory + "/crashed"
        try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
        let store = try SQLiteStore(directory: live)
        defer { store.close() }
        for index in 0..<boards {
            #expect(try completed { store.write([record("board\(index)", revision: 1, count: 600)], completion: $0) } == nil)
        }
        // Reading the database file through a descriptor of this process drops the fcntl locks the
        // store's SQLite connection holds on it (POSIX), harmless here: nothing else uses the store.
        for name in files {
            try FileManager.default.copyItem(atPath: live + "/" + name, toPath: crashed + "/" + name)
        }
        return crashed
    }

    private static func open(_ directory: String) throws -> (store: SQLiteStore, notices: [StorageNotice]) {
        let log = NoticeLog()
        let store = try SQLiteStore(directory: directory, notify: log.record)
        // Notices about the side files are told before init returns.
        return (store, log.all)
    }

    private static func overwrite(_ path: String, at offset: UInt64, with bytes: [UInt8]) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(bytes))
    }

    /// The copies kept beside the database, `ringcast.sqlite3-wal.damaged-SECONDS`.
    private static func damagedCopies(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            $0.hasPrefix(SQLiteStore.fileName + "-wal.damaged-")
        }
    }

    @Test func crashImageWithItsWAL_opensWithEveryCommittedWrite_andWarnsOfNothing() throws {
        try withTemporaryDirectory { directory in
            let crashed = try Self.crashImage(in: directory)
            let (store, notices) = try Self.open(crashed)
            defer { store.close() }
            #expect(notices == [])
            #expect(try store.loadAll().map(\.board) == ["board0", "board1", "board2"])
        }
    }

    @Test func cleanCloseThenOpen_warnsOfNothing() throws {
        try withTemporaryDirectory { directory in
            try SQLiteStore(directory: directory).close()
            #expect(!FileManager.default.fileExists(atPath: directory + "/" + SQLiteStore.fileName + "-wal"))
            let (store, notices) = try Self.open(directory)
            store.close()
            #expect(notices == [])
        }
    }

    /// The open mark cannot be cleared on a full disk; the -wal must then stay, or the next start
    /// would take its absence for a deletion.
    @Test func closeOnAFullDisk_keepsTheWAL_soTheNextStartWarnsOfNothing() throws {
        try withTemporaryDirectory { directory in
            // A real small file system (the tests run as root, as CI does).
            try #require(mount("tmpfs", directory, "tmpfs", 0, "size=1m") == 0, "mount: \(String(cString: strerror(errno)))")
            defer { umount2(directory, Int32(MNT_DETACH)) }
            let data = directory + "/data"
            let store = try SQLiteStore(directory: data)
            #expect(try completed { store.write([record("kept", count: 100)], completion: $0) } == nil)
            let filler = directory + "/filler"
            let descriptor = Glibc.open(filler, O_WRONLY | O_CREAT, 0o644)
            try #require(descriptor >= 0)
            let block = [UInt8](repeating: 0xAB, count: 4096)
            while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            close(descriptor)
            store.close()
            #expect(FileManager.default.fileExists(atPath: data + "/" + SQLiteStore.fileName + "-wal"))

            unlink(filler)
            let (reopened, notices) = try Self.open(data)
            defer { reopened.close() }
            #expect(notices == [])
            #expect(try reopened.loadAll().map(\.board) == ["kept"])
        }
    }

    @Test func walWithADamagedHeader_isReportedWithItsSize_andCopiedAside() throws {
        try withTemporaryDirectory { directory in
            let crashed = try Self.crashImage(in: directory)
            let wal = crashed + "/" + SQLiteStore.fileName + "-wal"
            let size = try #require(FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int)
            let damaged = try Data(contentsOf: URL(fileURLWithPath: wal))
            // Salt-1: the header's checksum no longer matches.
            try Self.overwrite(wal, at: 16, with: [0xDE, 0xAD])

            let (store, notices) = try Self.open(crashed)
            defer { store.close() }
            let copies = try Self.damagedCopies(in: crashed)
            #expect(copies.count == 1)
            #expect(
                notices == [
                    StorageNotice(
                        level: .warning, path: wal,
                        message: "has a damaged header (its checksum does not match): SQLite ignores the whole file, and "
                            + "the writes in its \(size - 32) bytes of frames are lost; a copy of it as it was is kept as "
                            + "\(crashed)/\(copies.first ?? "")")
                ])
            #expect(try Data(contentsOf: URL(fileURLWithPath: crashed + "/" + (copies.first ?? ""))).count == damaged.count)
            // Why the warning matters: SQLite opened it without a word, and the writes are gone.
            #expect(try store.loadAll() == [])
        }
    }

    @Test func walWithoutAWALMagicNumber_isReported() throws {
        try withTemporaryDirectory { directory in
            let crashed = try Self.crashImage(in: directory)
            try Self.overwrite(crashed + "/" + SQLiteStore.fileName + "-wal", at: 0, with: [0, 0, 0, 0])
            let (store, notices) = try Self.open(crashed)
            store.close()
            #expect(notices.count == 1)
            #expect(notices.first?.message.hasPrefix("does not start with a WAL header (magic number 0x0): ") == true)
        }
    }

    @Test func walShorterThanItsHeader_isReported() throws {
        try withTemporaryDirectory { directory in
            let crashed = try Self.crashImage(in: directory)
            let wal = crashed + "/" + SQLiteStore.fileName + "-wal"
            #expect(truncate(wal, 20) == 0)
            let (store, notices) = try Self.open(crashed)
            store.close()
            #expect(notices.map(\.path) == [wal])
            #expect(
                notices.first?.message.hasPrefix(
                    "is 20 bytes long, shorter than a WAL header (32 bytes): it was cut short or damaged, SQLite ignores it, "
                        + "and whatever writes it held are lost; a copy of it as it was is kept as ") == true)
        }
    }

    @Test func walWithADamagedFrame_isReportedWithTheCommitsSQLiteDrops() throws {
        try withTemporaryDirectory { directory in
            let crashed = try Self.crashImage(in: directory, boards: 4)
            let wal = crashed + "/" + SQLiteStore.fileName + "-wal"
            // Inside the first frame's page: its checksum, and so every later frame's, fails.
            try Self.overwrite(wal, at: 32 + 24 + 100, with: [0xDE, 0xAD, 0xBE, 0xEF])

            let (store, notices) = try Self.open(crashed)
            defer { store.close() }
            #expect(notices.count == 1)
            let message = notices.first?.message ?? ""
            #expect(message.hasPrefix("is damaged: frame 1 of "), "\(message)")
            #expect(message.contains(", at byte 32, fails its checksum; SQLite uses none of its frames and ignores the rest"))
            #expect(message.contains("which hold 4 committed transactions; those writes are lost"), "\(message)")
            #expect(try store.loadAll() == [])
        }
    }

    @Test(arguments: [[SQLiteStore.fileName, SQLiteStore.fileName + "-shm"], [SQLiteStore.fileName]])
    func walDeletedAfterACrash_isReportedAsMissing(files: [String]) throws {
        try withTemporaryDirectory { directory in
            let crashed = try Self.crashImage(in: directory, files: files)
            let (store, notices) = try Self.open(crashed)
            store.close()
            #expect(
                notices == [
                    StorageNotice(
                        level: .warning, path: crashed + "/" + SQLiteStore.fileName + "-wal",
                        message: "is missing, though the last ringcast to use the database stopped without closing it "
                            + "(killed or crashed), which leaves the -wal behind: it was deleted since, and the writes it "
                            + "held that were not yet copied into the database are lost")
                ])
        }
    }
}
