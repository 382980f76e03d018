internal import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP exchanges: checking request heads, reading bodies, routing them, writing responses in
/// HTTP_WRITEABLE, handing static files to lws, and each connection's request deadline. Service
/// thread only.
extension EventLoop {
    /// LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED: a connection was accepted; its first request's
    /// head is due within `requestTimeout`.
    func handleAccepted(_ wsi: OpaquePointer) {
        armRequestTimer(wsi)
    }

    /// LWS_CALLBACK_FILTER_HTTP_CONNECTION (protocols[0], every plain request, once its head is
    /// parsed): a head the transport will not serve is answered at once, then closed.
    func handleFilterHTTP(_ wsi: OpaquePointer) -> Int32 {
        guard let problem = RequestReader.problem(of: wsi, configuration: configuration) else { return 0 }
        writeAndClose(wsi, errorResponse(for: problem))
        return 1
    }

    /// LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: lws found an Upgrade header and asks before acting on
    /// it. `token` is lws's own copy of the header's value, which it compares again once we return.
    func handleConfirmUpgrade(_ wsi: OpaquePointer, token: UnsafeMutablePointer<CChar>?) -> Int32 {
        guard let token else { return -1 }
        switch String(cString: token).lowercased() {
        case "h2c":
            // lws 4.1.6 answers 101 and then drops the request (a PATCH was never applied).
            // RFC 9113 §3.2 lets a server ignore the upgrade: blanking the value lws is about to
            // compare makes it serve the request as HTTP/1.1 (RequestReader skips blank headers).
            memset(token, 0x20, strlen(token))
            return 0
        case "websocket":
            guard let problem = upgradeProblem(wsi) else { return 0 }
            writeAndClose(wsi, errorResponse(for: problem))
            return -1
        default:
            // lws has already written its own 403 for an upgrade it does not know, and would go
            // on to serve the request as well: end the connection after that 403 instead.
            return -1
        }
    }

    /// LWS_CALLBACK_HTTP: a request's headers are complete (every path: dynamic prefixes bind
    /// protocols[1], everything else stays on protocols[0]; there is no file mount).
    func handleHTTPRequest(_ wsi: OpaquePointer) -> Int32 {
        guard let request = RequestReader.request(of: wsi, customHeaderNames: configuration.customHeaderNames) else {
            return -1
        }
        var route = self.route(for: request)
        var expected = 0
        var refusesBody = false
        if request.headers["transfer-encoding"] != nil {
            route = .transportError(
                RequestProblem(status: 411, message: "chunked request bodies are not supported; send Content-Length"))
            refusesBody = true
        } else if let text = request.headers["content-length"] {
            if let length = Int(text), length >= 0 {
                expected = length
                if length > configuration.maxBodyBytes {
                    let message = "request body of \(length) bytes exceeds the limit of \(configuration.maxBodyBytes) bytes"
                    route = .transportError(RequestProblem(status: 413, message: message))
                    refusesBody = true
                }
            } else {
                route = .transportError(RequestProblem(status: 400, message: "Content-Length \"\(text)\" is not a byte count"))
                refusesBody = true
            }
        } else if ["POST", "PUT", "PATCH"].contains(request.method) {
            // lws would wait for a body it has no way to delimit.
            route = .transportError(RequestProblem(status: 411, message: "\(request.method) needs a Content-Length header"))
            refusesBody = true
        }

        let exchange = HTTPExchange(
            id: makeID(),
            wsi: wsi,
            request: request,
            route: route,
            expectedBodyBytes: expected,
            closesConnection: refusesBody
        )
        exchanges[exchange.id] = exchange
        setConnectionID(exchange.id, of: wsi)

        if refusesBody || expected == 0 {
            // Zero-length PUT/PATCH get no body callbacks from lws (POST gets empty ones, ignored).
            dispatch(exchange)
            return 0
        }
        if request.headers["expect"]?.lowercased() == "100-continue" {
            do {
                try writeContinue(wsi)
            } catch {
                TransportLog.emit("\(error); closing \(request.method) \(request.path)")
                forget(exchange)
                return -1
            }
        }
        exchange.request.body.reserveCapacity(expected)
        exchange.state = .receivingBody
        armRequestTimer(wsi)  // the body is due within requestTimeout of the head
        return 0
    }

    /// LWS_CALLBACK_HTTP_BODY: the next piece of the body.
    func handleHTTPBody(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let exchange = exchange(of: wsi) else { return nil }
        guard exchange.isReceivingBody else { return 0 }  // refused or timed-out body, or POST's empty one
        guard exchange.request.body.count + bytes.count <= exchange.expectedBodyBytes else { return -1 }
        exchange.request.body.append(contentsOf: bytes)
        return 0
    }

    /// LWS_CALLBACK_HTTP_BODY_COMPLETION: Content-Length bytes arrived.
    ///
    /// Called again for an exchange whose answer is pending, it is libwebsockets 4.1.6 handing over what the client
    /// sent after the body (a pipelined next request) from its rx-flow list: it does so again and again without ever
    /// polling, so the answer, which comes back through the loop's inbox, would never come, and the whole server would
    /// stall (two pipelined writes did it). Such a connection is closed instead; the server goes on. Its pending write
    /// is applied or not as it would be, unanswered, as for any connection that goes away meanwhile. (A request without
    /// a body may be completed once more by lws; only a repeat is a spin.)
    func handleHTTPBodyCompletion(_ wsi: OpaquePointer) -> Int32? {
        guard let exchange = exchange(of: wsi) else { return nil }
        if exchange.isReceivingBody {
            dispatch(exchange)
            return 0
        }
        exchange.repeatedBodyCompletions += 1
        guard exchange.repeatedBodyCompletions < 2 else {
            TransportLog.emit(
                "a request pipelined after \(exchange.request.method) \(exchange.request.path) before its answer; closing the connection"
            )
            forget(exchange)
            return -1
        }
        return 0
    }

    /// LWS_CALLBACK_HTTP_WRITEABLE (and RAW_WRITEABLE for a raw connection): write the next piece
    /// of the response. Nil when the connection is not ours.
    func handleHTTPWritable(_ wsi: OpaquePointer) -> Int32? {
        guard let exchange = exchange(of: wsi) else { return nil }
        do {
            switch exchange.state {
            case .writingHeaders(let response):
                try writeHeaders(of: response, for: exchange)
                // An answer that is its head alone (a 204, a 304, a HEAD) ends here, in the same callback: the client
                // has all of it once the head is out and may send its next request at once. Ended in a later
                // callback, that request could arrive while the transaction was still open, and libwebsockets 4.1.6
                // then spun on the buffered request's body (HTTP_BODY_COMPLETION from its rx-flow list) without ever
                // polling again: no answer, and the whole server stalled (a keep-alive client pushing with
                // `Prefer: return=minimal` found it).
                if exchange.request.method == "HEAD" || response.body.isEmpty {
                    return finish(exchange, answered: response)
                }
                exchange.state = .writingBody(response, sent: 0)
                lws_callback_on_writable(wsi)
                return 0
            case .writingBody(let response, let sent):
                // A HEAD, or an empty body, ended with the head.
                let body = response.body
                let end = min(sent + Self.httpChunkBytes, body.count)
                try writeBody(body[sent..<end], isFinal: end == body.count, to: wsi)
                guard end == body.count else {
                    exchange.state = .writingBody(response, sent: end)
                    lws_callback_on_writable(wsi)
                    return 0
                }
                return finish(exchange, answered: response)
            case .servingFile(let file):
                return serve(file, for: exchange)
            case .answered:
                // lws has flushed the answer (it calls back only then). Stop writing but keep
                // reading until the client closes: closing a socket with unread input resets the
                // connection, and the client may lose the answer.
                shutdown(lws_get_socket_fd(wsi), Int32(SHUT_WR))
                exchange.state = .lingering
                lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Self.lingerSeconds)
                return 0
            case .receivingBody, .awaitingResponse, .sendingFile, .lingering:
                return 0
            }
        } catch {
            TransportLog.emit("\(error); closing \(exchange.request.method) \(exchange.request.path)")
            forget(exchange)
            return -1
        }
    }

    /// LWS_CALLBACK_HTTP_FILE_COMPLETION: lws sent the last byte of a static file.
    func handleFileCompletion(_ wsi: OpaquePointer) -> Int32? {
        guard let exchange = exchange(of: wsi) else { return nil }
        if phase == .draining {
            noteAnsweredWhileDraining(status: 200)
        }
        forget(exchange)
        return completeTransaction(wsi)
    }

    /// LWS_CALLBACK_TIMER: the connection's request deadline passed. lws 4.1.6 cannot cancel
    /// this timer (LWS_SET_TIMER_USEC_CANCEL schedules it for now), so it is only ever re-armed,
    /// and one that fires late finds the connection busy with something else and does nothing.
    func handleRequestTimer(_ wsi: OpaquePointer) -> Int32 {
        let id = connectionID(of: wsi)
        if id != 0, let exchange = exchanges[id] {
            guard exchange.isReceivingBody else { return 0 }
            exchange.closesConnection = true
            exchange.state = .awaitingResponse
            let message =
                "the request body did not arrive within \(configuration.requestTimeout) s "
                + "(\(exchange.request.body.count) of \(exchange.expectedBodyBytes) bytes came)"
            respond(to: id, with: errorResponse(for: RequestProblem(status: 408, message: message)))
            return 0
        }
        if id != 0, viewers[ViewerID(rawValue: id)] != nil {
            return 0
        }
        if id != 0, rawHeads[id] != nil {
            let message = "the request's head did not arrive within \(configuration.requestTimeout) s"
            answerRaw(wsi, id: id, head: nil, route: .transportError(RequestProblem(status: 408, message: message)))
            return 0
        }
        // Waiting for a head. Answer a request that has begun (lws has read its method and some
        // of its target); close an idle connection without a word, and at once (LWS_TO_KILL_ASYNC):
        // given -1, lws shuts the connection down politely and waits up to its own timeout
        // (requestTimeout + 5 s) for the client's end — and on the TLS port, before a handshake,
        // nothing of that reaches the client, which heard nothing until then (25 s, not 10).
        guard RequestReader.methodAndPath(of: wsi) != nil else {
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, -1)
            return 0
        }
        let message = "the request's head did not arrive within \(configuration.requestTimeout) s"
        writeAndClose(wsi, errorResponse(for: RequestProblem(status: 408, message: message)))
        return -1
    }

    /// LWS_CALLBACK_CLOSED_HTTP / HTTP_DROP_PROTOCOL / RAW_CLOSE: the connection (or its binding)
    /// went away.
    func handleHTTPGone(_ wsi: OpaquePointer) {
        if let exchange = exchange(of: wsi) {
            forget(exchange)
        }
    }

    // MARK: - Routing and answering

    func route(for request: HTTPRequest) -> HTTPExchange.Route {
        if configuration.isDynamic(request.path) {
            return .delegate
        }
        if let root = configuration.webRoot {
            guard request.method == "GET" || request.method == "HEAD" else {
                let message = "\(request.method) is not allowed on \(request.path); static files accept GET and HEAD"
                return .transportError(RequestProblem(status: 405, message: message, headers: [("Allow", "GET, HEAD")]))
            }
            if request.path != configuration.websocketPath,
                let file = StaticFile(urlPath: request.path, root: root, contentTypes: WebServer.contentTypes)
            {
                return .staticFile(file)
            }
        }
        if request.path == configuration.websocketPath {
            return .transportError(RequestProblem(status: 404, message: "\(request.path) only accepts WebSocket upgrades"))
        }
        return .transportError(RequestProblem(status: 404, message: "nothing at \(request.path)"))
    }

    /// Hands a complete request to whoever answers it.
    func dispatch(_ exchange: HTTPExchange) {
        exchange.state = .awaitingResponse
        // lws's own body timeout may still be armed; give the delegate time, but not forever.
        lws_set_timeout(exchange.wsi, PENDING_TIMEOUT_USER_OK, Self.responseTimeoutSeconds)
        if phase == .draining {
            return refuseWhileDraining(exchange)
        }
        switch exchange.route {
        case .delegate:
            guard let delegate else {
                respond(to: exchange.id, with: errorResponse(status: 503, message: "the server is not ready"))
                return
            }
            let id = exchange.id
            let request = exchange.request
            exchange.request.body = []  // the delegate has it now
            delegate.handleHTTP(request) { [weak self] response in
                self?.respond(to: id, with: response)
            }
        case .staticFile(let file):
            // The file, too, must be sent within responseTimeoutSeconds (set above): a client
            // that stops reading does not hold the connection for ever. (lws's mount left its
            // 5 s body timeout armed while it sent a file.)
            exchange.state = .servingFile(file)
            lws_callback_on_writable(exchange.wsi)
        case .transportError(let problem):
            respond(to: exchange.id, with: errorResponse(for: problem))
        }
    }

    /// The `respond` closure given to the delegate.
    func respond(to id: UInt64, with response: HTTPResponse) {
        guard isLive, let exchange = exchanges[id] else { return }  // the client went away
        guard exchange.isAwaitingResponse else {
            TransportLog.emit("respond called twice for \(exchange.request.method) \(exchange.request.path); ignored")
            return
        }
        exchange.state = .writingHeaders(response)
        lws_callback_on_writable(exchange.wsi)
    }

    /// Hands a static file to lws, which sends it from its own writeable callbacks (the response
    /// head goes into lws's shared buffer, which by now holds no unread input).
    private func serve(_ file: StaticFile, for exchange: HTTPExchange) -> Int32 {
        let delegated = delegate?.fileHeaders() ?? []
        if file.isNotModified(ifNoneMatch: exchange.request.headers["if-none-match"]) {
            let headers = [(name: "ETag", value: file.entityTag), (name: "Cache-Control", value: "no-store")] + delegated
            exchange.state = .writingHeaders(HTTPResponse(status: 304, headers: headers))
            lws_callback_on_writable(exchange.wsi)
            return 0
        }
        let extraHeaders =
            "etag: \(file.entityTag)\r\n"
            + (securityHeaders(for: exchange) + delegated).map { "\($0.name.lowercased()): \($0.value)\r\n" }.joined()
        let result = file.path.withCString { path in
            file.contentType.withCString { type in
                extraHeaders.withCString { extra in
                    lws_serve_http_file(exchange.wsi, path, type, extra, Int32(strlen(extra)))
                }
            }
        }
        if result < 0 {
            forget(exchange)
            return -1
        }
        if exchange.request.method == "HEAD" {
            // lws sent the head and completed the transaction itself.
            forget(exchange)
            armRequestTimer(exchange.wsi)
            return 0
        }
        if result > 0 {
            // lws answered on its own (its 404 when the file vanished since it was found).
            forget(exchange)
            return completeTransaction(exchange.wsi)
        }
        exchange.state = .sendingFile
        return 0
    }

    /// After the last byte: keep the connection for the next request, or close it.
    /// `finish(_:)` once `response` is written whole, counted as answered while the server drains.
    private func finish(_ exchange: HTTPExchange, answered response: HTTPResponse) -> Int32 {
        if phase == .draining {
            noteAnsweredWhileDraining(status: response.status)
        }
        return finish(exchange)
    }

    private func finish(_ exchange: HTTPExchange) -> Int32 {
        if exchange.isRaw {
            exchange.state = .answered
            lws_callback_on_writable(exchange.wsi)
            return 0
        }
        forget(exchange)
        if exchange.closesConnection {
            noteClosing(exchange.wsi)
            return -1
        }
        return completeTransaction(exchange.wsi)
    }

    /// Tells lws the transaction is over (it reads a pipelined request next, or waits for one);
    /// the next request's head is then due within `requestTimeout`.
    private func completeTransaction(_ wsi: OpaquePointer) -> Int32 {
        guard lws_http_transaction_completed(wsi) == 0 else {
            noteClosing(wsi)  // the client asked for Connection: close
            return -1
        }
        armRequestTimer(wsi)
        return 0
    }

    /// (Re)schedules the connection's one lws timer, `requestTimeout` from now.
    func armRequestTimer(_ wsi: OpaquePointer) {
        lws_set_timer_usecs(wsi, lws_usec_t(configuration.requestTimeout) * 1_000_000)
        noteActivity(wsi)
    }

    func forget(_ exchange: HTTPExchange) {
        exchanges[exchange.id] = nil
        if connectionID(of: exchange.wsi) == exchange.id {
            setConnectionID(0, of: exchange.wsi)
        }
    }

    func exchange(of wsi: OpaquePointer) -> HTTPExchange? {
        let id = connectionID(of: wsi)
        return id == 0 ? nil : exchanges[id]
    }

    // MARK: - Writing

    /// The interim answer a client sending `Expect: 100-continue` waits for (lws 4.1 sends none).
    private func writeContinue(_ wsi: OpaquePointer) throws(LWSFailure) {
        // An HTTP/2 stream (it has a :path) has no interim status line.
        guard lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_COLON_PATH) == 0 else { return }
        let line = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
        writeBuffer.start.update(from: line, count: line.count)
        let written = lws_write(wsi, writeBuffer.start, line.count, LWS_WRITE_HTTP)
        try check(written, "writing 100 Continue", success: { $0 == line.count })
    }

    /// The security headers of an exchange's answer: a static file's say who may frame it.
    private func securityHeaders(for exchange: HTTPExchange) -> [(name: String, value: String)] {
        guard case .staticFile(let file) = exchange.route else { return SecurityHeaders.fields() }
        return SecurityHeaders.fields(frameAncestors: delegate?.frameAncestors(forFile: file.path) ?? [])
    }

    private func writeHeaders(of response: HTTPResponse, for exchange: HTTPExchange) throws(LWSFailure) {
        var response = response
        response.headers = securityHeaders(for: exchange) + response.headers
        writeBuffer.reserve(Self.headerBytes(of: response))
        var position: UnsafeMutablePointer<UInt8>? = writeBuffer.start
        try Self.addHeaders(
            of: response, closing: exchange.closesConnection, wsi: exchange.wsi, start: writeBuffer.start, at: &position,
            end: writeBuffer.end)
        try check(
            lws_finalize_write_http_header(exchange.wsi, writeBuffer.start, &position, writeBuffer.end),
            "writing the response headers"
        )
    }

    /// Writes `chunk` straight from the response's own bytes: lws 4.1.6 writes an HTTP/1 body as it is
    /// (`rops_write_role_protocol_h1` → `lws_issue_raw`, without stream compression in Debian's build),
    /// never into the `LWS_PRE` bytes before it as it does for WebSocket and h2 frames, and this server
    /// speaks HTTP/1.1 only (ALPN `http/1.1`); what the socket does not take, lws copies before returning.
    /// So a large answer (a 255-ring board's SVG is 1.8 MB) is not copied once more per chunk on the loop.
    private func writeBody(_ chunk: ArraySlice<UInt8>, isFinal: Bool, to wsi: OpaquePointer) throws(LWSFailure) {
        let kind = isFinal ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP
        let written = chunk.withUnsafeBufferPointer { bytes -> Int32 in
            guard let base = bytes.baseAddress else {
                return lws_write(wsi, writeBuffer.start, 0, kind)
            }
            return lws_write(wsi, UnsafeMutablePointer(mutating: base), bytes.count, kind)
        }
        try check(written, "writing \(chunk.count) response bytes", success: { $0 == chunk.count })
    }

    /// Writes a whole response in one go and leaves the connection to be closed by the caller's
    /// nonzero return. Used where lws offers no writeable callback before it closes (FILTER and
    /// CONFIRM_UPGRADE callbacks, a head that never completed); lws flushes whatever the socket
    /// did not take before closing.
    func writeAndClose(_ wsi: OpaquePointer, _ response: HTTPResponse) {
        var response = response
        response.headers = SecurityHeaders.fields() + response.headers
        writeBuffer.reserve(Self.headerBytes(of: response) + response.body.count)
        var position: UnsafeMutablePointer<UInt8>? = writeBuffer.start
        do {
            try Self.addHeaders(
                of: response, closing: true, wsi: wsi, start: writeBuffer.start, at: &position, end: writeBuffer.end)
            try check(lws_finalize_http_header(wsi, &position, writeBuffer.end), "finishing the response headers")
            guard var cursor = position else { return }
            response.body.withUnsafeBufferPointer { bytes in
                if let base = bytes.baseAddress {
                    cursor.update(from: base, count: bytes.count)
                    cursor += bytes.count
                }
            }
            let count = cursor - writeBuffer.start
            try check(
                lws_write(wsi, writeBuffer.start, count, LWS_WRITE_HTTP), "writing a \(response.status) answer",
                success: { $0 == count })
        } catch {
            TransportLog.emit("\(error)")
        }
    }

    /// Room for the status line, lws's own headers (server, security headers) and ours.
    private static func headerBytes(of response: HTTPResponse) -> Int {
        response.headers.reduce(2048) { $0 + $1.name.utf8.count + $1.value.utf8.count + 8 }
    }

    /// Status line, the response's headers (lowercased names, so they are valid HTTP/2 too),
    /// Content-Length from the body (none for 204 and 304, RFC 9110 §8.6), and `connection: close`
    /// when closing.
    private static func addHeaders(
        of response: HTTPResponse,
        closing: Bool,
        wsi: OpaquePointer,
        start: UnsafeMutablePointer<UInt8>,
        at position: inout UnsafeMutablePointer<UInt8>?,
        end: UnsafeMutablePointer<UInt8>
    ) throws(LWSFailure) {
        try check(
            lws_add_http_header_status(wsi, UInt32(clamping: response.status), &position, end), "adding status \(response.status)"
        )
        try replaceStatusLine(status: response.status, start: start, position: &position, end: end)
        for header in response.headers {
            let name = header.name.lowercased()
            guard name != "content-length", name != "connection", name != "transfer-encoding" else { continue }
            let nameBytes = Array((name + ":").utf8CString).map { UInt8(bitPattern: $0) }
            let valueBytes = Array(header.value.utf8)
            let result = nameBytes.withUnsafeBufferPointer { namePointer in
                valueBytes.withUnsafeBufferPointer { valuePointer in
                    lws_add_http_header_by_name(
                        wsi, namePointer.baseAddress, valuePointer.baseAddress, Int32(valuePointer.count), &position, end
                    )
                }
            }
            try check(result, "adding header \(name)")
        }
        if response.status != 204, response.status != 304 {
            try check(
                lws_add_http_header_content_length(wsi, lws_filepos_t(response.body.count), &position, end),
                "adding content-length"
            )
        }
        if closing {
            let close = Array("close".utf8)
            try check(
                lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION, close, Int32(close.count), &position, end),
                "adding connection: close"
            )
        }
    }

    /// Puts `StatusLine.text(for:)` in place of the first line lws wrote at `start`, moving the
    /// headers lws added after it (security headers, server name). A head without a CR LF (an
    /// HTTP/2 stream's, which has no status line) is left alone.
    private static func replaceStatusLine(
        status: Int,
        start: UnsafeMutablePointer<UInt8>,
        position: inout UnsafeMutablePointer<UInt8>?,
        end: UnsafeMutablePointer<UInt8>
    ) throws(LWSFailure) {
        guard let current = position else { throw LWSFailure(operation: "writing the status line", code: -1) }
        let written = current - start
        var lineEnd = 0
        while lineEnd + 1 < written, !(start[lineEnd] == 13 && start[lineEnd + 1] == 10) {
            lineEnd += 1
        }
        guard lineEnd + 1 < written else { return }
        let line = Array(StatusLine.text(for: status).utf8)
        let rest = written - lineEnd
        guard line.count + rest <= end - start else { throw LWSFailure(operation: "writing the status line", code: -1) }
        memmove(start + line.count, start + lineEnd, rest)
        start.update(from: line, count: line.count)
        position = start + line.count + rest
    }
}
