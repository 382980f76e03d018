internal import CLibWebSockets

/// An immutable message shared by every viewer it goes to: encode once, send the same bytes to
/// all. Holds the payload with `LWS_PRE` bytes of headroom so it is never copied per viewer.
///
/// `@unchecked Sendable` because it owns raw memory. That is safe: the payload bytes never change
/// after `init`. `lws_write` writes the WebSocket frame header into the headroom before each send;
/// a server frame is unmasked, so that header depends only on the opcode and the payload length
/// and every write stores the same bytes. Writes happen only on a service thread. Do not publish
/// one message through two `WebServer`s running on different threads (their identical header
/// writes would race); encode it once per server.
public final class OutgoingMessage: @unchecked Sendable {
    enum Kind { case text, binary }

    let kind: Kind
    public let count: Int
    /// `headroom` bytes for lws, then `count` payload bytes.
    private let storage: UnsafeMutableRawPointer
    private let headroom: Int

    public convenience init(text bytes: [UInt8]) {
        self.init(kind: .text, bytes: bytes)
    }

    public convenience init(binary bytes: [UInt8]) {
        self.init(kind: .binary, bytes: bytes)
    }

    private init(kind: Kind, bytes: [UInt8]) {
        self.kind = kind
        self.count = bytes.count
        self.headroom = Int(clws_pre())
        self.storage = .allocate(byteCount: headroom + bytes.count, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: headroom)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress {
                (storage + headroom).copyMemory(from: base, byteCount: bytes.count)
            }
        }
    }

    deinit {
        storage.deallocate()
    }

    /// The same message in storage of its own: for another service thread to write (see above).
    public func copy() -> OutgoingMessage {
        OutgoingMessage(kind: kind, bytes: bytes)
    }

    /// The payload, for tests and logs (a copy).
    public var bytes: [UInt8] {
        Array(UnsafeRawBufferPointer(start: storage + headroom, count: count))
    }

    /// Sends the whole message as one frame. Service thread only.
    func write(to wsi: OpaquePointer) throws(LWSFailure) {
        let protocolKind = kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY
        let payload = (storage + headroom).assumingMemoryBound(to: UInt8.self)
        let written = lws_write(wsi, payload, count, protocolKind)
        try check(written, "lws_write of a \(count)-byte message", success: { $0 == count })
    }
}
