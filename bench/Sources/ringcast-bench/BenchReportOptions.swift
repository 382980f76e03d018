import ArgumentParser

/// What `report` and `cluster-report` are both told: the Markdown file, and how the benchmark ran.
struct BenchReportOptions: ParsableArguments {
    @Option(help: "The Markdown file to write (cluster-report replaces only its Cluster section).")
    var output = "docs/BENCHMARKS.md"

    @Option(help: "The frames per second the servers were started with.")
    var fps = 60

    @Option(help: "The command that ran the whole benchmark (shown in the report; default: make bench, make bench-cluster).")
    var runCommand: String?

    @Option(help: "A temporary directory the commands used, shown as $TMP in the report.")
    var temporaryDirectory: String?
}
