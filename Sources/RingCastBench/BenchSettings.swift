import RingCastClient

/// What every `ringcast-bench` scenario is told: the server and the board, the viewers' frames,
/// the warm-up and the window, and the server's process to watch over it.
struct BenchSettings {
    var address: ServerAddress
    var token: String?
    var board: String
    var format: BenchFormat
    var duration: Double
    var warmup: Double
    var serverPID: Int?

    /// The server's process as /proc names it, once it has been read there (nil when not told).
    func readableServerPID() throws(BenchFailure) -> String? {
        let serverPID = serverPID.map(String.init)
        if let serverPID { _ = try BenchSystem.processSample(serverPID) }
        return serverPID
    }
}
