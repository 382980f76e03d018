import Foundation
import RingCastTransport
import Synchronization

/// What a viewer received, in order.
enum ViewerMessage: Equatable {
    case layout(TestLayout, bytes: [UInt8])
    case frame(TestFrame, bytes: [UInt8])
    case event(TestEvent, bytes: [UInt8])

    var frame: TestFrame? {
        if case .frame(let frame, _) = self { frame } else { nil }
    }

    var bytes: [UInt8] {
        switch self {
        case .layout(_, let bytes), .frame(_, let bytes), .event(_, let bytes): bytes
        }
    }

    var event: TestEvent? {
        if case .event(let event, _) = self { event } else { nil }
    }

    /// A text message as a viewer decodes it: a frame, a layout or an event (an undecodable one as a frame of type
    /// "undecodable").
    init(decoding bytes: [UInt8]) {
        let decoder = JSONDecoder()
        if let frame = try? decoder.decode(TestFrame.self, from: Data(bytes)), frame.type == "frame" {
            self = .frame(frame, bytes: bytes)
            return
        }
        if let layout = try? decoder.decode(TestLayout.self, from: Data(bytes)), layout.type == "layout" {
            self = .layout(layout, bytes: bytes)
            return
        }
        if let event = try? decoder.decode(TestEvent.self, from: Data(bytes)), event.type == "event" {
            self = .event(event, bytes: bytes)
            return
        }
        self = .frame(
            TestFrame(type: "undecodable", board: String(decoding: bytes, as: UTF8.self), seq: 0, t: 0, keyframe: nil, rings: []),
            bytes: bytes)
    }
}

enum ViewerError: Error, CustomStringConvertible {
    case timeout(String)
    case failed(String)
    case undecodable(String)

    var description: String {
        switch self {
        case .timeout(let text), .failed(let text), .undecodable(let text): text
        }
    }
}

/// A real WebSocket viewer (libwebsockets' client API) that records every message it gets.
final class TestViewer: ReceivedMessages, Sendable {
    private struct State {
        var opened = false
        var messages: [ViewerMessage] = []
        var binary: [[UInt8]] = []
        var closeCode: Int??
        var failure: String?
    }

    /// Shared with the client's event callback, which runs on the client's service thread.
    private final class Recorder: Sendable {
        let state = Mutex(State())
    }

    private let recorder = Recorder()
    private let client: WebSocketClient
    private let id: Mutex<WebSocketConnectionID?> = Mutex(nil)

    /// Connects to `/ws?board=…&format=json` (or any `path`) on 127.0.0.1; with wss when `secure`
    /// (the client must trust the server's certificate: `WebSocketClient(caFile:)`).
    init(
        client: WebSocketClient,
        port: Int,
        path: String = "/ws?board=main&format=json",
        origin: String? = nil,
        secure: Bool = false
    ) {
        self.client = client
        let connection = client.connect(host: "127.0.0.1", port: port, path: path, origin: origin, secure: secure) {
            [recorder] _, event in
            recorder.state.withLock { state in
                switch event {
                case .open:
                    state.opened = true
                case .text(let bytes):
                    state.messages.append(ViewerMessage(decoding: bytes))
                case .binary(let bytes):
                    state.binary.append(bytes)
                case .closed(let code):
                    state.closeCode = .some(code)
                case .failed(let reason):
                    state.failure = reason
                }
            }
        }
        id.withLock { $0 = connection }
    }

    var messages: [ViewerMessage] { recorder.state.withLock { $0.messages } }
    /// Binary messages (`format=binary`), in order.
    var binaryMessages: [[UInt8]] { recorder.state.withLock { $0.binary } }
    var failure: String? { recorder.state.withLock { $0.failure } }
    var closeCode: Int?? { recorder.state.withLock { $0.closeCode } }

    func close() {
        if let connection = id.withLock({ $0 }) { client.close(connection) }
    }

    /// Polls until `condition` holds for the messages received so far, or fails after `timeout`.
    @discardableResult
    func waitUntil(
        timeout: Double = 5,
        _ what: String,
        _ condition: ([ViewerMessage]) -> Bool
    ) async throws -> [ViewerMessage] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (messages, failure) = recorder.state.withLock { ($0.messages, $0.failure) }
            if condition(messages) { return messages }
            if let failure { throw ViewerError.failed("viewer failed while waiting for \(what): \(failure)") }
            if Date() > deadline {
                throw ViewerError.timeout("timed out after \(timeout) s waiting for \(what); got \(messages.count) messages")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits for the close (or failure) of the connection.
    func waitForClose(timeout: Double = 5) async throws -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (code, failure) = recorder.state.withLock { ($0.closeCode, $0.failure) }
            if let code { return code }
            if failure != nil { return nil }
            if Date() > deadline { throw ViewerError.timeout("timed out waiting for the connection to close") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// The parts of a JSON layout the tests look at.
struct TestLayout: Decodable, Equatable {
    struct Ring: Decodable, Equatable {
        var id: String
        var title: String
        var kind: String
        var r: Double
        var thickness: Double
        var track: String
    }

    struct Arrangement: Decodable, Equatable {
        struct Placement: Decodable, Equatable {
            var id: String
            var cx: Double
            var cy: Double
        }

        var name: String
        var width: Double
        var height: Double
        var rings: [Placement]
    }

    var type: String
    var board: String
    var title: String
    var rings: [Ring]
    var arrangements: [Arrangement]
}

/// A JSON event message.
struct TestEvent: Decodable, Equatable {
    var type: String
    var event: String
    var board: String
    var ring: String
    var seq: UInt64
    var t: Double
}

/// The parts of a JSON frame the tests look at.
struct TestFrame: Decodable, Equatable {
    struct Ring: Decodable, Equatable {
        struct Tip: Decodable, Equatable {
            var x: Double
            var y: Double
            var color: String
            var visible: Bool
        }

        var id: String
        var p: Double?
        var a0: Double
        var a1: Double
        var tip: Tip
        var label: String
        /// A widget's kind and a counter's values (DESIGN §12); nil for a ring.
        var kind: String?
        var value: Double?
        var digits: [[Double]]?

        private enum CodingKeys: String, CodingKey { case id, p, a0, a1, tip, label, kind, value, digits }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            p = try c.decodeIfPresent(Double.self, forKey: .p)
            label = try c.decode(String.self, forKey: .label)
            kind = try c.decodeIfPresent(String.self, forKey: .kind)
            value = try c.decodeIfPresent(Double.self, forKey: .value)
            digits = try c.decodeIfPresent([[Double]].self, forKey: .digits)
            // A widget has no ring geometry unless its kind draws an arc (an indicator's a0, a1).
            a0 = try c.decodeIfPresent(Double.self, forKey: .a0) ?? 0
            a1 = try c.decodeIfPresent(Double.self, forKey: .a1) ?? 0
            let none = Tip(x: 0, y: 0, color: "", visible: false)
            tip = kind == nil ? try c.decode(Tip.self, forKey: .tip) : none
        }
    }

    var type: String
    var board: String
    var seq: UInt64
    var t: Double
    var keyframe: Bool?
    var rings: [Ring]

    subscript(ring id: String) -> Ring? { rings.first { $0.id == id } }
}
