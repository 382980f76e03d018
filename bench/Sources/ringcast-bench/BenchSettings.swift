import RingCastClient

/// What every `ringcast-bench` scenario is told: the server and the board, the viewers' frames,
/// the warm-up and the window, and the server's processes to watch over it (one, or one a node of a
/// cluster sharing the port).
struct BenchSettings {
    var address: ServerAddress
    var token: String?
    var board: String
    var format: BenchFormat
    var duration: Double
    var warmup: Double
    var serverPIDs: [Int] = []

    /// The server's processes as /proc names them, once each has been read there (empty when not told).
    func readableServerPIDs() throws(BenchFailure) -> [String] {
        let serverPIDs = serverPIDs.map(String.init)
        for pid in serverPIDs { _ = try BenchSystem.processSample(pid) }
        return serverPIDs
    }
}
