import ArgumentParser
import Foundation

/// `ringcast-bench report`: turns the JSON of several `ringcast-bench --json` runs into
/// docs/BENCHMARKS.md — the machine, the commands, a table per scenario and the targets.
struct BenchReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a Markdown report (docs/BENCHMARKS.md) from ringcast-bench --json results."
    )

    @Argument(help: "Result files written by ringcast-bench --json, one per scenario (any --scenario).")
    var results: [String]

    @Option(help: "The Markdown file to write.")
    var output = "docs/BENCHMARKS.md"

    @Option(help: "How the server was started for each scenario (shown in the report).")
    var serverCommand: String?

    @Option(help: "The command that ran the whole benchmark (shown in the report).")
    var runCommand = "make bench"

    @Option(help: "A result of ringcast-bench --watch-only against bench/baseline's C broadcaster (repeatable).")
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
                    throw ValidationError("\(path): not a ringcast-bench result: \(error)")
                }
            }
        }
        var runs: [BenchResult] = []
        var pushRuns: [BenchPushResult] = []
        var joinRuns: [BenchJoinResult] = []
        for path in results {
            // Results of --scenario pushers and join-storm say so; those of viewers predate the key.
            struct Scenario: Decodable { var scenario: String? }
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ValidationError("\(path): cannot read it: \(error.localizedDescription)")
            }
            func decode<Result: Decodable>(_ type: Result.Type) throws -> Result {
                do {
                    return try JSONDecoder().decode(type, from: data)
                } catch {
                    throw ValidationError("\(path): not a ringcast-bench result: \(error)")
                }
            }
            switch (try? JSONDecoder().decode(Scenario.self, from: data))?.scenario {
            case BenchPushResult.scenario: pushRuns.append(try decode(BenchPushResult.self))
            case BenchJoinResult.scenario: joinRuns.append(try decode(BenchJoinResult.self))
            case nil: runs.append(try decode(BenchResult.self))
            case let other?: throw ValidationError("\(path): a result of an unknown scenario \"\(other)\"")
            }
        }
        var baselines = try load(baseline).sorted { $0.settings.viewers < $1.settings.viewers }
        // On disk first, then in memory; joins by watchers.
        pushRuns.sort { ($0.dataFilesystem?.isInMemory ?? true ? 1 : 0) < ($1.dataFilesystem?.isInMemory ?? true ? 1 : 0) }
        joinRuns.sort { $0.settings.watchers < $1.settings.watchers }
        // The default client first, then by viewers.
        let clients = BenchClientKind.allCases.map(\.rawValue)
        func order(_ run: BenchResult) -> (Int, Int) {
            (clients.firstIndex(of: run.settings.client) ?? clients.count, run.settings.viewers)
        }
        runs.sort { order($0) < order($1) }
        if let temporaryDirectory, !temporaryDirectory.isEmpty {
            func hide(_ command: inout [String]) {
                command = command.map { $0.replacingOccurrences(of: temporaryDirectory, with: "$TMP") }
            }
            for index in runs.indices { hide(&runs[index].command) }
            for index in baselines.indices { hide(&baselines[index].command) }
            for index in pushRuns.indices { hide(&pushRuns[index].command) }
            for index in joinRuns.indices { hide(&joinRuns[index].command) }
        }
        let markdown = BenchReportDocument(
            runs: runs,
            baselines: baselines,
            pushRuns: pushRuns,
            joinRuns: joinRuns,
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
