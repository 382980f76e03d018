import ArgumentParser
import Foundation

/// `ringcast-bench cluster-report`: the "Cluster" section of docs/BENCHMARKS.md from the
/// `--cluster` runs of `make bench-cluster` (one node, then several on one port), written into
/// the file in place of the old one, the rest of the file kept; and printed.
struct BenchClusterReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster-report",
        abstract: "Write the Cluster section of docs/BENCHMARKS.md from ringcast-bench --cluster --json results."
    )

    @Argument(help: "Result files written by ringcast-bench --cluster --json: one node, then several.")
    var results: [String]

    @OptionGroup var document: BenchReportOptions

    @Option(help: "The nodes' cluster.leadMilliseconds (the cross-node latency target is the lead + 20 ms).")
    var leadMilliseconds = 50.0

    @Option(help: "How Redis or a node was started (repeatable; shown in the section).")
    var serverCommand: [String] = []

    func run() throws {
        var runs = try BenchReport.load(results)
        for index in runs.indices {
            guard runs[index].cluster != nil else {
                throw ValidationError("\(results[index]): not a result of ringcast-bench --cluster")
            }
            runs[index].command = BenchReport.hiding(document.temporaryDirectory, in: runs[index].command)
        }
        let setup = BenchReportDocument.ClusterSetup(
            machine: .current(),
            fps: document.fps,
            leadMilliseconds: leadMilliseconds,
            runCommand: document.runCommand ?? "make bench-cluster",
            serverCommands: serverCommand.map { BenchReport.hiding(document.temporaryDirectory, in: [$0])[0] }
        )
        let section = BenchReportDocument.clusterSection(runs, setup: setup).joined(separator: "\n")
        let output = document.output
        let old = BenchSystem.read(output) ?? ""
        try BenchReport.write(
            BenchReportDocument.replacingSection(BenchReportDocument.clusterHeading, in: old, with: section), to: output)
        print(section)
        print("wrote the Cluster section of \(output)")
    }
}
