internal import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// `sharePort`: several servers on one port. libwebsockets 4.1.6 cannot share a listening port
/// (it sets SO_REUSEPORT only with several service threads, and Debian builds it with
/// LWS_MAX_SMP 1, so `LWS_SERVER_OPTION_ALLOW_LISTEN_SHARE` does nothing and a second server fails
/// to bind). So the server vhost is created with `CONTEXT_PORT_NO_LISTEN_SERVER`, and the
/// transport listens itself (`SharedListeningSocket`, SO_REUSEPORT) on a socket that lws watches
/// as a raw file descriptor, adopted into a vhost of its own with one raw protocol
/// (`sharedListenerCallback`). When the socket is readable the transport accepts every pending
/// connection and hands each to `lws_adopt_socket_vhost`, the same adoption lws's own listener
/// performs (`rops_handle_POLLIN_listen` in lws 4.1.6): from there on, HTTP, WebSocket and TLS
/// go exactly as on a port lws listens on. Service thread only (and, before `run()`, the thread
/// that creates the server).
extension EventLoop {
    /// The transport's listening socket as lws watches it.
    struct SharedListener {
        /// The raw-file connection lws watches the socket through; lws closes the socket with it.
        let wsi: OpaquePointer
        let descriptor: Int32
        /// The vhost accepted connections are adopted into (the one serving HTTP and WebSocket).
        let serverVhost: OpaquePointer
    }

    /// The raw protocol that watches the listening socket. It lives alone on its own vhost: any
    /// protocol on the server vhost could be named as a WebSocket subprotocol by a client.
    static let sharedListenerProtocolName = "shared-listener"

    /// How long accepting pauses when the process or system is out of descriptors or memory: the
    /// socket stays readable, and without a pause the loop would spin on accept's error.
    static let acceptPauseMicroseconds: Int64 = 100_000

    /// Has lws watch `socket` (through `listenerVhost`) and adopt what it accepts into
    /// `serverVhost`. False when lws refused. Either way lws may own the descriptor now: a raw
    /// file adoption that fails late (its fd table full) leaves it with the half-made connection,
    /// which `lws_context_destroy` closes; one that fails early does not. Not knowing which, the
    /// socket lets go of it: leaking one descriptor of a server that failed to start beats closing
    /// a number another thread may already have been given again.
    func watch(_ socket: SharedListeningSocket, listenerVhost: OpaquePointer, serverVhost: OpaquePointer) -> Bool {
        var descriptor = lws_sock_file_fd_type()
        descriptor.filefd = socket.descriptor
        let adopted = Self.sharedListenerProtocolName.withCString { name in
            // The name is only looked up during the call.
            lws_adopt_descriptor_vhost(listenerVhost, LWS_ADOPT_RAW_FILE_DESC, descriptor, name, nil)
        }
        socket.release()
        guard let wsi = adopted else { return false }
        sharedListener = SharedListener(wsi: wsi, descriptor: socket.descriptor, serverVhost: serverVhost)
        return true
    }

    /// LWS_CALLBACK_RAW_RX_FILE on the listener: accepts every pending connection, as lws's own
    /// listener does, and gives each to lws.
    func handleListenerReadable(_ wsi: OpaquePointer) -> Int32 {
        guard let listener = sharedListener, listener.wsi == wsi else { return 0 }
        while true {
            let client = clws_accept_nonblocking(listener.descriptor)
            guard client >= 0 else {
                let code = errno
                switch code {
                case EAGAIN, EWOULDBLOCK:
                    return 0
                case EINTR, ECONNABORTED, EPROTO:
                    continue  // that one connection is gone; the rest are still queued
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    TransportLog.emit(
                        "accept on the shared port: \(String(cString: strerror(code))); pausing accepts for 100 ms")
                    pauseAccepting(listener)
                    return 0
                default:
                    TransportLog.emit("accept on the shared port: \(String(cString: strerror(code)))")
                    return 0
                }
            }
            // What LWS_CALLBACK_FILTER_NETWORK_CONNECTION decides for lws's own listener (lws does
            // not call it for adopted sockets); normally the socket is already closed by then.
            guard handleNewConnection() == 0 else {
                Glibc.close(client)
                continue
            }
            // lws's listener disables Nagle on each accepted socket (lws_plat_set_socket_options);
            // adoption does not, and frames must not wait for an ACK.
            var yes: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            // A server of several loops deals its connections out in turn (`LoopGroup`).
            if let group, group.deal(client) { continue }
            // lws owns `client` from here, and closes it itself when adoption fails.
            if lws_adopt_socket_vhost(listener.serverVhost, client) == nil {
                TransportLog.emit("libwebsockets could not adopt a connection accepted on the shared port")
            }
        }
    }

    /// Stops lws polling the socket for a moment; connections wait in the kernel's queue.
    private func pauseAccepting(_ listener: SharedListener) {
        // Inside the listener's RX callback lws applies this when the callback returns.
        lws_rx_flow_control(listener.wsi, 0)
        timers.schedule(afterMicroseconds: Self.acceptPauseMicroseconds) { [self] in
            guard let current = sharedListener, current.wsi == listener.wsi else { return }
            lws_rx_flow_control(current.wsi, 1)
        }
    }

    /// LWS_CALLBACK_RAW_CLOSE_FILE on the listener: lws closed the socket (context destroyed, or
    /// lws gave up on it).
    func handleListenerClosed(_ wsi: OpaquePointer) {
        guard let listener = sharedListener, listener.wsi == wsi else { return }
        sharedListener = nil
        if phase == .running || phase == .starting {
            TransportLog.emit("libwebsockets closed the shared listening socket: no new connections on this server")
        }
    }

    /// Closes the listening socket now, so the kernel sends new connections on the port to the
    /// other servers sharing it. Connections already waiting in this socket's queue are reset by
    /// the kernel (unless net.ipv4.tcp_migrate_req moves them to another listener).
    func closeSharedListener() {
        guard let listener = sharedListener else { return }
        sharedListener = nil
        // Closes the descriptor too; RAW_CLOSE_FILE arrives before this returns and finds nothing.
        lws_set_timeout(listener.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC)
    }
}
