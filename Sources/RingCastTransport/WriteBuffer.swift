internal import CLibWebSockets

/// Scratch memory for composing HTTP writes, with the `LWS_PRE` headroom lws requires in front
/// of every buffer it is given. Grows on demand; owns its memory.
///
/// Service thread only.
final class WriteBuffer {
    private var storage: UnsafeMutableRawPointer
    private(set) var capacity: Int
    private let headroom = Int(clws_pre())

    init(capacity: Int) {
        self.capacity = capacity
        self.storage = .allocate(byteCount: headroom + capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Where content starts (after the headroom); valid until the next `reserve`.
    var start: UnsafeMutablePointer<UInt8> {
        (storage + headroom).assumingMemoryBound(to: UInt8.self)
    }

    var end: UnsafeMutablePointer<UInt8> { start + capacity }

    /// Makes room for at least `count` bytes of content (forgetting the current content).
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        storage.deallocate()
        capacity = count
        storage = .allocate(byteCount: headroom + capacity, alignment: 16)
    }
}

@available(*, unavailable)
extension WriteBuffer: Sendable {}
