import Dispatch
import Synchronization

/// The delegate of every loop but the first: each call runs on the first loop's thread, where the
/// application's one delegate lives, so the application stays single-threaded however many loops
/// serve.
///
/// A request's answer and a viewer's departure travel as jobs: the request is handed over and its
/// answer comes back through this loop's inbox. What lws needs answered before its callback returns
/// (an upgrade's admission and its 101's headers, a file's headers, an error's body) waits for the
/// first loop's answer: a blocking hop of one service round there, never the other way round (the
/// first loop never waits for another loop, and it keeps running jobs until every other loop has
/// finished: `WebServer.run`), so the wait always ends. Should the first loop be gone anyway, or
/// take longer than `answerTimeout`, the caller gets a plain refusal instead.
///
/// Called on its own loop's thread only.
final class ForwardingDelegate: TransportDelegate {
    /// This loop's place in the server.
    let index: Int
    /// The first loop's inbox: where every call goes.
    let main: ServiceInbox<EventLoop>
    /// This loop's own inbox: where answers come back.
    let home: ServiceInbox<EventLoop>

    /// The longest a call waits for the first loop's answer.
    static let answerTimeout = 10.0

    init(index: Int, main: ServiceInbox<EventLoop>, home: ServiceInbox<EventLoop>) {
        self.index = index
        self.main = main
        self.home = home
    }

    func handleHTTP(_ request: HTTPRequest, respond: @escaping (HTTPResponse) -> Void) {
        let reply = Reply(respond)
        let home = home
        let handed = main.enqueue { loop in
            guard let delegate = loop.delegate else {
                home.enqueue { _ in reply.send(Self.unavailable) }
                return
            }
            delegate.handleHTTP(request) { response in
                home.enqueue { _ in reply.send(response) }
            }
        }
        if !handed { respond(Self.unavailable) }
    }

    func admitViewer(_ request: HTTPRequest, id: ViewerID) -> ViewerAdmission {
        let index = index
        return onFirstLoop(otherwise: .reject(Self.unavailable)) { loop in
            guard let delegate = loop.delegate else { return .reject(Self.unavailable) }
            switch delegate.admitViewer(request, id: id) {
            case .accept(let channel, let greeting, let sequence):
                loop.group?.remoteAdmitted(id, channel: channel, loop: index)
                // The greeting may hold messages the first loop writes too (a stream's layout).
                return .accept(channel: channel, greeting: greeting.map { $0.copy() }, sequence: sequence)
            case .refuseAfterUpgrade(let message, let code, let reason):
                return .refuseAfterUpgrade(message: message.copy(), closeCode: code, reason: reason)
            case .reject(let response):
                return .reject(response)
            }
        }
    }

    func upgradeHeaders(for viewer: ViewerID) -> [(name: String, value: String)] {
        onFirstLoop(otherwise: []) { loop in loop.delegate?.upgradeHeaders(for: viewer) ?? [] }
    }

    func fileHeaders() -> [(name: String, value: String)] {
        onFirstLoop(otherwise: []) { loop in loop.delegate?.fileHeaders() ?? [] }
    }

    func frameAncestors(forFile path: String) -> [String] {
        onFirstLoop(otherwise: []) { loop in loop.delegate?.frameAncestors(forFile: path) ?? [] }
    }

    func viewerDidDisconnect(_ id: ViewerID, channel: any ChannelKey) {
        main.enqueue { loop in
            loop.group?.remoteLeft(id)
            loop.delegate?.viewerDidDisconnect(id, channel: channel)
        }
    }

    func errorResponse(status: Int, message: String) -> HTTPResponse {
        onFirstLoop(otherwise: Self.plain(status: status, message: message)) { loop in
            loop.errorResponse(status: status, message: message)
        }
    }

    /// `body`'s answer, run on the first loop's thread; `fallback` when that loop has stopped or
    /// does not answer within `answerTimeout`.
    private func onFirstLoop<Value: Sendable>(
        otherwise fallback: @autoclosure () -> Value, _ body: @escaping @Sendable (EventLoop) -> Value
    ) -> Value {
        let answer = Answer<Value>()
        guard main.enqueue({ loop in answer.give(body(loop)) }) else { return fallback() }
        return answer.wait(seconds: Self.answerTimeout) ?? fallback()
    }

    private static var unavailable: HTTPResponse {
        plain(status: 503, message: "the server is not ready")
    }

    private static func plain(status: Int, message: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((message + "\n").utf8))
    }
}

@available(*, unavailable)
extension ForwardingDelegate: Sendable {}

/// A request's `respond`, carried to the first loop and back: called only on the loop that made it.
private struct Reply: @unchecked Sendable {
    let send: (HTTPResponse) -> Void

    init(_ send: @escaping (HTTPResponse) -> Void) {
        self.send = send
    }
}

/// One answer from another thread, waited for. Thread-safe.
private final class Answer<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let given = DispatchSemaphore(value: 0)

    func give(_ answer: Value) {
        value.withLock { $0 = answer }
        given.signal()
    }

    func wait(seconds: Double) -> Value? {
        guard given.wait(timeout: .now() + seconds) == .success else { return nil }
        return value.withLock { $0 }
    }
}
