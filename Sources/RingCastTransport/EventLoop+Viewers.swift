internal import CLibWebSockets

/// WebSocket viewers: admission, writes in SERVER_WRITEABLE, close. Service thread only.
extension EventLoop {
    /// Which vhost protocol lws bound an upgrade to.
    enum UpgradeProtocol {
        /// protocols[0], the default every browser gets (it names no subprotocol).
        case viewer
        /// The HTTP-only protocol, which a client can still name as its subprotocol.
        case httpOnly
    }

    /// LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: lws picks the protocol by subprotocol name, never
    /// by path, so the path is checked here; refusals are written at once, then lws closes.
    func handleUpgrade(_ wsi: OpaquePointer, via bound: UpgradeProtocol) -> Int32 {
        guard bound == .viewer else {
            let named = RequestReader.header(WSI_TOKEN_PROTOCOL, of: wsi) ?? ""
            writeAndClose(wsi, errorResponse(status: 403, message: "subprotocol \"\(named)\" is not offered here; name none"))
            return 1
        }
        guard phase == .running || phase == .starting else {
            writeAndClose(wsi, errorResponse(status: 503, message: "the server is shutting down"))
            return 1
        }
        guard let request = RequestReader.request(of: wsi, customHeaderNames: configuration.customHeaderNames) else {
            return 1
        }
        guard request.path == configuration.websocketPath else {
            let message = "no WebSocket endpoint at \(request.path); use \(configuration.websocketPath)"
            writeAndClose(wsi, errorResponse(status: 404, message: message))
            return 1
        }
        guard let delegate else {
            writeAndClose(wsi, errorResponse(status: 503, message: "the server is not ready"))
            return 1
        }
        let id = ViewerID(rawValue: makeID())
        switch delegate.admitViewer(request, id: id) {
        case .reject(let response):
            writeAndClose(wsi, response)
            return 1
        case .accept(let key, let greeting, let sequence):
            let channel = channels[key.hashed] ?? Channel(key: key)
            channels[key.hashed] = channel
            let sendable = greeting.filter { message in
                guard message.count <= configuration.maxMessageBytes else {
                    TransportLog.emit("dropped a \(message.count)-byte greeting for \(id): over maxMessageBytes")
                    return false
                }
                return true
            }
            let viewer = Viewer(id: id, wsi: wsi, channel: channel, greeting: sendable, sequence: sequence)
            statistics.viewersAdmitted += 1
            defer { scheduleStallSweep() }
            viewers[id] = viewer
            channel.viewers[id] = viewer
            setConnectionID(id.rawValue, of: wsi)
            return 0
        case .refuseAfterUpgrade(let message, let code, let reason):
            // A channel of its own that nothing publishes to: the message, then the close.
            let viewer = Viewer(
                id: id, wsi: wsi, channel: Channel(key: RefusedViewer(id: id)), greeting: [message], sequence: nil)
            viewer.closeAfterGreeting = (code, reason)
            viewers[id] = viewer
            setConnectionID(id.rawValue, of: wsi)
            return 0
        }
    }

    /// What lws 4.1.6 would refuse by closing without an answer, checked in HTTP_CONFIRM_UPGRADE
    /// (before lws looks at the upgrade) so the client hears why: the head's limits, a Connection
    /// header without "upgrade", a missing key, and a subprotocol list without ours. lws goes on
    /// with any version; RFC 6455 §4.4 wants 426 naming the one spoken.
    func upgradeProblem(_ wsi: OpaquePointer) -> RequestProblem? {
        if let problem = RequestReader.problem(of: wsi, configuration: configuration) {
            return problem
        }
        let connection = RequestReader.header(WSI_TOKEN_CONNECTION, of: wsi) ?? ""
        guard connection.split(separator: ",").contains(where: { String($0).trimmingWhitespace().lowercased() == "upgrade" })
        else {
            return RequestProblem(status: 400, message: "a WebSocket upgrade needs \"Connection: Upgrade\"")
        }
        guard RequestReader.header(WSI_TOKEN_VERSION, of: wsi) == "13" else {
            return RequestProblem(
                status: 426, message: "only WebSocket version 13 is spoken here", headers: [("Sec-WebSocket-Version", "13")])
        }
        guard RequestReader.header(WSI_TOKEN_KEY, of: wsi)?.isEmpty == false else {
            return RequestProblem(status: 400, message: "a WebSocket upgrade needs a Sec-WebSocket-Key header")
        }
        if let offered = RequestReader.header(WSI_TOKEN_PROTOCOL, of: wsi),
            !offered.split(separator: ",").contains(where: { String($0).trimmingWhitespace() == WebServer.viewerProtocolName })
        {
            return RequestProblem(status: 403, message: "subprotocol \"\(offered)\" is not offered here; name none")
        }
        return nil
    }

    /// LWS_CALLBACK_ESTABLISHED: the 101 went out; cap the socket's send buffer and what it holds
    /// unsent, and start sending the greeting.
    func handleEstablished(_ wsi: OpaquePointer) {
        guard let viewer = viewer(of: wsi) else { return }
        limitSendBuffer(of: wsi)
        limitUnsentBytes(of: wsi)
        viewer.isEstablished = true
        requestWrite(viewer)
    }

    /// LWS_CALLBACK_SERVER_WRITEABLE: one message per callback — the greeting in order, then the
    /// channel's newest if not sent yet — and another callback while anything is pending. A message
    /// is written only where the peer's window has room for it (`SendPacing`); otherwise the viewer
    /// is held and looked at again shortly, still owing the newest.
    func handleViewerWritable(_ wsi: OpaquePointer) -> Int32 {
        guard let viewer = viewer(of: wsi) else { return 0 }
        viewer.writeRequested = false
        if let close = viewer.pendingClose {
            var reason = Array(close.reason.utf8.prefix(123))
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(clamping: close.code)), &reason, reason.count)
            return -1
        }
        guard let size = viewer.nextMessageSize else { return 0 }
        if !viewer.pacing.covers(size), let state = sendState(of: wsi) {
            let held = now() - viewer.waitingSince
            if held > TransportConfiguration.heldViewerSettle {
                viewer.pacing.settle(on: state, whateverTheWindow: held > Double(configuration.stallTimeout) * 0.6)
            }
            if !viewer.pacing.check(state, for: size) {
                hold(viewer)
                return 0
            }
        }
        guard let (message, skipped) = viewer.nextMessage() else { return 0 }
        viewer.pacing.spend(message.count)
        do {
            try message.write(to: wsi)
        } catch {
            TransportLog.emit("\(error); closing \(viewer.id)")
            return -1
        }
        statistics.messagesSent += 1
        statistics.bytesSent += UInt64(message.count)
        statistics.messagesSkipped += skipped
        if let close = viewer.closeAfterGreeting, !viewer.hasPendingMessage {
            viewer.pendingClose = close
        }
        // More greeting, or a newer frame published meanwhile. Stalls are found by the sweep
        // below, not by an lws timeout per write: lws keeps its timeouts in one sorted list, so
        // re-arming one after every write cost time in proportion to the number of viewers.
        requestWrite(viewer)
        return 0
    }

    /// LWS_CALLBACK_RECEIVE: viewers are read-only; data frames end the connection with 1003.
    /// (Control frames never get here: lws answers pings and closes itself. A text frame that is
    /// not UTF-8 never gets here either: LWS_SERVER_OPTION_VALIDATE_UTF8 has lws close with 1007.)
    func handleViewerData(_ wsi: OpaquePointer) -> Int32 {
        var reason = Array("viewers are read-only".utf8)
        lws_close_reason(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, &reason, reason.count)
        return -1
    }

    /// LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL / LWS_CALLBACK_CLOSED: the connection is going.
    func handleViewerGone(_ wsi: OpaquePointer) {
        guard let viewer = viewer(of: wsi) else { return }
        if viewer.evictedForStall { statistics.viewersClosedWhileStalled += 1 }
        viewers[viewer.id] = nil
        viewer.channel.viewers[viewer.id] = nil
        if viewer.channel.viewers.isEmpty, channels[viewer.channel.key.hashed] === viewer.channel {
            channels[viewer.channel.key.hashed] = nil
        }
        setConnectionID(0, of: wsi)
        delegate?.viewerDidDisconnect(viewer.id, channel: viewer.channel.key)
    }

    /// Asks lws for a writeable callback if the viewer has something to send (or `force`).
    /// `waitingSince`: when the viewer began to wait, if before now (a held viewer's stall clock
    /// keeps running across its looks).
    func requestWrite(_ viewer: Viewer, force: Bool = false, waitingSince: Double? = nil) {
        guard isLive, viewer.isEstablished, !viewer.writeRequested else { return }
        guard force || viewer.pendingClose != nil || viewer.hasPendingMessage else { return }
        viewer.writeRequested = true
        viewer.waitingSince = waitingSince ?? now()
        lws_callback_on_writable(viewer.wsi)
    }

    /// Holds `viewer` back: its peer's window has no room for the next message, so writing it would
    /// leave it waiting in the kernel, going stale. It still counts as waiting (the stall sweep closes
    /// it after the stall timeout, as any viewer that takes nothing), publishes do not wake it, and
    /// a timer looks again every `heldViewerRetry` seconds; a close asked for meanwhile goes out then.
    private func hold(_ viewer: Viewer) {
        viewer.writeRequested = true
        viewer.isHeld = true
        viewer.pacing.forget()
        statistics.viewersHeld += 1
        let id = viewer.id
        schedule(after: TransportConfiguration.heldViewerRetry) { [weak self] in
            guard let self, let viewer = self.viewers[id], viewer.isHeld, !viewer.evictedForStall else { return }
            viewer.isHeld = false
            viewer.writeRequested = false
            self.requestWrite(viewer, force: true, waitingSince: viewer.waitingSince)
        }
    }

    /// Closes every viewer that has waited for its socket to take data longer than the stall
    /// timeout (it stopped reading); runs once a second while there are viewers.
    func sweepStalledViewers() {
        let now = now()
        let limit = Double(configuration.stallTimeout)
        for viewer in viewers.values
        where viewer.writeRequested && !viewer.evictedForStall && now - viewer.waitingSince > limit {
            viewer.evictedForStall = true
            TransportLog.emit("closing \(viewer.id): it took no data for \(configuration.stallTimeout) s")
            // LWS_TO_KILL_ASYNC: a stalled socket cannot take a close frame; drop it at once, with
            // a reset that frees what the kernel still holds for it.
            resetOnClose(viewer.wsi)
            lws_set_timeout(viewer.wsi, PENDING_TIMEOUT_USER_OK, -1)
        }
        if index > 0 { mirrorStatistics() }
        scheduleStallSweep()
    }

    /// Keeps one sweep scheduled while any viewer is connected.
    func scheduleStallSweep() {
        guard isLive, !stallSweepScheduled, !viewers.isEmpty else { return }
        stallSweepScheduled = true
        schedule(after: 1) { [weak self] in
            self?.stallSweepScheduled = false
            self?.sweepStalledViewers()
        }
    }

    func viewer(of wsi: OpaquePointer) -> Viewer? {
        let id = connectionID(of: wsi)
        return id == 0 ? nil : viewers[ViewerID(rawValue: id)]
    }
}
