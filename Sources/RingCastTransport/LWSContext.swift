internal import CLibWebSockets

/// Owns one `lws_context` and the C memory it points into; destroys the context exactly once
/// (from the service loop when it ends, else in `deinit`), and only then frees that memory.
///
/// Touched by the thread that creates it, then by the service thread; `deinit` runs wherever the
/// last owner lets go (by then no service loop is running).
final class LWSContext {
    private(set) var pointer: OpaquePointer?
    /// Freed after `deinit` has destroyed the context.
    private let allocations: CAllocations

    init(pointer: OpaquePointer, allocations: CAllocations) {
        self.pointer = pointer
        self.allocations = allocations
    }

    deinit {
        destroy()
    }

    /// Closes every connection (their CLOSED callbacks run now) and frees the context.
    func destroy() {
        guard let pointer else { return }
        self.pointer = nil
        lws_context_destroy(pointer)
    }
}

@available(*, unavailable)
extension LWSContext: Sendable {}

/// libwebsockets logs through one process-wide function; route its errors and warnings to
/// `TransportLog`, once.
enum LibraryLog {
    static let installed: Void = {
        let levels = LLL_ERR | LLL_WARN
        lws_set_log_level(levels) { level, line in
            guard let line else { return }
            let kind = level & LLL_ERR != 0 ? "error" : "warning"
            var text = String(cString: line)
            while text.last == "\n" || text.last == "\r" { text.removeLast() }
            TransportLog.emit("libwebsockets \(kind): \(text)")
        }
    }()
}
