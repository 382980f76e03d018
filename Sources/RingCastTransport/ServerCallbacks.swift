internal import CLibWebSockets

// The C entry points of a `WebServer`. Each only switches on the reason and calls one small
// `EventLoop` method; unhandled reasons go to `lws_callback_http_dummy`.

/// protocols[0]: WebSocket viewers (browsers name no subprotocol, so they get the default), every
/// plain HTTP request that no callback mount claims, and the raw connections lws hands over when
/// it cannot parse a request.
func viewerProtocolCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        // Sent to every protocol; handled here only.
        loop(of: wsi)?.handleWaitCancelled()
        return 0
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return loop(of: wsi)?.handleNewConnection() ?? 0
    case LWS_CALLBACK_WSI_CREATE:
        // Every connection of the server vhost, whatever it becomes (HTTP, viewer, raw); lws
        // sends both to protocols[0]. Then on to the dummy callback, as before.
        if let wsi { loop(of: wsi)?.handleConnectionCreated(wsi) }
    case LWS_CALLBACK_WSI_DESTROY:
        if let wsi { loop(of: wsi)?.handleConnectionDestroyed(wsi) }
    case LWS_CALLBACK_USER:
        // The drain's walk over the vhost's connections, looking for the listening one.
        if let wsi { loop(of: wsi)?.handleConnectionWalk(wsi) }
        return 0
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
        if let wsi { loop(of: wsi)?.handleAccepted(wsi) }
        return 0
    case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
        if let wsi, let loop = loop(of: wsi) { return loop.handleFilterHTTP(wsi) }
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        guard let wsi, let loop = loop(of: wsi) else { return -1 }
        // `input` is lws's copy of the Upgrade value, NUL-terminated.
        return loop.handleConfirmUpgrade(wsi, token: input?.assumingMemoryBound(to: CChar.self))
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        guard let wsi, let loop = loop(of: wsi) else { return 1 }
        return loop.handleUpgrade(wsi, via: .viewer)
    case LWS_CALLBACK_ADD_HEADERS:
        // Only the 101 of a viewer's upgrade asks here (lws asks file mounts too; there are none).
        guard let wsi, let loop = loop(of: wsi), let input else { return 0 }
        return loop.handleUpgradeHeaders(wsi, input.assumingMemoryBound(to: lws_process_html_args.self))
    case LWS_CALLBACK_ESTABLISHED:
        if let wsi { loop(of: wsi)?.handleEstablished(wsi) }
        return 0
    case LWS_CALLBACK_SERVER_WRITEABLE:
        guard let wsi, let loop = loop(of: wsi) else { return 0 }
        return loop.handleViewerWritable(wsi)
    case LWS_CALLBACK_RECEIVE:
        guard let wsi, let loop = loop(of: wsi) else { return -1 }
        return loop.handleViewerData(wsi)
    case LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL, LWS_CALLBACK_CLOSED:
        if let wsi { loop(of: wsi)?.handleViewerGone(wsi) }
        return 0
    case LWS_CALLBACK_RAW_ADOPT:
        // A method lws cannot parse, or CONNECT: lws hands the connection over as a raw socket.
        guard let wsi, let loop = loop(of: wsi) else { return -1 }
        return loop.handleRawAdopt(wsi)
    case LWS_CALLBACK_RAW_RX:
        guard let wsi, let loop = loop(of: wsi) else { return -1 }
        return loop.handleRawData(wsi, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
    case LWS_CALLBACK_RAW_WRITEABLE:
        guard let wsi, let loop = loop(of: wsi) else { return -1 }
        return loop.handleHTTPWritable(wsi) ?? 0
    case LWS_CALLBACK_RAW_CLOSE:
        if let wsi { loop(of: wsi)?.handleRawGone(wsi) }
        return 0
    default:
        if let answer = handleHTTPReason(wsi, reason, input, length) { return answer }
    }
    return lws_callback_http_dummy(wsi, reason, user, input, length)
}

/// protocols[1]: bound by the `LWSMPRO_CALLBACK` mounts of the dynamic prefixes. Never a
/// WebSocket protocol, though lws would upgrade to it if a client named it as subprotocol.
func httpProtocolCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    switch reason {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        guard let wsi, let loop = loop(of: wsi) else { return 1 }
        return loop.handleUpgrade(wsi, via: .httpOnly)
    default:
        if let answer = handleHTTPReason(wsi, reason, input, length) { return answer }
    }
    return lws_callback_http_dummy(wsi, reason, user, input, length)
}

/// The one protocol of the shared-port listener's vhost (`sharePort`, EventLoop+SharedPort): lws
/// watches the transport's listening socket as a raw file and says when it is readable.
func sharedListenerCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    switch reason {
    case LWS_CALLBACK_RAW_RX_FILE:
        guard let wsi, let loop = loop(of: wsi) else { return 0 }
        return loop.handleListenerReadable(wsi)
    case LWS_CALLBACK_RAW_CLOSE_FILE:
        if let wsi { loop(of: wsi)?.handleListenerClosed(wsi) }
        return 0
    default:
        // EVENT_WAIT_CANCELLED reaches this protocol too; protocols[0] of the server vhost runs it.
        return 0
    }
}

/// The HTTP reasons both protocols share. Nil: not ours, let the dummy callback have it.
private func handleHTTPReason(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32? {
    guard let wsi, let loop = loop(of: wsi) else { return nil }
    switch reason {
    case LWS_CALLBACK_HTTP:
        return loop.handleHTTPRequest(wsi)
    case LWS_CALLBACK_HTTP_BODY:
        return loop.handleHTTPBody(wsi, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return loop.handleHTTPBodyCompletion(wsi)
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return loop.handleHTTPWritable(wsi)
    case LWS_CALLBACK_HTTP_FILE_COMPLETION:
        return loop.handleFileCompletion(wsi)
    case LWS_CALLBACK_TIMER:
        // The request deadline (`lws_set_timer_usecs`); it reaches whichever protocol is bound.
        return loop.handleRequestTimer(wsi)
    case LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        loop.handleHTTPGone(wsi)
        return nil
    default:
        return nil
    }
}

/// The server's timer sul (see `clws_timer` in the shim).
func serverTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul else { return }
    // The sul is the first member of clws_timer.
    let timer = UnsafeMutableRawPointer(sul).assumingMemoryBound(to: clws_timer.self)
    owner(ofContext: timer.pointee.context, as: EventLoop.self)?.handleTimer()
}

private func loop(of wsi: OpaquePointer?) -> EventLoop? {
    guard let wsi else { return nil }
    return owner(ofContext: lws_get_context(wsi), as: EventLoop.self)
}

/// The one way back from C into Swift: a context's user pointer is the loop that owns it
/// (unretained; the loop outlives its context).
func owner<Owner: AnyObject>(ofContext context: OpaquePointer?, as _: Owner.Type) -> Owner? {
    guard let context, let user = lws_context_user(context) else { return nil }
    return Unmanaged<Owner>.fromOpaque(user).takeUnretainedValue()
}
