import ArgumentParser
import Foundation
import RingCastClient

/// `ringcast-bench`: load a running server with viewers and measure what they get.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ringcast-bench",
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

            Two more scenarios load the server differently. --scenario pushers: --pushers clients \
            (one thread each, HTTP/1.1 keep-alive) push PUT …/rings/R {"progress":X,"animation":"none"} \
            as fast as they are answered, cycling over the plain rings but the animated one, while \
            --viewers viewers watch; it measures acknowledged pushes/s, push latency, the viewers' frame \
            gaps and the server's late ticks. --scenario join-storm: --viewers watchers stay connected \
            while --join-rate new viewers a second connect, read their layout and keyframe and close; it \
            measures the watchers' frames/s, joins completed/s and connect-to-keyframe latency. \
            --scenario svg-flood: a board of --svg-rings rings is created and --svg-clients clients fetch its SVG \
            in a loop while --viewers viewers (default 1) watch --board; it measures their frame gaps (target p99 \
            ≤ 25 ms) and the GETs answered. All three start measuring after --warmup and measure for --duration seconds.

            With --cluster the server is RingCast cluster nodes sharing one port, one --server-pid \
            each (the kernel splits the connections among them): the bench finds which node holds \
            each viewer's and push's connection in /proc, pushes to each node in turn, splits \
            push→frame latency by whether the viewer is on the node that answered the push, sums \
            CPU over the nodes and compares --compare-viewers viewers' frames across nodes byte \
            for byte. `make bench-cluster` runs one node, then two, and adds a Cluster section to \
            docs/BENCHMARKS.md.
            """,
        subcommands: [BenchReport.self, BenchClusterReport.self]
    )

    @Option(help: "Server URL, loopback only (default: $RINGCAST_URL or http://127.0.0.1:8080).")
    var server: String?

    @Option(
        help: "The server's process id: report its CPU and memory over the run (from /proc). With --cluster, once per node."
    )
    var serverPid: [Int] = []

    @Flag(help: "viewers: the server is cluster nodes sharing one port, one --server-pid each: results per node.")
    var cluster = false

    @Option(help: "With --cluster: viewers, evenly spread, whose frames are compared across nodes (default: 16).")
    var compareViewers: Int?

    @Option(help: "The board to watch and push to.")
    var board = "main"

    @Option(help: "What to measure: viewers (frame rate, delivery, push→frame latency), pushers or join-storm.")
    var scenario = BenchScenario.viewers

    @Option(help: "WebSocket viewers to open; with join-storm the watchers (default: 100; with pushers 200).")
    var viewers: Int?

    @Option(help: "Viewer encoding: json or binary.")
    var format = BenchFormat.binary

    @Option(help: "Viewer client: raw (the bench's own receive-only client, light) or lws (libwebsockets' client, heavy).")
    var client = BenchClientKind.raw

    @Option(help: "Seconds between latency probes (pushes), on average; each gap is 0.5 to 1.5 times this (default: 0.2).")
    var pushInterval: Double?

    @Option(help: "Seconds to measure, after the warm-up (default: 20; with join-storm 10).")
    var duration: Double?

    @Option(help: "Seconds between opening the viewers and measuring.")
    var warmup = 3.0

    @Option(help: "How many viewers, evenly spread, measure latency (every viewer counts frames) (default: 50).")
    var latencyViewers: Int?

    @Option(help: "pushers: concurrent pushing clients, one thread each (default: 8).")
    var pushers: Int?

    @Option(
        help:
            "pushers: each push's animation: none (default), default (the server's, easeInOut 1 s) or seconds of a linear one.")
    var pushAnimation: String?

    @Option(
        help:
            "pushers: boards pushed to: the board and, beyond 1, boards bench-2 … bench-N made from its template (default: 1).")
    var pushBoards: Int?

    @Option(help: "pushers: what to call the server measured in the report, e.g. an older build (default: this build).")
    var label: String?

    @Option(help: "join-storm: new viewers a second during the window (default: 200).")
    var joinRate: Double?

    @Option(help: "svg-flood: clients fetching the SVG in a loop, one thread each (default: 4).")
    var svgClients: Int?

    @Option(help: "svg-flood: rings of the board whose SVG is fetched (default: 255, the most a server allows).")
    var svgRings: Int?

    @Option(help: "pushers, join-storm: the server's data directory, so the result names its filesystem (tmpfs, ext4 …).")
    var dataDir: String?

    @Option(help: "Also write the result as JSON to this file.")
    var json: String?

    @Option(help: "Token for writes, viewers and /metrics (default: $RINGCAST_TOKEN).")
    var token: String?

    @Flag(help: "Only open the viewers and count frames: no pushes, no REST call (for bench/baseline's broadcaster).")
    var watchOnly = false

    @Option(help: "Write one viewer's frames from the measurement window to this file, for bench/baseline to replay.")
    var recordFrames: String?

    func validate() throws {
        guard (1...100_000).contains(resolvedViewers) else {
            throw ValidationError("--viewers must be 1 to 100000, got \(resolvedViewers)")
        }
        guard resolvedDuration >= 1, resolvedDuration <= 3600 else {
            throw ValidationError("--duration must be 1 to 3600 seconds, got \(resolvedDuration)")
        }
        guard warmup >= 0, warmup <= 600 else {
            throw ValidationError("--warmup must be 0 to 600 seconds, got \(warmup)")
        }
        guard format.readerType != nil else {
            throw ValidationError("--format \(format.rawValue): this version of ringcast-bench cannot read those frames yet")
        }
        for pid in serverPid where pid <= 0 {
            throw ValidationError("--server-pid must be a process id, got \(pid)")
        }
        guard serverPid.count <= 1 || cluster else {
            throw ValidationError("--server-pid is given once, or once per node with --cluster")
        }
        // Options of one scenario given to another are mistakes, not silently ignored.
        func only(_ option: String, isSet: Bool, in scenarios: BenchScenario...) throws {
            guard isSet, !scenarios.contains(scenario) else { return }
            let names = scenarios.map(\.rawValue).joined(separator: " or ")
            throw ValidationError("\(option) applies to --scenario \(names), not \(scenario.rawValue)")
        }
        try only("--push-interval", isSet: pushInterval != nil, in: .viewers)
        try only("--latency-viewers", isSet: latencyViewers != nil, in: .viewers)
        try only("--watch-only", isSet: watchOnly, in: .viewers)
        try only("--record-frames", isSet: recordFrames != nil, in: .viewers)
        try only("--client \(client.rawValue)", isSet: client != .raw, in: .viewers)
        try only("--cluster", isSet: cluster, in: .viewers)
        try only("--pushers", isSet: pushers != nil, in: .pushers)
        try only("--push-animation", isSet: pushAnimation != nil, in: .pushers)
        try only("--push-boards", isSet: pushBoards != nil, in: .pushers)
        try only("--label", isSet: label != nil, in: .pushers)
        if let pushBoards, !(1...1000).contains(pushBoards) {
            throw ValidationError("--push-boards must be 1 to 1000, got \(pushBoards)")
        }
        if let pushAnimation, BenchPushAnimation(argument: pushAnimation) == nil {
            throw ValidationError("--push-animation must be none, default or 0.001 to 60 seconds, got \(pushAnimation)")
        }
        try only("--join-rate", isSet: joinRate != nil, in: .joinStorm)
        try only("--data-dir", isSet: dataDir != nil, in: .pushers, .joinStorm)
        try only("--svg-clients", isSet: svgClients != nil, in: .svgFlood)
        try only("--svg-rings", isSet: svgRings != nil, in: .svgFlood)
        if let svgClients, !(1...64).contains(svgClients) {
            throw ValidationError("--svg-clients must be 1 to 64, got \(svgClients)")
        }
        if let svgRings, !(1...255).contains(svgRings) {
            throw ValidationError("--svg-rings must be 1 to 255, got \(svgRings)")
        }

        let pushInterval = pushInterval ?? 0.2
        guard pushInterval >= 0.01, pushInterval <= 60 else {
            throw ValidationError("--push-interval must be 0.01 to 60 seconds, got \(pushInterval)")
        }
        if cluster {
            guard !serverPid.isEmpty else { throw ValidationError("--cluster needs --server-pid, once per node") }
            guard client == .raw, !watchOnly else {
                throw ValidationError("--cluster needs the raw client (it knows each viewer's connection) and pushes")
            }
        }
        if let compareViewers {
            guard cluster else { throw ValidationError("--compare-viewers applies to --cluster") }
            guard compareViewers >= 0 else {
                throw ValidationError("--compare-viewers cannot be negative, got \(compareViewers)")
            }
        }
        if let latencyViewers, latencyViewers < 0 {
            throw ValidationError("--latency-viewers cannot be negative, got \(latencyViewers)")
        }
        if recordFrames != nil, format != .binary {
            throw ValidationError("--record-frames records binary frames: use it with --format binary")
        }
        if let pushers, !(1...1000).contains(pushers) {
            throw ValidationError("--pushers must be 1 to 1000, got \(pushers)")
        }
        if let joinRate, !(joinRate >= 0.1 && joinRate <= 10_000) {
            throw ValidationError("--join-rate must be 0.1 to 10000 joins a second, got \(joinRate)")
        }
        if let joinRate, joinRate * resolvedDuration < 1 {
            throw ValidationError("--join-rate \(joinRate) for --duration \(resolvedDuration) s asks for no join at all")
        }
        if let dataDir {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dataDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--data-dir \(dataDir): no such directory")
            }
        }
    }

    private var resolvedViewers: Int { viewers ?? (scenario == .pushers ? 200 : scenario == .svgFlood ? 1 : 100) }
    private var resolvedDuration: Double { duration ?? (scenario == .joinStorm || scenario == .svgFlood ? 10 : 20) }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        do {
            let address = try ServerAddress(loopbackURL: server ?? environment["RINGCAST_URL"] ?? "http://127.0.0.1:8080")
            let shared = BenchSettings(
                address: address,
                token: token ?? environment["RINGCAST_TOKEN"],
                board: board,
                format: format,
                duration: resolvedDuration,
                warmup: warmup,
                serverPIDs: serverPid
            )
            switch scenario {
            case .viewers:
                let settings = BenchRun.Settings(
                    shared: shared,
                    client: client,
                    viewers: resolvedViewers,
                    latencyViewers: latencyViewers ?? 50,
                    pushInterval: pushInterval ?? 0.2,
                    watchOnly: watchOnly,
                    recordFramesPath: recordFrames,
                    cluster: cluster,
                    comparedViewers: cluster ? compareViewers ?? 16 : 0
                )
                let result = try BenchRun(settings: settings).run()
                try report(result, table: result.table)
            case .pushers:
                let load = BenchLoadRun(settings: shared, viewers: resolvedViewers)
                let animation = pushAnimation.flatMap(BenchPushAnimation.init(argument:)) ?? .none
                let result = try BenchPushRun(
                    load: load, pushers: pushers ?? 8, animation: animation, boards: pushBoards ?? 1, dataDirectory: dataDir,
                    label: label
                ).run()
                try report(result, table: result.table)
            case .joinStorm:
                let load = BenchLoadRun(settings: shared, viewers: resolvedViewers)
                let result = try BenchJoinRun(load: load, joinRate: joinRate ?? 200, dataDirectory: dataDir).run()
                try report(result, table: result.table)
            case .svgFlood:
                let load = BenchLoadRun(settings: shared, viewers: resolvedViewers)
                let result = try BenchSVGRun(load: load, clients: svgClients ?? 4, rings: svgRings ?? 255).run()
                try report(result, table: result.table)
            }
        } catch let failure as BenchFailure {
            throw failure
        } catch {
            throw BenchFailure("\(error)")
        }
    }

    /// Prints the table and writes the JSON (`--json`).
    private func report(_ result: some Encodable, table: String) throws {
        print(table, terminator: "")
        guard let json else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(result).write(to: URL(fileURLWithPath: json))
    }
}
