import ArgumentParser

/// What `ringcast-bench` does to the server (`--scenario`).
enum BenchScenario: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Many viewers, a push every --push-interval: frame rate, delivery, push→frame latency.
    case viewers
    /// --pushers clients pushing as fast as they are answered while --viewers watch: push
    /// throughput and latency, and whether the frames keep their pace.
    case pushers
    /// --viewers watchers stay while --join-rate newcomers a second connect, read their layout and
    /// keyframe, and leave: whether the watchers keep their frame rate, and how fast joins are.
    case joinStorm = "join-storm"
    /// --svg-clients clients fetch the SVG of a board of --svg-rings rings in a loop while --viewers watch another
    /// board: whether the viewers' frame gaps stay short.
    case svgFlood = "svg-flood"
}
