internal import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// Stopping without dropping answers. `WebServer.stop()` starts a drain, bounded by
/// `TransportConfiguration.drainTimeout`:
///
/// 1. The listening sockets stop taking new connections at once (a socket filter drops their
///    SYNs, `clws_drop_new_connections`), keep accepting for `Drain.handshakeGrace` the connections
///    whose handshake was under way, then close once the kernel holds none for them: closing a
///    listener resets the connections still queued on it, whose clients may have sent a request.
///    From then on new clients are refused, and on a shared port the other servers take them.
/// 2. Every request already received is carried out and answered with `Connection: close`.
///    Requests that arrive during the drain — on a keep-alive connection, or still arriving when
///    it began — are read in full, then answered 503 with `Retry-After` and `Connection: close`,
///    without reaching the delegate. No connection is closed under a request it has sent.
/// 3. Viewers get a close frame with 1001 (going away), and `Drain.viewerGrace` to answer it.
/// 4. Keep-alive connections waiting between requests are closed once no request is left and
///    they have been idle for `Drain.idleGrace` (and have no unread bytes).
///
/// What is still open at the deadline is cut (`DrainReport` says what). lws tells the transport of
/// every connection it makes on the server vhost (LWS_CALLBACK_WSI_CREATE … WSI_DESTROY), which
/// is how the idle ones are found. Service thread only.
extension EventLoop {
    /// One connection lws made on the server vhost, from LWS_CALLBACK_WSI_CREATE to WSI_DESTROY.
    struct TrackedConnection {
        /// When it last began waiting for its client (accepted, a head read, an answer finished),
        /// on the loop's clock. Only read while it has no request.
        var lastActivity: Double
        /// Closing: after an answer with `Connection: close`, or asked by the drain.
        var closing = false
    }

    /// LWS_CALLBACK_WSI_CREATE (protocols[0] of the server vhost): a connection was accepted or
    /// adopted.
    func handleConnectionCreated(_ wsi: OpaquePointer) {
        connections[wsi] = TrackedConnection(lastActivity: now())
    }

    /// LWS_CALLBACK_WSI_DESTROY: the connection is gone (the listening socket's own destroy, never
    /// created as one of these, finds nothing).
    func handleConnectionDestroyed(_ wsi: OpaquePointer) {
        connections[wsi] = nil
    }

    /// The connection waits for its client from now on (see `armRequestTimer`).
    func noteActivity(_ wsi: OpaquePointer) {
        connections[wsi]?.lastActivity = now()
    }

    /// `stop()`: refuse new connections, answer what was received with `Connection: close`, close
    /// viewers with 1001.
    func beginDraining() {
        let open = openWork()
        phase = .draining
        drain = Drain(
            started: now(), timeout: configuration.drainTimeout, requestsInFlight: open.requests, viewers: viewers.count)
        refuseNewConnections()
        for exchange in exchanges.values where !exchange.hasWrittenHead {
            exchange.closesConnection = true
        }
        for viewer in viewers.values where viewer.pendingClose == nil {
            viewer.pendingClose = (Int(LWS_CLOSE_STATUS_GOINGAWAY.rawValue), "server shutting down")
            requestWrite(viewer, force: true)
        }
        scheduleDrainTick()
    }

    /// LWS_CALLBACK_USER, sent by `refuseNewConnections` to every connection of the server vhost:
    /// notes the one whose socket listens (lws's own listener, which is never created as one of
    /// the tracked connections).
    func handleConnectionWalk(_ wsi: OpaquePointer) {
        guard connections[wsi] == nil else { return }
        let fd = lws_get_socket_fd(wsi)
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard fd >= 0, getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening != 0 else { return }
        listeners.append(wsi)
    }

    /// Makes every listening socket drop new connections' SYNs: lws's own (found by asking lws to
    /// call protocols[0] for every connection of the vhost, `handleConnectionWalk` picking the
    /// listening one, since lws offers no other way to name it) and a shared port's. Where that
    /// fails they close at once instead.
    private func refuseNewConnections() {
        listeners = []
        if let context, let vhost = lws_get_vhost_by_name(context, WebServer.vhostName) {
            lws_callback_all_protocol_vhost_args(vhost, nil, Int32(LWS_CALLBACK_USER.rawValue), nil, 0)
        }
        let descriptors = listeners.map { lws_get_socket_fd($0) } + (sharedListener.map { [$0.descriptor] } ?? [])
        for fd in descriptors where clws_drop_new_connections(fd) != 0 {
            TransportLog.emit(
                "cannot make the listening socket drop new connections (\(String(cString: strerror(errno)))); closing it now"
            )
            closeListeningSockets()
            return
        }
    }

    /// Connections the kernel has set up on the listening sockets that lws has not accepted yet.
    private func queuedConnections() -> Int {
        let descriptors = listeners.map { lws_get_socket_fd($0) } + (sharedListener.map { [$0.descriptor] } ?? [])
        return descriptors.reduce(0) { $0 + max(0, Int(clws_accept_queue_length($1))) }
    }

    /// Closes the listening sockets. lws's own go as `lws_context_deprecate` would close them (it
    /// means to, but in 4.1.6 reads the listening connection after freeing it: it crashed here):
    /// `lws_close_free_wsi`, which also forgets it as the vhost's listener. A shared port's socket is
    /// the transport's own (`closeSharedListener`).
    private func closeListeningSockets() {
        for wsi in listeners {
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC)
        }
        listeners = []
        closeSharedListener()
        drain?.listening = false
    }

    /// Looks at what is still open and acts on it; false once the drain is over (everything
    /// answered and closed, or the deadline passed). Called after every service round.
    func continueDraining() -> Bool {
        guard let started = drain else { return false }
        if started.listening {
            guard started.mayCloseListeners(at: now(), queued: queuedConnections()) else { return true }
            closeListeningSockets()
        }
        guard var drain else { return false }
        let open = openWork()
        let now = now()
        switch drain.step(at: now, requests: open.requests, idleConnections: open.idle.count, viewers: viewers.count) {
        case .wait:
            return true
        case .closeIdle:
            for (wsi, connection) in open.idle
            where !connection.closing && drain.mayClose(idleSince: connection.lastActivity, at: now) {
                connections[wsi]?.closing = true
                drain.report.idleConnectionsClosed += 1
                // Closed on lws's next round, outside this walk over the connections.
                lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            }
            self.drain = drain
            return true
        case .finish:
            return false
        }
    }

    /// The drain's report, with whatever is still open counted as cut; nil when no drain ran.
    func finishDraining() -> DrainReport? {
        guard let drain else { return nil }
        self.drain = nil
        let open = openWork()
        var cut = exchanges.values.filter { !$0.isAnswered }.map { "\($0.request.method) \($0.request.path)" }
        cut += Array(repeating: "a request still arriving", count: max(0, open.requests - cut.count))
        return drain.finished(at: now(), cutRequests: cut.sorted(), openConnections: open.idle.count, viewers: viewers.count)
    }

    /// A request that arrived during the drain: 503, nothing carried out, the connection closed.
    func refuseWhileDraining(_ exchange: HTTPExchange) {
        exchange.closesConnection = true
        drain?.report.refused += 1
        let problem = RequestProblem(
            status: 503,
            message: "the server is shutting down and did not carry out this request; "
                + "retry it (another node takes it, or this one once it is back)",
            headers: [("Retry-After", "1")])
        respond(to: exchange.id, with: errorResponse(for: problem))
    }

    /// The connection closes after the answer just written (`Connection: close`): no longer a
    /// request, not to be closed again.
    func noteClosing(_ wsi: OpaquePointer) {
        connections[wsi]?.closing = true
    }

    /// Counts an answer whose last byte was written during the drain.
    func noteAnsweredWhileDraining(status: Int) {
        drain?.answered(status: status)
    }

    /// Requests being received or answered (a head under way counts, so do bytes not read yet),
    /// and the connections waiting between requests. Viewers are counted apart.
    private func openWork() -> (requests: Int, idle: [(wsi: OpaquePointer, connection: TrackedConnection)]) {
        var requests = rawHeads.count + exchanges.values.filter { !$0.isAnswered }.count
        var idle: [(wsi: OpaquePointer, connection: TrackedConnection)] = []
        for (wsi, connection) in connections where connectionID(of: wsi) == 0 {
            // Nonzero: a viewer, an exchange or a raw connection, all counted above.
            if !connection.closing, RequestReader.methodAndPath(of: wsi) != nil || hasUnreadInput(wsi) {
                requests += 1
            } else {
                idle.append((wsi, connection))
            }
        }
        return (requests, idle)
    }

    /// Whether the client has sent bytes lws has not read yet (a request on its way in).
    private func hasUnreadInput(_ wsi: OpaquePointer) -> Bool {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }

    /// Wakes the loop now and then, so idle connections and the deadline are looked at even when
    /// nothing happens on the sockets.
    private func scheduleDrainTick() {
        timers.schedule(afterMicroseconds: Drain.tickMicroseconds) { [weak self] in
            guard let self, phase == .draining else { return }
            scheduleDrainTick()
        }
    }
}

extension HTTPExchange {
    /// The answer is written (a raw connection lingering for its client to close aside).
    var isAnswered: Bool {
        switch state {
        case .answered, .lingering: true
        default: false
        }
    }

    /// The response head has gone out, so whether the connection closes after it is settled.
    var hasWrittenHead: Bool {
        switch state {
        case .receivingBody, .awaitingResponse, .writingHeaders: false
        default: true
        }
    }
}
