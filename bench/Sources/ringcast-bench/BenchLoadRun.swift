/// What the load scenarios (`--scenario pushers`, `join-storm`) do around their load: keep one
/// ring animating, open the standing viewers on the raw client, fix the window ahead so that the
/// load's threads can work to it, renew the animation through the warm-up and the window, then
/// collect the load's tallies and sum up what the standing viewers and the machine did. The
/// scenario brings the board, the rings and the load. Every wait has a deadline.
///
/// Main thread only; the load and the viewers' client run on threads of their own.
struct BenchLoadRun {
    /// What one run came to.
    struct Outcome<Tally> {
        /// One a load thread.
        var tallies: [Tally]
        /// The window's length as fixed ahead, which the load worked to.
        var seconds: Double
        var viewers: BenchViewerSummary
        var usage: BenchUsage
    }

    let settings: BenchSettings
    let session: BenchBoardSession
    /// How many viewers stay connected through the window.
    let viewers: Int

    init(settings: BenchSettings, viewers: Int) {
        self.settings = settings
        self.session = BenchBoardSession(settings)
        self.viewers = viewers
    }

    /// The board, and the ring to keep animating.
    func readBoard() throws(BenchFailure) -> (board: BenchBoard, animated: BenchBoard.Ring) {
        let board = try session.readBoard()
        guard let animated = board.animatedRing else {
            throw BenchFailure("board \(settings.board) has no plain ring to keep animating")
        }
        return (board, animated)
    }

    /// Keeps `animated` animating and the viewers open while `load` runs through the window, then
    /// puts `animated` and `others` back. `load` gets the viewers' path and frame reader and the
    /// window (BenchSystem.now() nanoseconds), and starts its threads. `loadSockets`: the sockets
    /// the load holds open at most; `finishSeconds`: how long after the window its threads may take.
    func run<Tally>(
        board: BenchBoard, animated: BenchBoard.Ring, restoring others: [BenchBoard.Ring], loadSockets: Int,
        finishSeconds: Double,
        load: (_ path: String, _ reader: any BenchFrameReader, _ window: (start: UInt64, end: UInt64)) -> BenchLoadThreads<Tally>
    ) throws(BenchFailure) -> Outcome<Tally> {
        let serverPIDs = try settings.readableServerPIDs()
        try BenchSystem.raiseOpenFileLimit(to: viewers + loadSockets + 128)

        let reader = settings.format.reader(probeRing: "")
        let recorder = BenchRecorder(viewers: viewers, sampled: 0, reader: reader, measuresFrameGaps: true)
        let client = try BenchSocketClient(address: settings.address, recorder: recorder)
        defer {
            client.shutdown()
            session.restore(animated: animated, others: others)
        }
        let path = session.viewerPath(format: settings.format)
        try session.startAnimating(animated)
        try client.open(viewers: viewers, path: path, address: settings.address, recorder: recorder)

        let windowStart = BenchSystem.now() + BenchSystem.nanoseconds(settings.warmup)
        let window = (start: windowStart, end: windowStart + BenchSystem.nanoseconds(settings.duration))
        let threads = load(path, reader, window)

        try session.keepAnimating(until: window.start)
        let measured = try BenchWindow(recorder: recorder, serverPIDs: serverPIDs, metrics: session.scrapeMetrics) {
            _ throws(BenchFailure) in try session.keepAnimating(until: window.end)
        }
        let tallies = try threads.wait(until: window.end + BenchSystem.nanoseconds(finishSeconds))
        recorder.settle(upTo: measured.end.seq)

        return Outcome(
            tallies: tallies,
            seconds: Double(window.end - window.start) / 1e9,
            viewers: BenchViewerSummary(
                recorder.snapshot(), requested: viewers, seconds: measured.seconds, startSeq: measured.start.seq,
                endSeq: measured.end.seq),
            usage: BenchUsage(measured, serverPIDs: settings.serverPIDs)
        )
    }
}

@available(*, unavailable)
extension BenchLoadRun: Sendable {}
