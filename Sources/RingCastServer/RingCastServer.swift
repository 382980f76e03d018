import Dispatch
import Foundation
import Logging
import RingCastCore
import RingCastTransport

/// A running RingCast: one port serving the dashboard, the REST API and the WebSocket endpoint.
///
/// `run()` turns the calling thread into the service thread; `start()` does the same on a new
/// thread (tests). `stop()` is safe from any thread and closes viewers with 1001.
public final class RingCastServer: Sendable {
    private let web: WebServer
    /// Retained here because the transport holds its delegate weakly; used only on the service
    /// thread, which `WebServer` serialises.
    private nonisolated(unsafe) let application: Application
    private let logger: Logger
    private let finished = DispatchSemaphore(value: 0)

    public let host: String
    public var port: Int { web.port }

    /// The URL people open, e.g. `http://127.0.0.1:8080`.
    public var url: String {
        let shown = host == "0.0.0.0" || host == "::" ? "localhost" : host
        return "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)"
    }

    fileprivate init(web: WebServer, application: Application, host: String, logger: Logger) {
        self.web = web
        self.application = application
        self.host = host
        self.logger = logger
    }

    /// Serves until `stop()`; blocks the calling thread.
    public func run() {
        web.run()
        let sent = web.loop.statistics
        logger.info(
            "stopped: \(application.framesPublished) frames published; \(sent.messagesSent) messages, \(sent.bytesSent) bytes sent; \(sent.messagesSkipped) frames skipped by slow viewers; \(sent.viewersClosedWhileStalled) stalled viewers closed"
        )
        finished.signal()
    }

    /// Serves on a new thread and returns at once.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "ringcast-service"
        thread.start()
    }

    /// Stops serving: no new connections, viewers closed with 1001, then `run()` returns.
    public func stop() {
        web.stop()
    }

    /// Waits until `run()` has returned, at most `timeout` seconds; true when it did.
    @discardableResult
    public func waitUntilStopped(timeout: Double = 5) -> Bool {
        guard finished.wait(timeout: .now() + timeout) == .success else { return false }
        finished.signal()
        return true
    }
}

/// Builds the server the executable and the tests both run: restores the stored state, binds
/// the port and wires the routes. The port is listening when this returns.
public func buildServer(configuration: RingCastConfiguration, logger: Logger = Logger(label: "ringcast")) throws -> RingCastServer
{
    try configuration.validate(source: "configuration")
    var webRoot: String?
    if let root = configuration.webRoot {
        let absolute = URL(fileURLWithPath: root).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute + "/index.html", isDirectory: &isDirectory), !isDirectory.boolValue
        else {
            throw ConfigurationError(file: "configuration", key: "webRoot", message: "\(absolute) has no index.html")
        }
        webRoot = absolute
    }
    let store = try StateStore(directory: URL(fileURLWithPath: configuration.dataDirectory).standardizedFileURL.path)
    var document: [UInt8]?
    if let path = configuration.openAPIDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(
                file: "configuration",
                key: "openAPIDocument",
                message: "cannot read \(URL(fileURLWithPath: path).standardizedFileURL.path)"
            )
        }
        document = Array(data)
    }
    let application = try Application(configuration: configuration, store: store, openAPIDocument: document, logger: logger)
    let transport = TransportConfiguration(
        host: configuration.host,
        port: configuration.port,
        webRoot: webRoot,
        websocketPath: "/ws",
        dynamicPrefixes: ["/api", "/healthz", "/readyz", "/metrics"],
        maxBodyBytes: configuration.maxBodyBytes,
        pingInterval: configuration.pingIntervalSeconds,
        stallTimeout: configuration.stallTimeoutSeconds
    )
    let web = try WebServer(configuration: transport, delegate: application)
    application.attach(to: web.loop)
    return RingCastServer(web: web, application: application, host: configuration.host, logger: logger)
}
