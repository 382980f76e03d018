internal import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel side of a viewer's socket: what it may queue, and how it ends when the viewer stops
/// reading. lws holds at most one partly sent message per viewer; everything else a viewer has
/// not read waits in the kernel, which is what these bound. Service thread only.
extension EventLoop {
    /// Caps the kernel send buffer of a viewer's socket at `viewerSendBufferBytes` (the 101 has
    /// gone out). Setting SO_SNDBUF also stops the kernel's autotuning, which would otherwise grow
    /// the buffer of a viewer that stopped reading to megabytes. A failure costs only the cap.
    func limitSendBuffer(of wsi: OpaquePointer) {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return }
        var bytes = Int32(clamping: configuration.viewerSendBufferBytes)
        if setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            TransportLog.emit("cannot set SO_SNDBUF \(bytes) on a viewer's socket: errno \(errno)")
        }
    }

    /// Bounds what the kernel holds unsent for a viewer (TCP_NOTSENT_LOWAT): the socket reports
    /// itself writeable only while fewer than `viewerUnsentBytes` wait to be sent, so a viewer the
    /// network cannot keep up with skips to the newest frame instead of queueing old ones. Window
    /// pacing (`SendPacing`) does the same for a viewer that stops reading. A failure costs only the
    /// bound.
    func limitUnsentBytes(of wsi: OpaquePointer) {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return }
        var bytes = Int32(clamping: TransportConfiguration.viewerUnsentBytes)
        if setsockopt(fd, Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, &bytes, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            TransportLog.emit("cannot set TCP_NOTSENT_LOWAT \(bytes) on a viewer's socket: errno \(errno)")
        }
    }

    /// The sending side of a viewer's socket (TCP_INFO), or nil where the kernel does not tell its
    /// peer's window (before Linux 6.2): such viewers are written to as the socket takes data.
    func sendState(of wsi: OpaquePointer) -> SendPacing.SocketState? {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return nil }
        var state = clws_send_state()
        guard clws_send_state_of(fd, &state) == 0 else { return nil }
        return SendPacing.SocketState(
            window: Int(state.window), inFlight: Int(clamping: state.in_flight), unsent: Int(state.unsent))
    }

    /// Makes the close lws is about to do reset the connection (SO_LINGER on, zero seconds): the
    /// kernel then drops what the socket still holds at once. A plain close would queue a FIN
    /// behind those bytes and keep them, in FIN-WAIT-1, for as long as the client keeps its end
    /// open without reading. Only for a viewer evicted for not reading: it can take nothing more,
    /// not even a close frame.
    func resetOnClose(_ wsi: OpaquePointer) {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return }
        var option = linger(l_onoff: 1, l_linger: 0)
        if setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size)) != 0 {
            TransportLog.emit("cannot set SO_LINGER on a stalled viewer's socket: errno \(errno)")
        }
    }
}
