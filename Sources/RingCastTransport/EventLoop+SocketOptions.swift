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
