internal import CLibWebSockets
import RingCastThreads
import Synchronization

/// A WebSocket client on the libwebsockets client API, for tests and load tools (Foundation's
/// `URLSessionWebSocketTask` does not work with Debian's libcurl). Owns its own lws context and
/// service thread; one client handles thousands of connections, up to the process's open-file
/// limit (`ulimit -n`), which lws sizes its tables from.
///
/// Thread-safe: every method may be called from any thread, including from `onEvent` (which
/// runs on the client's service thread).
public final class WebSocketClient: Sendable {
    static let protocolName = "client"

    private let inbox: ServiceInbox<ClientLoop>
    private let thread: JoinableThread
    private let lastID = Atomic<UInt64>(0)

    /// `caFile`: PEM certificates that wss connections trust (a self-signed server's own
    /// certificate, say) instead of OpenSSL's default store; wss checks the host name either way.
    /// Only a client given a `caFile` may open wss connections: a TLS client context takes OpenSSL's
    /// ex-data index anew, process-wide, which breaks a TLS handshake under way on any other context
    /// of the process (libwebsockets 4.1.6), so a client that speaks only ws leaves OpenSSL alone.
    public init(caFile: String? = nil) throws(TransportError) {
        _ = LibraryLog.installed
        let loop = ClientLoop()
        let memory = CAllocations()
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.options = caFile != nil ? UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT) : 0
        info.client_ssl_ca_filepath = caFile.map { memory.string($0) }
        info.user = Unmanaged.passUnretained(loop).toOpaque()
        info.count_threads = 1  // this build has LWS_MAX_SMP 1; fd_limit_per_thread 0 = the process limit
        info.timeout_secs = 10
        info.protocols = UnsafePointer(
            memory.array([
                lws_protocols(
                    name: memory.string(Self.protocolName),
                    callback: clientProtocolCallback,
                    per_session_data_size: 0,
                    rx_buffer_size: 64 * 1024,
                    id: 0,
                    user: nil,
                    tx_packet_size: 0
                ),
                lws_protocols(),
            ]))
        guard let pointer = lws_create_context(&info) else {
            throw .contextCreationFailed("lws_create_context failed for the WebSocket client (see the libwebsockets log)")
        }
        let context = LWSContext(pointer: pointer, allocations: memory)
        loop.attach(to: pointer)
        let box = UncheckedBox((loop, context))
        self.inbox = loop.inbox
        do {
            self.thread = try JoinableThread {
                let (loop, context) = box.value
                loop.run(context)
            }
        } catch {
            throw .contextCreationFailed("could not start a service thread: \(error)")
        }
    }

    deinit {
        shutdown()
    }

    /// Starts connecting to ws://host:port/path (path with query), or wss:// when `secure` (a client
    /// made with a `caFile`): the server's certificate must chain to `caFile` and name `host`.
    /// Events arrive on the client's service thread, in order per connection. `origin` is sent as
    /// the Origin header; lws 4.1.6 can only send `http://` origins, so an `https://` one cannot
    /// be expressed.
    @discardableResult
    public func connect(
        host: String,
        port: Int,
        path: String,
        origin: String? = nil,
        subprotocol: String? = nil,
        secure: Bool = false,
        onEvent: @escaping @Sendable (WebSocketConnectionID, WebSocketEvent) -> Void
    ) -> WebSocketConnectionID {
        let id = WebSocketConnectionID(rawValue: lastID.add(1, ordering: .relaxed).newValue)
        let accepted = inbox.enqueue { loop in
            let connection = ClientConnection(id: id, onEvent: onEvent)
            loop.open(
                connection, host: host, port: port, path: path, origin: origin, subprotocol: subprotocol, secure: secure)
        }
        if !accepted {
            onEvent(id, .failed("the client is shut down"))
        }
        return id
    }

    /// Sends a text message (ignored unless the connection is open or opening).
    public func send(_ id: WebSocketConnectionID, text: [UInt8]) {
        inbox.enqueue { $0.send(id, binary: false, bytes: text) }
    }

    /// Sends a binary message (ignored unless the connection is open or opening).
    public func send(_ id: WebSocketConnectionID, binary: [UInt8]) {
        inbox.enqueue { $0.send(id, binary: true, bytes: binary) }
    }

    /// Sends a normal close (1000); the connection then reports `.closed`.
    public func close(_ id: WebSocketConnectionID) {
        inbox.enqueue { $0.close(id) }
    }

    /// Closes every connection (bounded wait for the close handshakes), destroys the context and
    /// joins the thread. Idempotent. From `onEvent` it only asks, and the thread ends on its own.
    public func shutdown() {
        inbox.requestStop()
        if thread.isCurrent {
            thread.detach()
        } else {
            thread.join()
        }
    }
}

/// Carries values that are handed to exactly one other thread before the creating thread stops
/// touching them (a new thread's start closure).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
