import ArgumentParser
import Foundation

/// `ringcast bench report`: turns the JSON of several `ringcast bench --json` runs into
/// docs/BENCHMARKS.md — the machine, the commands, a table per scenario and the targets.
struct BenchReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a Markdown report (docs/BENCHMARKS.md) from ringcast bench --json results."
    )

    @Argument(help: "Result files written by ringcast bench --json, one per scenario.")
    var results: [String]

    @Option(help: "The Markdown file to write.")
    var output = "docs/BENCHMARKS.md"

    @Option(help: "How the server was started for each scenario (shown in the report).")
    var serverCommand: String?

    @Option(help: "The command that ran the whole benchmark (shown in the report).")
    var runCommand = "make bench"

    @Option(help: "A result of ringcast bench --watch-only against bench/baseline's C broadcaster (repeatable).")
    var baseline: [String] = []

    @Option(help: "How the C broadcaster was started (shown in the report).")
    var baselineCommand: String?

    @Option(help: "The frames per second the servers were started with.")
    var fps = 60

    @Option(help: "A temporary directory the commands used, shown as $TMP in the report.")
    var temporaryDirectory: String?

    func run() throws {
        func load(_ paths: [String]) throws -> [BenchResult] {
            try paths.map { path in
                do {
                    return try JSONDecoder().decode(BenchResult.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
                } catch {
                    throw ValidationError("\(path): not a ringcast bench result: \(error)")
                }
            }
        }
        var runs = try load(results)
        var baselines = try load(baseline).sorted { $0.settings.viewers < $1.settings.viewers }
        // The default client first, then by viewers.
        let clients = BenchClientKind.allCases.map(\.rawValue)
        func order(_ run: BenchResult) -> (Int, Int) {
            (clients.firstIndex(of: run.settings.client) ?? clients.count, run.settings.viewers)
        }
        runs.sort { order($0) < order($1) }
        if let temporaryDirectory, !temporaryDirectory.isEmpty {
            func hide(_ run: inout BenchResult) {
                run.command = run.command.map { $0.replacingOccurrences(of: temporaryDirectory, with: "$TMP") }
            }
            for index in runs.indices { hide(&runs[index]) }
            for index in baselines.indices { hide(&baselines[index]) }
        }
        let markdown = BenchReportDocument(
            runs: runs,
            baselines: baselines,
            baselineCommand: baselineCommand,
            machine: .current(),
            fps: fps,
            serverCommand: serverCommand,
            runCommand: runCommand
        )
        .markdown
        do {
            try Data(markdown.utf8).write(to: URL(fileURLWithPath: output))
        } catch {
            throw BenchFailure("cannot write \(output): \(error.localizedDescription)")
        }
        print("wrote \(output)")
    }
}
