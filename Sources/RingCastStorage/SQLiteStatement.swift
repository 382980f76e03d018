internal import CSQLite

/// Owns one prepared `sqlite3_stmt` and finalizes it exactly once (`finalize()` or `deinit`).
/// Keeps its connection alive, so the connection outlives every statement compiled on it.
///
/// Touched only by the thread that owns its connection.
final class SQLiteStatement {
    private var pointer: OpaquePointer?
    private let connection: SQLiteConnection

    init(pointer: OpaquePointer, connection: SQLiteConnection) {
        self.pointer = pointer
        self.connection = connection
    }

    deinit {
        finalize()
    }

    func finalize() {
        guard let pointer else { return }
        self.pointer = nil
        sqlite3_finalize(pointer)
    }

    /// Binds UTF-8 text by length, so a name holding a NUL byte is stored whole.
    func bind(_ text: String, at index: Int32) throws(StorageError) {
        var text = text
        let code = text.withUTF8 { bytes in
            // A null pointer would bind NULL rather than the empty string.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(pointer, index, "", 0, csqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                sqlite3_bind_text64(
                    pointer, index, characters, sqlite3_uint64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try connection.check(code, "binding text parameter \(index)")
    }

    func bind(_ value: Int64, at index: Int32) throws(StorageError) {
        try connection.check(sqlite3_bind_int64(pointer, index, value), "binding integer parameter \(index)")
    }

    func bind(_ value: Double, at index: Int32) throws(StorageError) {
        try connection.check(sqlite3_bind_double(pointer, index, value), "binding real parameter \(index)")
    }

    /// Binds `text`, or NULL for nil.
    func bind(optional text: String?, at index: Int32) throws(StorageError) {
        if let text {
            try bind(text, at: index)
        } else {
            try connection.check(sqlite3_bind_null(pointer, index), "binding parameter \(index) to NULL")
        }
    }

    /// Binds bytes as a blob. An empty array binds a zero-length blob: `sqlite3_bind_blob` with
    /// a null pointer would bind NULL, which `NOT NULL` refuses.
    func bind(_ bytes: [UInt8], at index: Int32) throws(StorageError) {
        let code = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return sqlite3_bind_zeroblob(pointer, index, 0) }
            return sqlite3_bind_blob64(pointer, index, base, sqlite3_uint64(buffer.count), csqlite_transient())
        }
        try connection.check(code, "binding blob parameter \(index)")
    }

    /// Steps once: true with a row to read, false when the statement is done.
    func step(_ operation: @autoclosure () -> String) throws(StorageError) -> Bool {
        let code = try connection.check(
            sqlite3_step(pointer), operation(), success: { $0 == SQLITE_ROW || $0 == SQLITE_DONE })
        return code == SQLITE_ROW
    }

    /// Steps to the end (ignoring rows), then resets and clears the bindings, also on failure,
    /// so the statement is ready for the next use and holds no copies of bound blobs.
    func run(_ operation: @autoclosure () -> String) throws(StorageError) {
        defer { reset() }
        while try step(operation()) {}
    }

    /// Resets for another run. `sqlite3_reset` repeats the last step's error, which `step`
    /// has already reported, so its result is ignored.
    func reset() {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    func text(at column: Int32) -> String {
        guard let characters = sqlite3_column_text(pointer, column) else { return "" }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(pointer, column)
    }

    func double(at column: Int32) -> Double {
        sqlite3_column_double(pointer, column)
    }

    /// The column's text, nil for NULL.
    func optionalText(at column: Int32) -> String? {
        sqlite3_column_type(pointer, column) == SQLITE_NULL ? nil : text(at: column)
    }

    /// `body` given the column's bytes where SQLite holds them, valid only until the next step (no copy).
    func withBlob<Result>(at column: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let bytes = sqlite3_column_blob(pointer, column)
        let count = Int(sqlite3_column_bytes(pointer, column))
        return body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    }

    /// The column's bytes (a zero-length blob comes back from SQLite as a null pointer).
    func blob(at column: Int32) -> [UInt8] {
        // sqlite3_column_bytes must follow sqlite3_column_blob (SQLite's documented order).
        guard let bytes = sqlite3_column_blob(pointer, column) else { return [] }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}
