import Foundation
import RingCastTransport
import Synchronization

/// What the echo delegate answers for every dynamic request.
struct Echo: Codable, Equatable {
    var method: String
    var path: String
    var query: [String: String]
    var headers: [String: String]
    var body: String
    var peer: String
}

/// A test application: echoes requests as JSON, admits viewers by query, records disconnects.
/// Its TransportDelegate methods run on the service thread; tests read what it recorded through
/// the locked properties.
final class EchoDelegate: TransportDelegate, @unchecked Sendable {
    /// Set right after the server is created; read on the service thread.
    nonisolated(unsafe) var loop: EventLoop?
    let disconnects = Mutex<[(id: ViewerID, channel: String)]>([])
    let admitted = Mutex<[ViewerID]>([])
    /// Requests handed to `handleHTTP` (which server of several sharing a port answered).
    let handledRequests = Mutex(0)

    func handleHTTP(_ request: HTTPRequest, respond: @escaping (HTTPResponse) -> Void) {
        handledRequests.withLock { $0 += 1 }
        switch request.path {
        case "/api/deferred":
            let seconds = Double(request.query["seconds"] ?? "0.1") ?? 0.1
            loop?.schedule(after: seconds) { respond(Self.echo(request)) }
        case "/api/large":
            let count = Int(request.query["bytes"] ?? "0") ?? 0
            respond(HTTPResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: Self.pattern(count)))
        case "/api/twice":
            respond(HTTPResponse(status: 200, body: Array("first".utf8)))
            respond(HTTPResponse(status: 500, body: Array("second".utf8)))
        default:
            respond(Self.echo(request))
        }
    }

    func admitViewer(_ request: HTTPRequest, id: ViewerID) -> ViewerAdmission {
        if let status = request.query["reject"].flatMap(Int.init) {
            return .reject(
                HTTPResponse(
                    status: status,
                    headers: [("Content-Type", "application/json")],
                    body: Array("{\"rejected\":\"\(request.headers["origin"] ?? "")\"}".utf8)
                ))
        }
        admitted.withLock { $0.append(id) }
        let count = Int(request.query["greet"] ?? "0") ?? 0
        let greeting = (0..<count).map { OutgoingMessage(text: Array("greeting-\($0)".utf8)) }
        return .accept(channel: request.query["channel"] ?? "main", greeting: greeting)
    }

    /// Names the viewer in its 101, so a test can see the delegate's headers arrive.
    func upgradeHeaders(for viewer: ViewerID) -> [(name: String, value: String)] {
        [("X-Echo-Viewer", viewer.description)]
    }

    /// Marks the static files, so a test can see the delegate's headers arrive.
    func fileHeaders() -> [(name: String, value: String)] {
        [("X-Echo-File", "yes")]
    }

    func viewerDidDisconnect(_ id: ViewerID, channel: any ChannelKey) {
        disconnects.withLock { $0.append((id, channel as? String ?? "\(channel)")) }
    }

    func errorResponse(status: Int, message: String) -> HTTPResponse {
        let body = try! JSONEncoder().encode(["error": ["status": "\(status)", "message": message]])
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(body))
    }

    static func echo(_ request: HTTPRequest) -> HTTPResponse {
        let echo = Echo(
            method: request.method,
            path: request.path,
            query: request.query,
            headers: request.headers,
            body: String(decoding: request.body, as: UTF8.self),
            peer: request.peer
        )
        let body = try! JSONEncoder().encode(echo)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("X-Echo", "yes")], body: Array(body))
    }

    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }
}
