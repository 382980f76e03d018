import ArgumentParser
import Foundation

/// `ringcast bench`: load a running server with viewers and measure what they get.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open many viewers on a running server and measure frame rate, delivery and push-to-frame latency.",
        discussion: """
            Keeps one ring of the board animating (so the server sends a frame every tick), opens \
            --viewers WebSocket viewers, and after --warmup seconds measures for --duration \
            seconds while it pushes a new value to another ring every --push-interval seconds on average. \
            Latency is the time from reading a push's 2xx to a viewer receiving the first frame \
            that shows the value, measured on --latency-viewers of the viewers. The run changes \
            the board (the probe ring ends at its old target, or where the probes left it): use \
            a server set aside for it. Loopback servers only. `make bench` runs the standard \
            scenarios and writes docs/BENCHMARKS.md. With --watch-only the bench makes no REST call \
            and only counts the frames (for bench/baseline's C broadcaster, which has no API).
            """,
        subcommands: [BenchReport.self]
    )

    @Option(help: "Server URL, loopback only (default: $RINGCAST_URL or http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "The server's process id: report its CPU and memory over the run (from /proc).")
    var serverPid: Int?

    @Option(help: "The board to watch and push to.")
    var board = "main"

    @Option(help: "WebSocket viewers to open.")
    var viewers = 100

    @Option(help: "Viewer encoding: json or binary.")
    var format = BenchFormat.binary

    @Option(help: "Viewer client: raw (the bench's own receive-only client, light) or lws (libwebsockets' client, heavy).")
    var client = BenchClientKind.raw

    @Option(help: "Seconds between latency probes (pushes), on average; each gap is 0.5 to 1.5 times this.")
    var pushInterval = 0.2

    @Option(help: "Seconds to measure, after the warm-up.")
    var duration = 20.0

    @Option(help: "Seconds between opening the viewers and measuring.")
    var warmup = 3.0

    @Option(help: "How many viewers, evenly spread, measure latency (every viewer counts frames).")
    var latencyViewers = 50

    @Option(help: "Also write the result as JSON to this file.")
    var json: String?

    @Option(help: "Token for writes, viewers and /metrics (default: $RINGCAST_TOKEN).")
    var token: String?

    @Flag(help: "Only open the viewers and count frames: no pushes, no REST call (for bench/baseline's broadcaster).")
    var watchOnly = false

    @Option(help: "Write one viewer's frames from the measurement window to this file, for bench/baseline to replay.")
    var recordFrames: String?

    func validate() throws {
        guard (1...100_000).contains(viewers) else {
            throw ValidationError("--viewers must be 1 to 100000, got \(viewers)")
        }
        guard pushInterval >= 0.01, pushInterval <= 60 else {
            throw ValidationError("--push-interval must be 0.01 to 60 seconds, got \(pushInterval)")
        }
        guard duration >= 1, duration <= 3600 else {
            throw ValidationError("--duration must be 1 to 3600 seconds, got \(duration)")
        }
        guard warmup >= 0, warmup <= 600 else {
            throw ValidationError("--warmup must be 0 to 600 seconds, got \(warmup)")
        }
        guard latencyViewers >= 0 else {
            throw ValidationError("--latency-viewers cannot be negative, got \(latencyViewers)")
        }
        guard format.readerType != nil else {
            throw ValidationError("--format \(format.rawValue): this version of ringcast bench cannot read those frames yet")
        }
        if recordFrames != nil, format != .binary {
            throw ValidationError("--record-frames records binary frames: use it with --format binary")
        }
        if let serverPid, serverPid <= 0 {
            throw ValidationError("--server-pid must be a process id, got \(serverPid)")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        do {
            let settings = BenchRun.Settings(
                address: try ServerAddress(url: server ?? environment["RINGCAST_URL"] ?? "http://127.0.0.1:8080"),
                token: token ?? environment["RINGCAST_TOKEN"],
                board: board,
                format: format,
                client: client,
                viewers: viewers,
                latencyViewers: latencyViewers,
                pushInterval: pushInterval,
                duration: duration,
                warmup: warmup,
                serverPID: serverPid,
                watchOnly: watchOnly,
                recordFramesPath: recordFrames
            )
            let result = try BenchRun(settings: settings).run()
            print(result.table, terminator: "")
            if let json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try encoder.encode(result).write(to: URL(fileURLWithPath: json))
            }
        } catch let failure as BenchFailure {
            throw failure
        } catch {
            throw BenchFailure("\(error)")
        }
    }
}
