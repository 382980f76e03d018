/// What a load scenario's standing viewers received over its window, from the recorder: how many
/// were there, frames per second each, delivery, and the time between consecutive frames.
struct BenchViewerSummary: Codable, Sendable {
    struct Rates: Codable, Sendable {
        var min: Double
        var mean: Double
        var median: Double
        var max: Double
    }

    var requested: Int
    var connected: Int
    /// Open when the window started: the viewers every figure below is about.
    var measured: Int
    /// Measured viewers whose connection ended before the window did.
    var droppedDuringWindow: Int
    /// Why connections failed or ended early, with how many.
    var endings: [String: Int]
    /// `seq` span over the window: frames the server published to the board.
    var framesPublished: Int
    var publishedPerSecond: Double
    /// Frames each measured viewer received during the window, per second.
    var framesPerSecond: Rates
    /// Frames received ÷ (measured viewers × frames published).
    var delivery: Double
    /// Frames that arrived with a `seq` not above the previous one (must be 0).
    var outOfOrder: Int
    /// Time between consecutive frames of one viewer, over every measured viewer (1000 / fps when
    /// every tick arrives on time).
    var frameGapMilliseconds: BenchResult.Percentiles

    /// `seconds` long, frames after `startSeq` up to `endSeq`.
    init(_ state: BenchRecorder.State, requested: Int, seconds: Double, startSeq: UInt64, endSeq: UInt64) {
        let measured = state.viewers.filter(\.inWindow)
        let published = Int(endSeq - startSeq)
        let rates = measured.map { Double($0.windowFrames) / seconds }.sorted()
        let received = measured.reduce(0) { $0 + $1.windowFrames }
        self.requested = requested
        connected = state.viewers.filter(\.opened).count
        self.measured = measured.count
        droppedDuringWindow = measured.filter { $0.state == .ended }.count
        endings = state.endings
        framesPublished = published
        publishedPerSecond = BenchRun.round(Double(published) / seconds, 2)
        framesPerSecond = Rates(
            min: BenchRun.round(rates.first ?? 0, 2),
            mean: BenchRun.round(rates.isEmpty ? 0 : rates.reduce(0, +) / Double(rates.count), 2),
            median: BenchRun.round(BenchRun.percentile(rates, 0.5) ?? 0, 2),
            max: BenchRun.round(rates.last ?? 0, 2)
        )
        delivery =
            measured.isEmpty || published == 0 ? 0 : BenchRun.round(Double(received) / Double(measured.count * published), 5)
        outOfOrder = state.viewers.reduce(0) { $0 + $1.outOfOrder }
        frameGapMilliseconds = state.frameGaps.percentiles
    }
}
