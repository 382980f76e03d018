/// The parts of `GET /api/v1/boards/B` the benchmark uses: the rings in layout order, which of
/// them take pushes, and where each stands.
struct BenchBoard: Decodable {
    struct Ring: Decodable {
        var id: String
        var kind: String
        var target: Double?
        var progress: Double?
    }

    var rings: [Ring]

    /// The ring the latency probes set: `move` when the board has it, else the first plain ring.
    var probeRing: Ring? {
        let plain = rings.filter { $0.kind == "plain" }
        return plain.first { $0.id == "move" } ?? plain.first
    }

    /// The ring kept animating so the server ticks all the time: `stand` when the board has it,
    /// else the last plain ring that is not the probe ring.
    var animatedRing: Ring? {
        let plain = rings.filter { $0.kind == "plain" && $0.id != probeRing?.id }
        return plain.first { $0.id == "stand" } ?? plain.last
    }
}
