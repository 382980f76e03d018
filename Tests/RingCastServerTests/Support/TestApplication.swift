import Dispatch
import Foundation
import Logging
import RingCastCore
import RingCastStorage
import RingCastTransport
import Synchronization

@testable import RingCastServer

/// The server's request side in process, without sockets or an event loop: the shipped config's
/// boards, a real SQLite store in a temporary directory, and the same `Pipeline` the server runs.
/// The store's answers come back through a queue that `send` drains on the calling thread, which
/// plays the service thread. Not Sendable: one test, one thread.
final class TestAPI {
    let pipeline: Pipeline
    let boards: Boards
    let writer: BoardWriter
    let store: SQLiteStore
    let configuration: RingCastConfiguration
    let metrics: ServerMetrics
    private let queue = DrainedQueue()
    private let directory: URL

    /// The default `Host` of every request, as a browser on the server's own page would send it.
    static let host = "127.0.0.1:8080"

    init(adjust: (inout RingCastConfiguration) -> Void = { _ in }) throws {
        var configuration = try RingCastConfiguration.load(
            file: repositoryRoot.appendingPathComponent("config/ringcast.json").path, environment: [:])
        configuration.openAPIDocument = nil
        adjust(&configuration)
        self.configuration = configuration
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-api-\(UUID().uuidString)")
        store = try SQLiteStore(directory: directory.path)
        var logger = Logger(label: "ringcast-test")
        logger.logLevel = .critical
        let clock = TickClock(fps: configuration.fps)
        let metrics = ServerMetrics()
        self.metrics = metrics
        boards = Boards(
            specs: configuration.boards, stored: [:], fps: configuration.fps, tick: clock.currentTick(), logger: logger,
            maximumBoards: configuration.maxBoards, maximumRings: configuration.maxRingsPerBoard)
        boards.autoCreate = configuration.autoCreate
        writer = BoardWriter(
            store: store, boards: boards, clock: clock, queue: queue, metrics: metrics, configuration: configuration,
            logger: logger)
        pipeline = Pipeline(
            configuration: configuration, boards: boards, backend: writer, metrics: metrics,
            openAPIDocument: Array("openapi: 3.1.0\n".utf8), clock: clock)
        pipeline.attach(queue: queue)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends one request through the pipeline and returns its answer, waiting (at most 5 s) for the
    /// store when it is a write. `path` may carry a query (`?token=`).
    func send(
        _ method: String,
        _ path: String,
        headers: [String: String] = ["Content-Type": "application/json"],
        body: String? = nil,
        peer: String = "127.0.0.1"
    ) throws -> TestResponse {
        let request = request(method, path, headers: headers, body: body, peer: peer)
        var answer: HTTPResponse?
        var answers = 0
        pipeline.handle(request) { response in
            answer = response
            answers += 1
        }
        guard queue.run(until: { answer != nil }, timeout: 5), let answer else {
            throw TestHTTPError.io("no answer to \(method) \(path) within 5 s")
        }
        precondition(answers == 1, "answered \(answers) times")
        return Self.testResponse(answer)
    }

    /// The request the transport would hand over for these parts.
    func request(
        _ method: String,
        _ path: String,
        headers: [String: String] = ["Content-Type": "application/json"],
        body: String? = nil,
        peer: String = "127.0.0.1"
    ) -> HTTPRequest {
        let parts = path.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        for pair in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let nameValue = pair.split(separator: "=", maxSplits: 1)
            query[String(nameValue[0])] = nameValue.count > 1 ? String(nameValue[1]) : ""
        }
        var lowercased = ["host": Self.host]
        for (name, value) in headers { lowercased[name.lowercased()] = value }
        return HTTPRequest(
            method: method, path: String(parts[0]), query: query, headers: lowercased, body: Array((body ?? "").utf8), peer: peer)
    }

    static func testResponse(_ response: HTTPResponse) -> TestResponse {
        var names: [String: String] = [:]
        for header in response.headers { names[header.name.lowercased()] = header.value }
        return TestResponse(status: response.status, headers: names, body: response.body)
    }

    func get(_ path: String, headers: [String: String] = [:]) throws -> TestResponse {
        try send("GET", path, headers: headers)
    }

    /// Runs what the store hands back to the service thread until `done()` holds; false after `timeout` seconds.
    func drain(until done: () -> Bool, timeout: Double = 5) -> Bool {
        queue.run(until: done, timeout: timeout)
    }

    /// Runs what the store handed back to the service thread, until nothing is pending.
    func settle() {
        _ = queue.run(until: { false }, timeout: 0.05)
    }
}

/// The service thread's inbox for in-process tests: the store's completions land here and run when
/// the test drains it, on the test's thread.
final class DrainedQueue: ServiceQueue {
    private let jobs = Mutex<[(due: Double, work: @Sendable () -> Void)]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func async(_ work: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append((0, work)) }
        arrived.signal()
    }

    func async(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        let due = Date().timeIntervalSince1970 + seconds
        jobs.withLock { $0.append((due, work)) }
        arrived.signal()
    }

    /// Runs the jobs that are due until `done()` holds; false when `timeout` seconds pass first.
    func run(until done: () -> Bool, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !done() {
            let now = Date().timeIntervalSince1970
            let due = jobs.withLock { jobs -> [@Sendable () -> Void] in
                let ready = jobs.filter { $0.due <= now }.map(\.work)
                jobs.removeAll { $0.due <= now }
                return ready
            }
            for work in due { work() }
            if !due.isEmpty { continue }
            guard Date() < deadline else { return false }
            _ = arrived.wait(timeout: .now() + .milliseconds(10))
        }
        return true
    }
}
