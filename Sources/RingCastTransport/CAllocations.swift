#if canImport(Glibc)
    import Glibc
#endif

/// C memory that lws keeps pointers into for the whole life of a context: protocol names and
/// tables, mounts, option lists, strings. Owns every block it hands out and frees them together
/// in `deinit`, which its owner (`LWSContext`) guarantees happens after `lws_context_destroy`.
///
/// Touched by the thread that builds the context (before the service loop starts).
final class CAllocations {
    private var blocks: [UnsafeMutableRawPointer] = []

    deinit {
        for block in blocks {
            free(block)
        }
    }

    /// A NUL-terminated copy of `string`.
    func string(_ string: String) -> UnsafePointer<CChar> {
        let copy = strdup(string)!
        blocks.append(copy)
        return UnsafePointer(copy)
    }

    /// Zero-initialised storage for `count` values of a C struct, initialised to `value`s.
    func array<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
        let raw = calloc(max(values.count, 1), MemoryLayout<T>.stride)!
        blocks.append(raw)
        let typed = raw.bindMemory(to: T.self, capacity: max(values.count, 1))
        for (index, value) in values.enumerated() {
            (typed + index).initialize(to: value)
        }
        return typed
    }

    /// One zero-initialised C struct holding `value`.
    func single<T>(_ value: T) -> UnsafeMutablePointer<T> {
        array([value])
    }
}

@available(*, unavailable)
extension CAllocations: Sendable {}
