import RingCastCore

/// `GET /api/v1/boards/B` as `ringcast get` reads it (docs/openapi.yaml, `BoardSnapshot`); the
/// answer of `GET …/rings/R` is one `Ring`. Colours are left out: a terminal does not show them.
struct BoardReading: Decodable {
    struct Ring: Decodable {
        var id: String
        var title: String
        /// "plain", "derived" or "countdown", or a widget's kind: "counter", "text", "indicator", "gradient".
        var kind: String
        /// What was pushed; nil before any data.
        var target: Double?
        /// What the current frame shows; nil before any data.
        var progress: Double?
        var animating: Bool
        /// The label as the server shows it at that instant (`73%`, `12/20`, fixed text); absent from
        /// servers before runtime boards.
        var text: String?

        /// The text the dashboard draws in the ring (docs/ANIMATION.md): the server's, else the progress
        /// as a percentage, or for the countdown ring the whole seconds left of the board's `countdown`.
        func label(countdown: Countdown?) -> String {
            if let text { return text }
            guard kind == "countdown" else { return PercentLabel.string(for: progress) }
            guard let countdown else { return PercentLabel.string(for: nil) }
            // The server's rule, fed the seconds elapsed: Countdown.label rounds the rest up.
            return RingCastCore.Countdown(seconds: countdown.seconds, start: 0)
                .label(at: countdown.seconds - countdown.remaining)
        }
    }

    /// The board's countdown: its length and the seconds left.
    struct Countdown: Decodable {
        var seconds: Double
        var remaining: Double
    }

    var board: String
    var revision: Int
    var rings: [Ring]
    var countdown: Countdown?
}
