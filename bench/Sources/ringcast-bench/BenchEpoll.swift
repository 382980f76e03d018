#if canImport(Glibc)
    import Glibc
#endif

/// An epoll(7) set for the bench's viewer sockets. Glibc's Swift module map leaves out
/// <sys/epoll.h>, and the bench cannot add a C target, so the three calls are looked up once with
/// dlsym and called through their C signatures; the constants and `struct epoll_event` layout
/// below are Linux's ABI. poll(2) did the same job, but rescanning 1000 sockets per wake-up took
/// half of the bench's CPU, which the server then could not use.
///
/// Used from one thread.
final class BenchEpoll {
    private typealias Create = @convention(c) (Int32) -> Int32
    private typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    /// <sys/epoll.h>
    static let readable: UInt32 = 0x001  // EPOLLIN
    static let writable: UInt32 = 0x004  // EPOLLOUT
    static let error: UInt32 = 0x008  // EPOLLERR
    static let hangUp: UInt32 = 0x010  // EPOLLHUP
    private static let add: Int32 = 1  // EPOLL_CTL_ADD
    private static let modify: Int32 = 3  // EPOLL_CTL_MOD
    private static let closeOnExec = Int32(O_CLOEXEC)  // EPOLL_CLOEXEC is defined as O_CLOEXEC

    /// `struct epoll_event { uint32_t events; epoll_data_t data; }` is packed on x86-64 (data at
    /// offset 4, 12 bytes) and naturally aligned elsewhere (data at offset 8, 16 bytes).
    #if arch(x86_64)
        private static let dataOffset = 4
        private static let eventSize = 12
    #else
        private static let dataOffset = 8
        private static let eventSize = 16
    #endif

    private let control: Control
    private let wait: Wait
    private let descriptor: Int32
    private let capacity: Int
    private let events: UnsafeMutableRawPointer

    init(capacity: Int = 512) throws(BenchFailure) {
        guard let create: Create = Self.symbol("epoll_create1"), let control: Control = Self.symbol("epoll_ctl"),
            let wait: Wait = Self.symbol("epoll_wait")
        else {
            throw BenchFailure("epoll is not available in this C library")
        }
        let descriptor = create(Self.closeOnExec)
        guard descriptor >= 0 else { throw .errno("epoll_create1") }
        self.control = control
        self.wait = wait
        self.descriptor = descriptor
        self.capacity = capacity
        self.events = .allocate(byteCount: capacity * Self.eventSize, alignment: 8)
    }

    deinit {
        close(descriptor)
        events.deallocate()
    }

    /// Watches `socket` for `events` (input unless told), reporting `token` with its events.
    /// Level-triggered.
    func watch(_ socket: Int32, token: UInt64, events: UInt32 = readable) -> Bool {
        change(Self.add, socket, token: token, events: events)
    }

    /// Watches a socket already in the set for other events.
    func rewatch(_ socket: Int32, token: UInt64, events: UInt32) -> Bool {
        change(Self.modify, socket, token: token, events: events)
    }

    private func change(_ operation: Int32, _ socket: Int32, token: UInt64, events: UInt32) -> Bool {
        var event = [UInt8](repeating: 0, count: Self.eventSize)
        event.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            bytes.storeBytes(of: token, toByteOffset: Self.dataOffset, as: UInt64.self)
        }
        return event.withUnsafeMutableBytes { control(descriptor, operation, socket, $0.baseAddress) } == 0
    }

    /// Waits up to `timeoutMilliseconds` and calls `body(token, events)` for each ready socket.
    /// A closed socket leaves the set by itself.
    func wait(timeoutMilliseconds: Int32, _ body: (UInt64, UInt32) -> Void) {
        let count = wait(descriptor, events, Int32(capacity), timeoutMilliseconds)
        guard count > 0 else { return }
        for index in 0..<Int(count) {
            let event = events + index * Self.eventSize
            body(event.loadUnaligned(fromByteOffset: Self.dataOffset, as: UInt64.self), event.loadUnaligned(as: UInt32.self))
        }
    }

    private static func symbol<Function>(_ name: String) -> Function? {
        // RTLD_DEFAULT is a null handle in glibc: search the process's global symbols.
        dlsym(nil, name).map { unsafeBitCast($0, to: Function.self) }
    }
}

@available(*, unavailable)
extension BenchEpoll: Sendable {}
