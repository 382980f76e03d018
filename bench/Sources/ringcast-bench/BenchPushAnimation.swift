/// The animation each push of `--scenario pushers` asks for (`--push-animation`): what a write costs the server
/// depends on it, since every push that retargets a ring still moving adds to what the board animates.
enum BenchPushAnimation: Equatable, Sendable {
    /// `"animation":"none"`: the ring jumps; the cheapest write.
    case none
    /// No `animation` key: the server's default, easeInOut over 1 s, what a curl without options sends.
    case serverDefault
    /// `{"curve":"linear","duration":S}`: long animations, many in flight at once.
    case linear(seconds: Double)

    /// Reads `none`, `default` or a number of seconds from 0.001 to 60 (the API's range).
    init?(argument: String) {
        switch argument {
        case "none": self = .none
        case "default": self = .serverDefault
        default:
            guard let seconds = Double(argument), seconds >= 0.001, seconds <= 60 else { return nil }
            self = .linear(seconds: seconds)
        }
    }

    /// What the option names it: `none`, `default`, `10`.
    var argument: String {
        switch self {
        case .none: "none"
        case .serverDefault: "default"
        case .linear(let seconds): BenchResult.format(seconds, seconds.rounded() == seconds ? 0 : 3)
        }
    }

    /// What the report calls it: "none", "default (easeInOut 1 s)", "linear 10 s".
    var description: String {
        switch self {
        case .none: "none"
        case .serverDefault: "default (easeInOut 1 s)"
        case .linear: "linear \(argument) s"
        }
    }
}
