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

    @OptionGroup var document: BenchReportOptions

    @Option(help: "How the server was started for each scenario (shown in the report).")
    var serverCommand: String?

    @Option(help: "A result of ringcast-bench --watch-only against bench/baseline's C broadcaster (repeatable).")
    var baseline: [String] = []

    @Option(help: "A result of ringcast-bench --watch-only against bench/baseline's raw epoll broadcaster (repeatable).")
    var floor: [String] = []

    @Option(help: "How the C broadcaster was started (shown in the report).")
    var baselineCommand: String?

    /// Results of the viewers scenario, `ringcast-bench --json`.
    static func load(_ paths: [String]) throws -> [BenchResult] {
        try paths.map { path in
            do {
                return try JSONDecoder().decode(BenchResult.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw ValidationError("\(path): not a ringcast-bench result: \(error)")
            }
        }
    }

    /// `command` with `temporaryDirectory` (when given) shown as `$TMP`.
    static func hiding(_ temporaryDirectory: String?, in command: [String]) -> [String] {
        guard let temporaryDirectory, !temporaryDirectory.isEmpty else { return command }
        return command.map { $0.replacingOccurrences(of: temporaryDirectory, with: "$TMP") }
    }

    /// Writes `markdown` to `output`.
    static func write(_ markdown: String, to output: String) throws {
        do {
            try Data(markdown.utf8).write(to: URL(fileURLWithPath: output))
        } catch {
            throw BenchFailure("cannot write \(output): \(error.localizedDescription)")
        }
    }

    func run() throws {
        var runs: [BenchResult] = []
        var pushRuns: [BenchPushResult] = []
        var joinRuns: [BenchJoinResult] = []
        var svgRuns: [BenchSVGResult] = []
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
            case BenchSVGResult.scenario: svgRuns.append(try decode(BenchSVGResult.self))
            case nil: runs.append(try decode(BenchResult.self))
            case let other?: throw ValidationError("\(path): a result of an unknown scenario \"\(other)\"")
            }
        }
        var baselines = try Self.load(baseline).sorted { $0.settings.viewers < $1.settings.viewers }
        var floors = try Self.load(floor).sorted { $0.settings.viewers < $1.settings.viewers }
        // On disk first, then in memory; joins by watchers.
        pushRuns.sort { ($0.dataFilesystem?.isInMemory ?? true ? 1 : 0) < ($1.dataFilesystem?.isInMemory ?? true ? 1 : 0) }
        joinRuns.sort { $0.settings.watchers < $1.settings.watchers }
        // The default client first, then by viewers.
        let clients = BenchClientKind.allCases.map(\.rawValue)
        func order(_ run: BenchResult) -> (Int, Int) {
            (clients.firstIndex(of: run.settings.client) ?? clients.count, run.settings.viewers)
        }
        runs.sort { order($0) < order($1) }
        for index in runs.indices { runs[index].command = Self.hiding(document.temporaryDirectory, in: runs[index].command) }
        for index in baselines.indices {
            baselines[index].command = Self.hiding(document.temporaryDirectory, in: baselines[index].command)
        }
        for index in floors.indices {
            floors[index].command = Self.hiding(document.temporaryDirectory, in: floors[index].command)
        }
        for index in pushRuns.indices {
            pushRuns[index].command = Self.hiding(document.temporaryDirectory, in: pushRuns[index].command)
        }
        for index in joinRuns.indices {
            joinRuns[index].command = Self.hiding(document.temporaryDirectory, in: joinRuns[index].command)
        }
        for index in svgRuns.indices {
            svgRuns[index].command = Self.hiding(document.temporaryDirectory, in: svgRuns[index].command)
        }
        var markdown = BenchReportDocument(
            runs: runs,
            baselines: baselines,
            floors: floors,
            pushRuns: pushRuns,
            joinRuns: joinRuns,
            svgRuns: svgRuns,
            baselineCommand: baselineCommand,
            machine: .current(),
            fps: document.fps,
            serverCommand: serverCommand,
            runCommand: document.runCommand ?? "make bench"
        )
        .markdown
        // `make bench-cluster`'s section stays as it was.
        let heading = BenchReportDocument.clusterHeading
        let output = document.output
        if let old = BenchSystem.read(output), let cluster = BenchReportDocument.section(heading, in: old) {
            markdown = BenchReportDocument.replacingSection(heading, in: markdown, with: cluster)
        }
        try Self.write(markdown, to: output)
        print("wrote \(output)")
    }
}
