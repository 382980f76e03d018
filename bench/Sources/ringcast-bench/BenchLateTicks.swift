/// Ticks the server ran late over a measurement window, from `ringcast_tick_lateness_seconds`.
struct BenchLateTicks: Codable, Sendable {
    /// The histogram bucket bound used: 16 ms with the server's buckets (1, 2, 4, 8, 16, 33 … ms).
    var thresholdMilliseconds: Double
    /// Ticks more than `thresholdMilliseconds` late.
    var late: Int
    /// Every tick in the window.
    var ticks: Int
}
