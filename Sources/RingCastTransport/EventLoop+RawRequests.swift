internal import CLibWebSockets

/// Requests lws cannot parse. lws 4.1.6 knows eight methods; for any other one (TRACE, a WebDAV
/// method, a typo) its parser stops at the method and, with
/// `LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG`, hands the connection to
/// protocols[0] as a raw socket together with the bytes it was parsing; CONNECT arrives the same
/// way once its head is complete. The transport reads the head itself, answers it with the same
/// writes as any exchange, then shuts the connection down. Service thread only.
extension EventLoop {
    /// LWS_CALLBACK_RAW_ADOPT: the connection is raw from now on; its bytes follow in RAW_RX.
    func handleRawAdopt(_ wsi: OpaquePointer) -> Int32 {
        let id = makeID()
        rawHeads[id] = []
        setConnectionID(id, of: wsi)
        return 0
    }

    /// LWS_CALLBACK_RAW_RX: collects the head and answers it once; later bytes are read and dropped.
    func handleRawData(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        let id = connectionID(of: wsi)
        guard id != 0, var head = rawHeads[id] else { return 0 }
        head.append(contentsOf: bytes)
        switch RawRequestHead.parse(head) {
        case .incomplete:
            guard head.count <= configuration.headerBufferBytes else {
                let message = "the request head is over \(configuration.headerBufferBytes) bytes"
                answerRaw(wsi, id: id, head: nil, route: .transportError(RequestProblem(status: 431, message: message)))
                return 0
            }
            rawHeads[id] = head
        case .malformed(let reason):
            answerRaw(wsi, id: id, head: nil, route: .transportError(RequestProblem(status: 400, message: reason)))
        case .complete(let parsed):
            answerRaw(wsi, id: id, head: parsed, route: route(forRaw: parsed))
        }
        return 0
    }

    /// LWS_CALLBACK_RAW_CLOSE.
    func handleRawGone(_ wsi: OpaquePointer) {
        let id = connectionID(of: wsi)
        if id != 0 {
            rawHeads[id] = nil
        }
        handleHTTPGone(wsi)
    }

    /// TRACE (RFC 9110) and QUERY (the IETF's safe method with a body, which API tools such as
    /// schemathesis probe) are methods HTTP defines that the routes do not answer: they go where
    /// their path goes (the delegate's router answers 405 with `Allow`). CONNECT and the methods
    /// HTTP does not define (WebDAV's, typos) are 501, RFC 9110 §15.6.2.
    private func route(forRaw head: RawRequestHead) -> HTTPExchange.Route {
        switch RequestReader.version(head.version) {
        case .missing, .malformed:
            return .transportError(RequestProblem(status: 400, message: "\"\(head.version)\" is not an HTTP version"))
        case .unsupported(let version):
            return .transportError(RequestProblem(status: 505, message: "\(version) is not supported here; send HTTP/1.1"))
        case .http1:
            break
        }
        switch head.method {
        case "TRACE", "QUERY":
            guard let (path, query) = head.pathAndQuery else {
                return .transportError(
                    RequestProblem(status: 400, message: "the request target \"\(head.target)\" is not a path"))
            }
            return route(for: HTTPRequest(method: head.method, path: path, query: query, headers: head.headers))
        case "CONNECT":
            return .transportError(RequestProblem(status: 501, message: "CONNECT is not implemented: this server is not a proxy"))
        default:
            return .transportError(RequestProblem(status: 501, message: "\(head.method) is not a method this server implements"))
        }
    }

    /// Starts the one exchange of a raw connection.
    func answerRaw(_ wsi: OpaquePointer, id: UInt64, head: RawRequestHead?, route: HTTPExchange.Route) {
        rawHeads[id] = nil
        let target = head?.pathAndQuery
        let request = HTTPRequest(
            method: head?.method ?? "",
            path: target?.path ?? head?.target ?? "",
            query: target?.query ?? [:],
            headers: head?.headers ?? [:],
            peer: RequestReader.peer(of: wsi)
        )
        let exchange = HTTPExchange(
            id: id, wsi: wsi, request: request, route: route, expectedBodyBytes: 0, closesConnection: true, isRaw: true)
        exchanges[id] = exchange
        dispatch(exchange)
    }
}
