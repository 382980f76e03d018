/// Bytes given as they are or as a function that makes them on the store's writer thread (`StoredRecord`,
/// `StoredChange`); a function that throws fails as `StorageError.Kind.unencodable`, naming the board and `what`.
struct DeferredBytes: Sendable {
    private let make: @Sendable () throws -> [UInt8]

    init(_ make: @escaping @Sendable () throws -> [UInt8]) {
        self.make = make
    }

    func bytes(board: String, what: String) throws(StorageError) -> [UInt8] {
        do {
            return try make()
        } catch {
            throw StorageError(
                path: "board \(board)", message: "its \(what) cannot be encoded, so it was not stored: \(error)",
                kind: .unencodable)
        }
    }
}
