import Foundation
import Testing

@testable import RingCastStorage

@Suite("Refusing files that are not RingCast format 2")
struct DatabaseFileTests {
    @Test func fileThatIsNotSQLite_isRefusedNamingIt_andLeftUntouched() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/" + SQLiteStore.fileName
            let garbage = Data(String(repeating: "this is not a database\n", count: 400).utf8)
            #expect(FileManager.default.createFile(atPath: path, contents: garbage))

            let error = #expect(throws: StorageError.self) { try SQLiteStore(directory: directory) }
            #expect(error?.path == path)
            #expect(error?.message.contains("file is not a database (SQLITE_NOTADB)") == true)
            #expect(error?.message.contains("move it aside or restore a backup") == true)
            #expect(FileManager.default.contents(atPath: path) == garbage)
            // The lock was released: the directory can be used once the file is moved aside.
            try FileManager.default.removeItem(atPath: path)
            try SQLiteStore(directory: directory).close()
        }
    }

    @Test func databaseOfAnotherFormat_isRefusedNamingTheFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/" + SQLiteStore.fileName
            try SQLiteStore(directory: directory).close()
            do {
                let connection = try SQLiteConnection(path: path, mode: .readWrite)
                try connection.execute("UPDATE meta SET value = '5' WHERE key = 'format'")
            }

            let error = #expect(throws: StorageError.self) { try SQLiteStore(directory: directory) }
            #expect(error?.path == path)
            #expect(error?.message.hasPrefix("the database is in format '5', this ringcast reads only format '4'") == true)
        }
    }
}
