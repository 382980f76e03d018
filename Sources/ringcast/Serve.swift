import ArgumentParser
import Dispatch
import Foundation
import Logging
import RingCastServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the dashboard, the REST API and the WebSocket endpoint on one port.",
        discussion: """
            Settings come from the config file, then RINGCAST_HOST, RINGCAST_PORT, RINGCAST_FPS, \
            RINGCAST_WEB_ROOT, RINGCAST_DATA_DIR, RINGCAST_TLS_CERT, RINGCAST_TLS_KEY, RINGCAST_REDIS_URL, \
            RINGCAST_NODE and RINGCAST_SHUTDOWN_TIMEOUT, then these \
            flags. Prints "listening on http://HOST:PORT" (https with --tls-cert and --tls-key) when \
            ready. SIGTERM or SIGINT drains: no new connections, the requests already received are \
            answered (later ones get 503), viewers are closed with 1001, the store is flushed, then it \
            exits 0 — within shutdownTimeout; a second SIGTERM or SIGINT exits at once. SIGHUP reloads \
            the config (see docs/CONFIGURATION.md for what takes effect without a restart).
            """
    )

    @Option(help: "The config file (default: $RINGCAST_CONFIG or config/ringcast.json).")
    var config: String?

    @Option(help: "Interface to listen on, e.g. 127.0.0.1 or 0.0.0.0.")
    var host: String?

    @Option(help: "TCP port; 0 picks a free one.")
    var port: Int?

    @Option(help: "Directory where pushed values are stored.")
    var dataDir: String?

    @Option(help: "Directory of the dashboard's static files.")
    var webRoot: String?

    @Option(help: "Animation frames per second.")
    var fps: Int?

    @Option(help: "PEM certificate (chain) to serve https and wss with; needs --tls-key.")
    var tlsCert: String?

    @Option(help: "PEM private key of --tls-cert, unencrypted.")
    var tlsKey: String?

    @Option(help: "Cluster mode: share boards with other nodes through Redis at redis://HOST:PORT[/DB] (docs/CLUSTER.md).")
    var redis: String?

    @Option(help: "This node's name in cluster mode (default: HOST:PORT).")
    var node: String?

    @Option(help: "What to log: trace, debug, info, notice, warning, error, critical (default: the config's logLevel).")
    var logLevel: LogLevel?

    @Option(
        help:
            "Seconds SIGTERM may take to answer what was received before exiting, 0…300 (default: the config's shutdownTimeout, 10)."
    )
    var shutdownTimeout: Int?

    @Option(
        help:
            "Service loops, each a thread serving its share of the connections, 1…\(RingCastConfiguration.maximumLoops) (default: the config's loops, else one per core)."
    )
    var loops: Int?

    func run() throws {
        // SIGINT, SIGTERM and SIGHUP stay blocked in every thread (threads inherit this mask, and
        // none has started yet), so one that comes early waits, pending, for its DispatchSource,
        // which reads it with signalfd. libdispatch registers a source on its own thread some time
        // after `resume()`: a SIGTERM sent right after "listening on" was lost while the signal was
        // still SIG_IGN (the server never stopped), and with it unblocked in some threads one
        // SIGTERM was seen to reach the source twice. Nothing runs inside a real signal handler.
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&handled, number) }
        pthread_sigmask(SIG_BLOCK, &handled, nil)
        // Set from the configuration once it is read, and again by every reload that takes.
        let levels = LogLevelSwitch(Logger.Level(rawValue: logLevel?.rawValue ?? "info") ?? .info)
        LoggingSystem.bootstrap { label in SwitchedLogHandler(label: label, levelSwitch: levels) }
        let logger = Logger(label: "ringcast")
        let environment = ProcessInfo.processInfo.environment
        let file = config ?? environment["RINGCAST_CONFIG"] ?? "config/ringcast.json"

        // One line, `ringcast: WHERE: WHAT`, and exit status 1: a bad setting is not a usage
        // error, so ArgumentParser's usage text would only hide the message.
        let overrides = Overrides(
            host: host, port: port, dataDir: dataDir, webRoot: webRoot, fps: fps, tlsCert: tlsCert, tlsKey: tlsKey,
            logLevel: logLevel?.rawValue, redis: redis, node: node, shutdownTimeout: shutdownTimeout, loops: loops)
        let server: RingCastServer
        do {
            let configuration = try overrides.load(file: file, environment: environment)
            levels.set(configuration.logLevel)
            server = try buildServer(configuration: configuration, logger: logger)
        } catch {
            throw CommandFailure("\(error)")
        }

        // Signals are turned into stop() on a Dispatch queue: lws_cancel_service is not
        // async-signal-safe. The first SIGINT or SIGTERM drains; the next ends the process at once
        // by the signal's default action (what the server acknowledged is already durable; the
        // requests still open get no answer).
        signal(SIGPIPE, SIG_IGN)
        let signals = Mutex(0)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { @Sendable in
                let count = signals.withLock {
                    $0 += 1
                    return $0
                }
                guard count == 1 else {
                    logger.warning("signal \(number) during the drain: exiting at once")
                    // Raised on this thread, unblocked here only, so it is not read as a source event.
                    signal(number, SIG_DFL)
                    var only = sigset_t()
                    sigemptyset(&only)
                    sigaddset(&only, number)
                    pthread_sigmask(SIG_UNBLOCK, &only, nil)
                    raise(number)
                    return
                }
                logger.info("signal \(number): stopping")
                server.stop()
            }
            source.resume()
            return source
        }
        // SIGHUP reloads: the same file, environment and flags as at start, read on a queue of its
        // own (one reload at a time, in order), then handed to the service thread by `reload`.
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "ringcast-reload"))
        hangup.setEventHandler { @Sendable in
            logger.info("signal \(SIGHUP): reloading \(file)")
            do {
                let configuration = try overrides.load(file: file, environment: environment)
                // The new level first, so the reload's own lines are logged at it; back if it fails.
                let previous = levels.current
                levels.set(configuration.logLevel)
                server.reload(configuration) { took in
                    if !took { levels.set(previous.rawValue) }
                }
            } catch {
                server.reloadFailed(error)
            }
        }
        hangup.resume()

        // Unbuffered, so a script or test waiting for the line sees it at once.
        FileHandle.standardOutput.write(Data("listening on \(server.url)\n".utf8))
        server.run()
        for source in sources { source.cancel() }
        hangup.cancel()
    }
}

/// The command-line flags that override the config file and the environment, kept so a reload
/// applies them again.
private struct Overrides: Sendable {
    var host: String?
    var port: Int?
    var dataDir: String?
    var webRoot: String?
    var fps: Int?
    var tlsCert: String?
    var tlsKey: String?
    var logLevel: String?
    var redis: String?
    var node: String?
    var shutdownTimeout: Int?
    var loops: Int?

    /// The config file, then the environment, then these flags; checked. An error names the flag
    /// or variable that set the value, else the file and its key.
    func load(file: String, environment: [String: String]) throws -> RingCastConfiguration {
        var configuration = try RingCastConfiguration.read(file: file, environment: environment)
        if let host { configuration.set(\.host, to: host, key: "host", from: "--host") }
        if let port { configuration.set(\.port, to: port, key: "port", from: "--port") }
        if let dataDir { configuration.set(\.dataDirectory, to: dataDir, key: "dataDir", from: "--data-dir") }
        if let webRoot { configuration.set(\.webRoot, to: webRoot, key: "webRoot", from: "--web-root") }
        if let fps { configuration.set(\.fps, to: fps, key: "fps", from: "--fps") }
        if let tlsCert { configuration.set(\.tlsCertificate, to: tlsCert, key: "tls.cert", from: "--tls-cert") }
        if let tlsKey { configuration.set(\.tlsKey, to: tlsKey, key: "tls.key", from: "--tls-key") }
        if let logLevel { configuration.set(\.logLevel, to: logLevel, key: "logLevel", from: "--log-level") }
        if let redis { configuration.set(\.redis, to: redis.isEmpty ? nil : redis, key: "cluster.redis", from: "--redis") }
        if let node { configuration.set(\.node, to: node, key: "cluster.node", from: "--node") }
        if let shutdownTimeout {
            configuration.set(\.shutdownTimeout, to: shutdownTimeout, key: "shutdownTimeout", from: "--shutdown-timeout")
        }
        if let loops { configuration.set(\.loops, to: loops, key: "loops", from: "--loops") }
        try configuration.validate()
        return configuration
    }
}

/// swift-log's levels as a command-line argument.
enum LogLevel: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical
}
