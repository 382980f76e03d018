internal import CLibWebSockets

/// The service-thread side of a `WebSocketClient`: its connections and their events.
///
/// Client service thread only (and the creating thread before that thread starts).
final class ClientLoop {
    let inbox = ServiceInbox<ClientLoop>()
    let timers: TimerQueue
    private(set) var context: OpaquePointer?
    private var connections: [UInt64: ClientConnection] = [:]
    private var isClosingDown = false
    private let sendBuffer = WriteBuffer(capacity: 64 * 1024)

    /// How long shutdown waits for close handshakes before dropping the connections.
    static let drainMicroseconds: Int64 = 500_000

    init() {
        self.timers = TimerQueue(fired: clientTimerFired)
    }

    func attach(to context: OpaquePointer) {
        self.context = context
        timers.attach(to: context)
        inbox.attach(ContextHandle(pointer: context))
    }

    /// The service thread's whole life: serve until asked to stop, close every connection with
    /// 1000, wait up to 500 ms for the handshakes, destroy the context.
    func run(_ owner: LWSContext) {
        guard let pointer = owner.pointer else { return }
        inbox.becomeServiceThread()
        while !inbox.isStopRequested {
            guard lws_service(pointer, 0) >= 0 else { break }
            runPendingJobs()
        }
        isClosingDown = true
        for connection in connections.values {
            requestClose(connection)
        }
        let deadline = lws_now_usecs() + Self.drainMicroseconds
        timers.schedule(afterMicroseconds: Self.drainMicroseconds) {}
        while !connections.isEmpty, lws_now_usecs() < deadline {
            guard lws_service(pointer, 0) >= 0 else { break }
            runPendingJobs()
        }
        _ = inbox.close()
        timers.cancelAll()
        owner.destroy()  // reports what was still open
        context = nil
        for connection in connections.values {
            connection.onEvent(connection.id, .closed(code: nil))
        }
        connections.removeAll()
    }

    func runPendingJobs() {
        let (jobs, _) = inbox.take()
        for job in jobs {
            job(self)
        }
    }

    // MARK: - Requests from WebSocketClient (via the inbox)

    func open(
        _ connection: ClientConnection,
        host: String,
        port: Int,
        path: String,
        origin: String?,
        subprotocol: String?,
        secure: Bool
    ) {
        guard let context, !isClosingDown else {
            connection.onEvent(connection.id, .failed("the client is shut down"))
            return
        }
        connections[connection.id.rawValue] = connection
        let strings = CAllocations()  // lws copies these before returning
        var info = lws_client_connect_info()
        info.context = context
        info.address = strings.string(host)
        info.port = Int32(port)
        info.path = strings.string(path.isEmpty ? "/" : path)
        info.host = strings.string(host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        // lws 4.1.6 writes "Origin: http://<origin>", so a full origin loses its scheme here.
        info.origin = origin.map { strings.string($0.hasPrefix("http://") ? String($0.dropFirst(7)) : $0) }
        info.protocol = subprotocol.map { strings.string($0) }
        info.local_protocol_name = strings.string(WebSocketClient.protocolName)
        info.ietf_version_or_minus_one = -1
        // wss: lws verifies the chain and checks the certificate against the host (name or IP).
        info.ssl_connection = secure ? Int32(LCCSCF_USE_SSL.rawValue) : 0
        info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(connection.id.rawValue))
        let wsi = lws_client_connect_via_info(&info)
        if let wsi {
            if connections[connection.id.rawValue] != nil, !connection.isOpen {
                connection.wsi = wsi
            }
        } else if connections.removeValue(forKey: connection.id.rawValue) != nil {
            connection.onEvent(connection.id, .failed("could not start connecting to \(host):\(port)"))
        }
    }

    func send(_ id: WebSocketConnectionID, binary: Bool, bytes: [UInt8]) {
        guard let connection = connections[id.rawValue], !connection.closeRequested else { return }
        connection.outgoing.append((binary, bytes))
        if connection.isOpen, let wsi = connection.wsi {
            lws_callback_on_writable(wsi)
        }
    }

    func close(_ id: WebSocketConnectionID) {
        guard let connection = connections[id.rawValue] else { return }
        requestClose(connection)
    }

    private func requestClose(_ connection: ClientConnection) {
        connection.closeRequested = true
        if connection.isOpen, let wsi = connection.wsi {
            lws_callback_on_writable(wsi)
        }
    }

    // MARK: - lws callbacks

    /// LWS_CALLBACK_CLIENT_CONNECTION_ERROR.
    func handleConnectionError(_ wsi: OpaquePointer?, message: String) {
        guard let wsi, let connection = removeConnection(of: wsi) else { return }
        let status = lws_http_client_http_response(wsi)
        connection.onEvent(connection.id, .failed(status > 0 ? "HTTP \(status): \(message)" : message))
    }

    /// LWS_CALLBACK_CLIENT_ESTABLISHED.
    func handleEstablished(_ wsi: OpaquePointer) {
        guard let connection = connection(of: wsi) else { return }
        connection.wsi = wsi
        connection.isOpen = true
        connection.onEvent(connection.id, .open)
        if connection.closeRequested || !connection.outgoing.isEmpty {
            lws_callback_on_writable(wsi)
        }
    }

    /// LWS_CALLBACK_CLIENT_RECEIVE: a piece of a frame; messages are delivered whole.
    func handleReceive(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
        guard let connection = connection(of: wsi) else { return }
        if !connection.isInsideMessage {
            connection.isInsideMessage = true
            connection.incomingIsBinary = lws_frame_is_binary(wsi) != 0
            connection.incoming = []
        }
        connection.incoming.append(contentsOf: bytes)
        guard lws_is_final_fragment(wsi) != 0 else { return }
        connection.isInsideMessage = false
        let message = connection.incoming
        connection.incoming = []
        connection.onEvent(connection.id, connection.incomingIsBinary ? .binary(message) : .text(message))
    }

    /// LWS_CALLBACK_WS_PEER_INITIATED_CLOSE: remember the server's close code.
    func handlePeerClose(_ wsi: OpaquePointer, _ payload: UnsafeRawBufferPointer) {
        guard let connection = connection(of: wsi), payload.count >= 2 else { return }
        connection.peerCloseCode = Int(payload[0]) << 8 | Int(payload[1])
    }

    /// LWS_CALLBACK_CLIENT_WRITEABLE: a close frame, or the next queued message.
    func handleWritable(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connection(of: wsi) else { return 0 }
        if connection.closeRequested {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, nil, 0)
            return -1
        }
        guard !connection.outgoing.isEmpty else { return 0 }
        let (binary, bytes) = connection.outgoing.removeFirst()
        // A client masks its payload in place, so each send gets its own copy.
        sendBuffer.reserve(bytes.count)
        sendBuffer.start.update(from: bytes, count: bytes.count)
        let written = lws_write(wsi, sendBuffer.start, bytes.count, binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT)
        do {
            try check(written, "lws_write of \(bytes.count) bytes", success: { $0 == bytes.count })
        } catch {
            TransportLog.emit("\(error); closing \(connection.id)")
            return -1
        }
        if !connection.outgoing.isEmpty {
            lws_callback_on_writable(wsi)
        }
        return 0
    }

    /// LWS_CALLBACK_CLIENT_CLOSED.
    func handleClosed(_ wsi: OpaquePointer) {
        guard let connection = removeConnection(of: wsi) else { return }
        connection.onEvent(connection.id, .closed(code: connection.peerCloseCode))
    }

    private func connection(of wsi: OpaquePointer) -> ClientConnection? {
        connections[UInt64(UInt(bitPattern: lws_get_opaque_user_data(wsi)))]
    }

    private func removeConnection(of wsi: OpaquePointer) -> ClientConnection? {
        let connection = connections.removeValue(forKey: UInt64(UInt(bitPattern: lws_get_opaque_user_data(wsi))))
        connection?.wsi = nil
        return connection
    }
}

@available(*, unavailable)
extension ClientLoop: Sendable {}

/// The client context's only protocol.
func clientProtocolCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let loop = owner(ofContext: lws_get_context(wsi), as: ClientLoop.self) else { return 0 }
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        loop.runPendingJobs()
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        let message = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection failed"
        loop.handleConnectionError(wsi, message: message)
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        loop.handleEstablished(wsi)
    case LWS_CALLBACK_CLIENT_RECEIVE:
        loop.handleReceive(wsi, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        loop.handlePeerClose(wsi, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return loop.handleWritable(wsi)
    case LWS_CALLBACK_CLIENT_CLOSED:
        loop.handleClosed(wsi)
    default:
        break
    }
    return 0
}

/// The client's timer sul (see `clws_timer` in the shim).
func clientTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul else { return }
    // The sul is the first member of clws_timer.
    let timer = UnsafeMutableRawPointer(sul).assumingMemoryBound(to: clws_timer.self)
    owner(ofContext: timer.pointee.context, as: ClientLoop.self)?.timers.runDue()
}
