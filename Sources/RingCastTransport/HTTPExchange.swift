/// One HTTP request/response on a connection, from its headers to the last byte of its answer.
/// A keep-alive connection has one exchange at a time.
///
/// Service thread only.
final class HTTPExchange {
    enum Route {
        /// Handed to `TransportDelegate.handleHTTP`.
        case delegate
        /// A file under the web root, handed to lws once the connection is writeable.
        case staticFile(StaticFile)
        /// Answered by the transport with `TransportDelegate.errorResponse`.
        case transportError(RequestProblem)
    }

    enum State {
        case receivingBody
        case awaitingResponse
        case writingHeaders(HTTPResponse)
        case writingBody(HTTPResponse, sent: Int)
        /// Waiting for a writeable callback to hand the file to lws.
        case servingFile(StaticFile)
        /// lws is sending the file; it ends with LWS_CALLBACK_HTTP_FILE_COMPLETION.
        case sendingFile
        /// A raw connection's answer is written; it is shut down once lws has flushed it.
        case answered
        /// Shut down for writing; waiting for the client to close.
        case lingering
    }

    let id: UInt64
    let wsi: OpaquePointer
    var request: HTTPRequest
    let route: Route
    let expectedBodyBytes: Int
    /// Answer, then close instead of keeping the connection alive (the body was refused, or it
    /// stalled).
    var closesConnection: Bool
    /// How often lws reported a body complete again after this one's (`EventLoop.handleHTTPBodyCompletion`).
    var repeatedBodyCompletions = 0
    /// A connection lws handed over as a raw socket (a method it cannot parse): answered with the
    /// same writes, then shut down, never kept alive.
    let isRaw: Bool
    var state: State

    init(
        id: UInt64,
        wsi: OpaquePointer,
        request: HTTPRequest,
        route: Route,
        expectedBodyBytes: Int,
        closesConnection: Bool,
        isRaw: Bool = false
    ) {
        self.id = id
        self.wsi = wsi
        self.request = request
        self.route = route
        self.expectedBodyBytes = expectedBodyBytes
        self.closesConnection = closesConnection || isRaw
        self.isRaw = isRaw
        self.state = .awaitingResponse
    }

    var isAwaitingResponse: Bool {
        if case .awaitingResponse = state { return true }
        return false
    }

    var isReceivingBody: Bool {
        if case .receivingBody = state { return true }
        return false
    }
}

@available(*, unavailable)
extension HTTPExchange: Sendable {}
