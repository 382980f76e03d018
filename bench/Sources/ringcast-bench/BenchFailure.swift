#if canImport(Glibc)
    import Glibc
#endif

/// Why `ringcast-bench` stopped: printed as the message alone, exit status 1.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }

    /// A failed system call, with errno's text.
    static func errno(_ call: String) -> BenchFailure {
        BenchFailure("\(call): \(String(cString: strerror(Glibc.errno)))")
    }
}
