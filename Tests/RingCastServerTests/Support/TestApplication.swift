import Dispatch
import Foundation
import Logging
import RingCastCore
import RingCastStorage
import RingCastTransport
import Synchronization

@testable import RingCastServer

/// The shipped wiring in process: the real `Application` — built with the same init the server uses, on the shipped
/// config's boards (or an adjusted copy) and a real SQLite store in a temporary directory — attached to a
/// `MemoryLoop` instead of the transport, on a `TickClock` whose time moves only when the test says so. Requests go
/// through `Application.handleHTTP`, viewers through `Application.admitViewer` (host, origin, tokens, limits, scopes),
/// and the broadcaster's, playlists' and webhooks' timers run as the test advances the ticks. The store's answers and
/// anything else handed back to the service thread run when the test drains the loop, on the test's thread. No
/// sockets, no sleeps. Not Sendable: one test, one thread.
final class TestApplication {
    let application: Application
    let loop: MemoryLoop
    let time: ManualTime
    let store: SQLiteStore
    let configuration: RingCastConfiguration
    private let directory: URL
    /// Set by `killedAndRestarted()`: the directory is the next instance's.
    private var handedOver = false

    var boards: Boards { application.boards }
    var pipeline: Pipeline { application.pipeline }
    var playlists: Playlists { application.playlists }
    /// The embedded store's writer, the backend a single server runs.
    var writer: BoardWriter { application.backend as! BoardWriter }
    var fps: Int { configuration.fps }

    /// The default `Host` of every request, as a browser on the server's own page would send it.
    static let host = "127.0.0.1:8080"

    /// Starts in the middle of the tick it is now on the real clock (so that dates a test computes from today stay
    /// meaningful), or at `seconds` since the Unix epoch; from then on time moves only through `advance`. With
    /// `directory`, on the store a server left there, read as a start reads it (`loadStates`: snapshots, then the
    /// change log replayed).
    init(
        adjust: (inout RingCastConfiguration) -> Void = { _ in }, directory: URL? = nil, seconds: Double? = nil
    ) throws {
        var configuration = try RingCastConfiguration.load(
            file: repositoryRoot.appendingPathComponent("config/ringcast.json").path, environment: [:])
        configuration.openAPIDocument = nil
        adjust(&configuration)
        self.configuration = configuration
        let directory =
            directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-app-\(UUID().uuidString)")
        self.directory = directory
        store = try SQLiteStore(
            directory: directory.path,
            retention: ChangeRetention(
                seconds: Int64(configuration.historySeconds), changes: Int64(configuration.historyChanges)),
            history: HistoryBound(configuration.historyRetention))
        var logger = Logger(label: "ringcast-test")
        logger.logLevel = .critical
        let stored = try loadStates(from: store, directory: directory.path, configuration: configuration, logger: logger)
        let fps = Double(configuration.fps)
        time = ManualTime(seconds: seconds ?? ((Date().timeIntervalSince1970 * fps).rounded(.down) + 0.5) / fps)
        application = Application(
            configuration: configuration, storage: .embedded(store), stored: stored,
            openAPIDocument: Array("openapi: 3.1.0\n".utf8), logger: logger, time: time)
        loop = MemoryLoop(time: time, delegate: application)
        application.attach(to: loop)
        loop.runReady()
    }

    deinit {
        application.stopWebhooks()
        store.close()
        if !handedOver { try? FileManager.default.removeItem(at: directory) }
    }

    /// This server killed (no shutdown: no snapshots written, the writes it acknowledged committed) and another
    /// started on its data directory at the same time, its configuration the shipped one as `adjust` changes it
    /// (pass the first one's `adjust` again to keep it).
    func killedAndRestarted(adjust: (inout RingCastConfiguration) -> Void = { _ in }) throws -> TestApplication {
        application.stopWebhooks()
        store.close()
        handedOver = true
        return try TestApplication(adjust: adjust, directory: directory, seconds: time.now)
    }

    // MARK: - Ticks

    /// The tick it is now.
    var tick: Int64 { Int64((time.now * Double(fps)).rounded(.down)) }

    /// Moves the time to the middle of `tick`, running every timer due on the way at its own time (the broadcaster's
    /// frames, playlist switches, countdown ends, the store's checks).
    func advance(toTick tick: Int64) {
        loop.advance(to: (Double(tick) + 0.5) / Double(fps))
    }

    /// Moves the time on by `ticks` ticks.
    func advance(ticks: Int64) {
        advance(toTick: tick + ticks)
    }

    /// Moves the time on a tick at a time until `condition` holds, at most `limit` ticks; whether it came to hold.
    @discardableResult
    func advance(atMost limit: Int64, until condition: () -> Bool) -> Bool {
        let end = tick + limit
        while !condition() {
            guard tick < end else { return false }
            advance(ticks: 1)
        }
        return true
    }

    /// Moves the time on by `seconds` (for what is paced in seconds: the write rate, the store's checks).
    func advance(seconds: Double) {
        loop.advance(to: time.now + seconds)
    }

    // MARK: - Viewers

    /// A WebSocket upgrade to `/ws?query` through `Application.admitViewer`, as a browser on the server's own page
    /// sends it (its Host and Origin; `headers` add or replace some). The viewer has read its greeting, or holds the
    /// refusal.
    func connect(_ query: String = "board=main", headers: [String: String] = [:]) -> MemoryViewer {
        var all = ["Origin": "http://\(Self.host)"]
        for (name, value) in headers { all[name] = value }
        let viewer = loop.connect(request("GET", "/ws?" + query, headers: all))
        loop.runReady()
        return viewer
    }

    /// Runs `configuration` adjusted by `adjust`, as a SIGHUP does; whether it took.
    @discardableResult
    func reload(_ adjust: (inout RingCastConfiguration) -> Void) throws -> Bool {
        var requested = configuration
        adjust(&requested)
        try requested.validate()
        let applied = application.reload(requested, stored: try store.loadAll())
        loop.runReady()
        return applied
    }

    /// Sends one request through `Application.handleHTTP` and returns its answer, waiting (at most 30 s: a loaded
    /// machine delayed a commit's sync past 5 s) for the
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
        application.handleHTTP(request) { response in
            answer = response
            answers += 1
        }
        guard loop.run(until: { answer != nil }, timeout: 30), let answer else {
            throw TestHTTPError.io("no answer to \(method) \(path) within 30 s")
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
    func drain(until done: () -> Bool, timeout: Double = 30) -> Bool {
        loop.run(until: done, timeout: timeout)
    }

    /// Runs what was handed back to the service thread and the timers due, until nothing is ready.
    func settle() {
        loop.runReady()
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
