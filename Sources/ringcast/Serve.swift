import ArgumentParser
import Dispatch
import Foundation
import Logging
import RingCastServer

#if canImport(Glibc)
    import Glibc
#endif

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the dashboard, the REST API and the WebSocket endpoint on one port.",
        discussion: """
            Settings come from the config file, then RINGCAST_HOST, RINGCAST_PORT, RINGCAST_FPS, \
            RINGCAST_WEB_ROOT and RINGCAST_DATA_DIR, then these flags. Prints \
            "listening on http://HOST:PORT" when ready; SIGINT or SIGTERM stops it cleanly.
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

    @Option(help: "What to log to standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: LogLevel = .info

    func run() throws {
        let level = Logger.Level(rawValue: logLevel.rawValue) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "ringcast")
        let environment = ProcessInfo.processInfo.environment
        let file = config ?? environment["RINGCAST_CONFIG"] ?? "config/ringcast.json"

        // One line, `ringcast: WHERE: WHAT`, and exit status 1: a bad setting is not a usage
        // error, so ArgumentParser's usage text would only hide the message.
        let server: RingCastServer
        do {
            var configuration = try RingCastConfiguration.read(file: file, environment: environment)
            if let host { configuration.set(\.host, to: host, key: "host", from: "--host") }
            if let port { configuration.set(\.port, to: port, key: "port", from: "--port") }
            if let dataDir { configuration.set(\.dataDirectory, to: dataDir, key: "dataDir", from: "--data-dir") }
            if let webRoot { configuration.set(\.webRoot, to: webRoot, key: "webRoot", from: "--web-root") }
            if let fps { configuration.set(\.fps, to: fps, key: "fps", from: "--fps") }
            try configuration.validate()
            server = try buildServer(configuration: configuration, logger: logger)
        } catch {
            throw CommandFailure("\(error)")
        }

        // Signals are turned into stop() on a Dispatch queue: lws_cancel_service is not
        // async-signal-safe, so nothing runs inside a real signal handler.
        signal(SIGPIPE, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { @Sendable in
                logger.info("signal \(number): stopping")
                server.stop()
            }
            source.resume()
            return source
        }

        // Unbuffered, so a script or test waiting for the line sees it at once.
        FileHandle.standardOutput.write(Data("listening on \(server.url)\n".utf8))
        server.run()
        for source in sources { source.cancel() }
    }
}

/// swift-log's levels as a command-line argument.
enum LogLevel: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical
}
