internal import CLibWebSockets
import RingCastThreads
import Synchronization

/// Owns the lws contexts: one port serving static files, the dynamic HTTP API and WebSocket
/// viewers, on `TransportConfiguration.loops` event loops.
///
/// One loop: lws listens (or, with `sharePort`, the transport listens and hands lws each
/// connection). Several: each loop is a context of its own on a thread of its own, the first
/// listens and deals the connections it accepts out in turn (`LoopGroup.deal`), and each connection
/// stays on its loop. The delegate runs on the first loop's thread only: the other loops forward
/// every call to it (`ForwardingDelegate`), and it reaches their viewers through `loops`.
///
/// Thread-safety: `init`, `port`, `run()` (blocks the calling thread, which becomes the first
/// loop's service thread), `stop()` and `perform(_:)` are safe from any thread; `loop` and `loops`
/// are the first loop's service thread's only. `@unchecked Sendable` because the contexts and loops
/// are touched only by the creating thread before `run()` and by their service threads during it
/// — `run()` may be entered once — while the cross-thread parts go through `ServiceInbox`'s lock.
public final class WebServer: @unchecked Sendable {
    /// The port actually listened on (the kernel's choice when configured with 0).
    public let port: Int
    /// Whether the port speaks https and wss (`TransportConfiguration.tls` was given).
    public let isSecure: Bool
    /// One per loop, the first loop's first.
    private let contexts: [LWSContext]
    private let eventLoops: [EventLoop]
    /// The other loops' delegates, kept alive here (a loop holds its delegate weakly).
    private let forwarders: [ForwardingDelegate]
    private let group: LoopGroup
    private let started = Mutex(false)
    /// The other loops still serving; the first loop keeps running their jobs until none is.
    private let othersServing = ServingCount()

    /// Creates the contexts and listens: the port is bound when this returns. The delegate is
    /// held weakly; keep it alive while the server runs.
    public init(configuration: TransportConfiguration, delegate: any TransportDelegate) throws(TransportError) {
        try configuration.validate()
        let address = try ListenAddress(host: configuration.host)
        _ = LibraryLog.installed
        // With sharePort or several loops the port is bound here, before lws starts, so bind errors come first.
        var shared: SharedListeningSocket?
        if configuration.sharePort || configuration.loops > 1 {
            shared = try SharedListeningSocket(
                address: address, host: configuration.host, port: configuration.port, reusePort: configuration.sharePort)
        }
        let first = EventLoop(configuration: configuration, delegate: delegate)
        let (context, port) = try Self.makeContext(configuration, address: address, listening: shared, loop: first)
        first.attach(to: context.pointer!)
        var contexts = [context]
        var loops = [first]
        var forwarders: [ForwardingDelegate] = []
        for index in 1..<configuration.loops {
            let home = ServiceInbox<EventLoop>()
            let forwarder = ForwardingDelegate(index: index, main: first.inbox, home: home)
            let loop = EventLoop(configuration: configuration, delegate: forwarder, index: index, inbox: home)
            do {
                let (context, _) = try Self.makeContext(configuration, address: address, listening: nil, loop: loop)
                loop.attach(to: context.pointer!)
                contexts.append(context)
                loops.append(loop)
                forwarders.append(forwarder)
            } catch {
                for (loop, context) in zip(loops, contexts) { Self.tearDown(loop, context) }
                throw error
            }
        }
        let group = LoopGroup(
            main: first,
            remotes: loops.dropFirst().map { LoopGroup.Remote(index: $0.index, inbox: $0.inbox, statistics: $0.statisticsSlot) })
        if configuration.loops > 1 { first.group = group }
        self.contexts = contexts
        self.eventLoops = loops
        self.forwarders = forwarders
        self.group = group
        self.port = port
        self.isSecure = configuration.tls != nil
    }

    deinit {
        // Never run (or run() already finished): tear down in the order run() does, so no timer
        // stays scheduled on a destroyed context.
        for (loop, context) in zip(eventLoops, contexts) where context.pointer != nil {
            Self.tearDown(loop, context)
        }
    }

    /// Only to be used from the first loop's service thread (delegate callbacks, scheduled timers,
    /// `perform` bodies), or before `run()` from the thread that created the server: the first loop.
    public var loop: EventLoop { eventLoops[0] }

    /// Every loop, as the first loop's service thread reaches them: what the delegate publishes to
    /// and counts viewers by. Same thread rules as `loop`.
    public var loops: LoopGroup { group }

    /// Serves until `stop()`, then drains (EventLoop+Drain), every loop at once: refuses new
    /// connections, answers the requests already received (those arriving meanwhile get 503),
    /// closes viewers with 1001, closes idle keep-alive connections, all within `drainTimeout`;
    /// then destroys the contexts and returns what the drains did, added up. The first loop runs
    /// on the calling thread and finishes last, so that the other loops' requests are answered. A
    /// second call returns nil at once.
    @discardableResult
    public func run() -> DrainReport? {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first, contexts[0].pointer != nil else { return nil }
        let others = Array(zip(eventLoops, contexts).dropFirst())
        othersServing.set(others.count)
        let reports = Mutex<[DrainReport]>([])
        var threads: [JoinableThread] = []
        let main = eventLoops[0].inbox
        for (loop, context) in others {
            let serving = ServingLoop(loop: loop, context: context)
            do {
                threads.append(
                    try JoinableThread { [othersServing] in
                        let report = Self.serve(serving.loop, serving.context)
                        if let report { reports.withLock { $0.append(report) } }
                        othersServing.finished()
                        main.enqueue { _ in }  // the first loop looks again at once
                    })
            } catch {
                TransportLog.emit("cannot start the thread of loop \(loop.index): \(error); its connections are not served")
                othersServing.finished()
                Self.tearDown(loop, context)
            }
        }
        var report = Self.serve(eventLoops[0], contexts[0]) { [othersServing] in othersServing.any }
        for thread in threads { thread.join() }
        for other in reports.withLock({ $0 }) {
            report = report.map { $0.adding(other) } ?? other
        }
        return report
    }

    /// Serves one loop on the calling thread until stopped, drains it, destroys its context.
    /// `holdOpen`: the drain goes on (running jobs) while it says so, even once this loop's own
    /// work is done.
    private static func serve(_ loop: EventLoop, _ context: LWSContext, holdOpen: () -> Bool = { false }) -> DrainReport? {
        guard let pointer = context.pointer else { return nil }
        let inbox = loop.inbox
        inbox.becomeServiceThread()
        loop.phase = .running

        while !inbox.isStopRequested {
            guard lws_service(pointer, 0) >= 0 else { break }
            loop.runPendingJobs()
        }

        loop.beginDraining()
        while loop.continueDraining() || holdOpen() {
            guard lws_service(pointer, 0) >= 0 else { break }
            loop.runPendingJobs()
        }
        let report = loop.finishDraining()
        loop.mirrorStatistics()

        let dropped = inbox.close()  // no lws_cancel_service from here on; late jobs are dropped
        loop.prepareForDestroy()
        context.destroy()
        loop.didDestroy()
        withExtendedLifetime(dropped) {}  // released here, outside the inbox lock
        return report
    }

    /// Destroys a loop's context that never ran (or is done running).
    private static func tearDown(_ loop: EventLoop, _ context: LWSContext) {
        guard context.pointer != nil else { return }
        _ = loop.inbox.close()
        loop.prepareForDestroy()
        context.destroy()
        loop.didDestroy()
    }

    /// Asks `run()` to drain and finish, every loop; safe from any thread, idempotent: true for the
    /// call that asked first. Not from a signal handler (use a `DispatchSource` for signals).
    @discardableResult
    public func stop() -> Bool {
        let first = eventLoops[0].inbox.requestStop()
        for loop in eventLoops.dropFirst() { loop.inbox.requestStop() }
        if eventLoops[0].inbox.isOnServiceThread {
            // A timer body runs before lws polls again; make sure that poll returns at once.
            eventLoops[0].schedule(after: 0) {}
        }
        return first
    }

    /// Runs `body` on the first loop's service thread soon; safe from any thread. Bodies handed
    /// over after the server stopped are dropped.
    public func perform(_ body: @escaping @Sendable (EventLoop) -> Void) {
        eventLoops[0].perform(body)
    }
}

/// How many of a server's other loops still serve. Thread-safe.
private final class ServingCount: Sendable {
    private let count = Mutex(0)

    func set(_ value: Int) { count.withLock { $0 = value } }
    func finished() { count.withLock { $0 -= 1 } }
    var any: Bool { count.withLock { $0 > 0 } }
}

/// A loop and its context, handed to the thread that serves them (and touched by no other).
private struct ServingLoop: @unchecked Sendable {
    let loop: EventLoop
    let context: LWSContext
}

extension WebServer {
    /// The server vhost's name (the drain looks it up).
    static let vhostName = "default"
    /// protocols[0] name: the default WebSocket protocol.
    static let viewerProtocolName = "viewer"
    /// protocols[1] name: bound by the dynamic mounts, refused as a subprotocol.
    static let httpProtocolName = "http-only"

    /// Seconds lws's own head and body timeouts wait beyond `requestTimeout`, so the transport's
    /// deadline always fires first.
    static let lwsTimeoutMargin = 5

    /// Content types of static files, by suffix; "*" for the rest.
    static let contentTypes: [(suffix: String, type: String)] = [
        (".html", "text/html; charset=utf-8"),
        (".js", "text/javascript; charset=utf-8"),
        (".mjs", "text/javascript; charset=utf-8"),
        (".css", "text/css; charset=utf-8"),
        (".json", "application/json"),
        (".svg", "image/svg+xml"),
        (".png", "image/png"),
        (".ico", "image/x-icon"),
        (".txt", "text/plain; charset=utf-8"),
        (".woff2", "font/woff2"),
        ("*", "application/octet-stream"),
    ]

    /// A loop's context. `listening`: the transport's own listening socket, which this loop
    /// watches; without it the first loop has lws listen, and any other loop listens to nothing
    /// (its connections are handed to it: `EventLoop.adopt`).
    private static func makeContext(
        _ configuration: TransportConfiguration,
        address: ListenAddress,
        listening shared: SharedListeningSocket?,
        loop: EventLoop
    ) throws(TransportError) -> (LWSContext, Int) {
        let listensItself = shared == nil && loop.index == 0
        let memory = CAllocations()

        var contextInfo = lws_context_creation_info()
        // VALIDATE_UTF8: a viewer's text frame that is not UTF-8 is closed with 1007 by lws, before
        // it reaches LWS_CALLBACK_RECEIVE (RFC 6455 §8.1).
        // DO_SSL_GLOBAL_INIT: OpenSSL is initialised only for a server that serves TLS.
        contextInfo.options =
            UInt64(LWS_SERVER_OPTION_EXPLICIT_VHOSTS) | UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
            | (configuration.tls == nil ? 0 : UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT))
        contextInfo.user = Unmanaged.passUnretained(loop).toOpaque()
        contextInfo.count_threads = 1
        contextInfo.pt_serv_buf_size = 16 * 1024
        // Room for heads over the limits, so the transport sees them and answers 414 / 431
        // instead of lws closing the connection (the 16-bit field stays 0 so the 32-bit one counts).
        contextInfo.max_http_header_data = 0
        contextInfo.max_http_header_data2 = UInt32(configuration.headerBufferBytes)
        // lws's body timeout (re-armed per piece of body) backs up the transport's 408.
        contextInfo.timeout_secs = UInt32(configuration.requestTimeout + lwsTimeoutMargin)
        guard let pointer = lws_create_context(&contextInfo) else {
            throw .contextCreationFailed("lws_create_context failed (see the libwebsockets log)")
        }
        let context = LWSContext(pointer: pointer, allocations: memory)

        var vhostInfo = lws_context_creation_info()
        // Shared port: lws must not listen (it cannot share the port); the transport's own socket
        // hands it each connection (EventLoop+SharedPort). Everything else about the vhost stays.
        vhostInfo.port = listensItself ? Int32(configuration.port) : CONTEXT_PORT_NO_LISTEN_SERVER
        vhostInfo.iface = address.numeric.map { memory.string($0) }
        vhostInfo.vhost_name = memory.string(vhostName)
        vhostInfo.protocols = UnsafePointer(makeProtocols(configuration, memory))
        vhostInfo.mounts = UnsafePointer(makeMounts(configuration, memory))
        vhostInfo.retry_and_idle_policy = UnsafePointer(makePingPolicy(configuration, memory))
        // lws drops a connection whose head is still incomplete after this; the transport's own
        // deadline (`requestTimeout`) comes first and answers 408.
        vhostInfo.timeout_secs_ah_idle = UInt32(configuration.requestTimeout + lwsTimeoutMargin)
        // https and wss on the same port; `validate()` has already read both files.
        if let tls = configuration.tls {
            vhostInfo.ssl_cert_filepath = memory.string(tls.certificatePath)
            vhostInfo.ssl_private_key_filepath = memory.string(tls.privateKeyPath)
            // The transport speaks HTTP/1.1 only (docs/HTTP-EDGES.md); lws would offer h2 in ALPN,
            // and a client that takes it (curl does) gets an empty reply.
            vhostInfo.alpn = memory.string("http/1.1")
            applyTLSPolicy(tls, to: &vhostInfo, memory)
        }
        // No .extensions: permessage-deflate would keep pointers into shared frames.
        // FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG: a method lws cannot parse hands the connection
        // to protocols[0] as a raw socket (EventLoop+RawRequests) instead of lws's HTML 403.
        // No HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE: the transport writes that set of headers
        // itself (SecurityHeaders), so that the page may be framed where the application says.
        vhostInfo.options =
            UInt64(LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND)
            | UInt64(LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG)
            | (address.isIPv6 ? 0 : UInt64(LWS_SERVER_OPTION_DISABLE_IPV6))
            // lws reads this option again per vhost: without it the vhost ignores its certificate.
            | (configuration.tls == nil ? 0 : UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT))
        guard let vhost = lws_create_vhost(pointer, &vhostInfo) else {
            context.destroy()
            throw .listenFailed(
                host: configuration.host,
                port: configuration.port,
                reason: listensItself
                    ? address.bindFailureReason(port: configuration.port)
                    : "libwebsockets could not set up the server (see its log)"
            )
        }
        guard let shared else {
            if !listensItself {
                loop.adoptionVhost = vhost
                return (context, configuration.port)
            }
            return (context, Int(lws_get_vhost_listen_port(vhost)))
        }
        guard let listenerVhost = makeListenerVhost(pointer, memory),
            loop.watch(shared, listenerVhost: listenerVhost, serverVhost: vhost)
        else {
            context.destroy()
            throw .listenFailed(
                host: configuration.host,
                port: configuration.port,
                reason: "libwebsockets could not watch the shared listening socket (see its log)"
            )
        }
        return (context, shared.port)
    }

    /// The vhost that watches a shared port's listening socket (EventLoop+SharedPort): no port of
    /// its own, one raw protocol, no TLS (the listening socket carries no data; TLS is the server
    /// vhost's, which adopts the connections).
    private static func makeListenerVhost(_ context: OpaquePointer, _ memory: CAllocations) -> OpaquePointer? {
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN_SERVER
        info.vhost_name = memory.string("shared-listener")
        info.protocols = UnsafePointer(
            memory.array([
                lws_protocols(
                    name: memory.string(EventLoop.sharedListenerProtocolName),
                    callback: sharedListenerCallback,
                    per_session_data_size: 0,
                    rx_buffer_size: 0,
                    id: 0,
                    user: nil,
                    tx_packet_size: 0
                ),
                lws_protocols(),  // terminator
            ]))
        return lws_create_vhost(context, &info)
    }

    private static func makeProtocols(_ configuration: TransportConfiguration, _ memory: CAllocations) -> UnsafeMutablePointer<
        lws_protocols
    > {
        memory.array([
            lws_protocols(
                name: memory.string(viewerProtocolName),
                callback: viewerProtocolCallback,
                per_session_data_size: 0,
                // Viewers only send control frames (≤ 125 bytes); this is lws's per-viewer rx buffer.
                rx_buffer_size: 256,
                id: 0,
                user: nil,
                // lws splits any write larger than this and copies the rest; let a whole frame go
                // to the kernel in one send().
                tx_packet_size: configuration.maxMessageBytes + 64
            ),
            lws_protocols(
                name: memory.string(httpProtocolName),
                callback: httpProtocolCallback,
                per_session_data_size: 0,
                rx_buffer_size: 0,
                id: 1,
                user: nil,
                tx_packet_size: EventLoop.httpChunkBytes + 8192
            ),
            lws_protocols(),  // terminator (LWS_PROTOCOL_LIST_TERM is missing in 4.1.6)
        ])
    }

    /// Callback mounts for the dynamic prefixes. There is no file mount: lws serves a mount's
    /// file from inside its parser, over the unread rest of a pipelined request, so static files
    /// go through `EventLoop.route(for:)` and `lws_serve_http_file` instead (see `StaticFile`).
    private static func makeMounts(_ configuration: TransportConfiguration, _ memory: CAllocations) -> UnsafeMutablePointer<
        lws_http_mount
    >? {
        let mounts: [lws_http_mount] = configuration.dynamicPrefixes.map { prefix in
            var mount = lws_http_mount()
            mount.mountpoint = memory.string(prefix)
            mount.protocol = memory.string(httpProtocolName)
            mount.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
            mount.mountpoint_len = UInt8(prefix.utf8.count)
            return mount
        }
        guard !mounts.isEmpty else { return nil }
        let list = memory.array(mounts)
        for index in 0..<(mounts.count - 1) {
            list[index].mount_next = UnsafePointer(list + index + 1)
        }
        return list
    }

    /// lws pings a viewer `pingInterval` seconds after its last pong and drops it if no pong
    /// follows within `stallTimeout` more seconds; a zero hangup time switches this off.
    private static func makePingPolicy(_ configuration: TransportConfiguration, _ memory: CAllocations) -> UnsafeMutablePointer<
        lws_retry_bo_t
    > {
        var policy = lws_retry_bo_t()
        if configuration.pingInterval > 0 {
            policy.secs_since_valid_ping = UInt16(configuration.pingInterval)
            policy.secs_since_valid_hangup = UInt16(min(65535, configuration.pingInterval + configuration.stallTimeout))
        }
        return memory.single(policy)
    }
}
