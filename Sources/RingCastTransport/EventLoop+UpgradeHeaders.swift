internal import CLibWebSockets

/// The `101 Switching Protocols` answer lws writes for an admitted viewer: the delegate's headers
/// go into it (the cluster node's name, for one). Service thread only.
extension EventLoop {
    /// LWS_CALLBACK_ADD_HEADERS: lws has written the 101's own headers into its buffer and asks
    /// for more before the blank line. Returning nonzero fails the upgrade, so a header that does
    /// not fit is left out (and logged) instead.
    func handleUpgradeHeaders(_ wsi: OpaquePointer, _ arguments: UnsafeMutablePointer<lws_process_html_args>) -> Int32 {
        guard let viewer = viewer(of: wsi), let delegate, let start = arguments.pointee.p else { return 0 }
        let headers = delegate.upgradeHeaders(for: viewer.id)
        guard !headers.isEmpty else { return 0 }
        let buffer = UnsafeMutableRawPointer(start).assumingMemoryBound(to: UInt8.self)
        let end = buffer + Int(max(0, arguments.pointee.max_len))
        var position: UnsafeMutablePointer<UInt8>? = buffer
        for header in headers {
            // Lowercase names, as on every other answer the transport writes.
            let name = Array((header.name.lowercased() + ":").utf8CString).map { UInt8(bitPattern: $0) }
            let value = Array(header.value.utf8)
            // Out of room, lws may have written part of the name already: step back over it.
            let before = position
            if lws_add_http_header_by_name(wsi, name, value, Int32(value.count), &position, end) != 0 {
                position = before
                TransportLog.emit("the 101 to \(viewer.id) has no room for header \(header.name); left out")
            }
        }
        guard let written = position else { return 0 }
        arguments.pointee.p = UnsafeMutableRawPointer(written).assumingMemoryBound(to: CChar.self)
        arguments.pointee.max_len -= Int32(written - buffer)
        return 0
    }
}
