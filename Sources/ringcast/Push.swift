import ArgumentParser
import Foundation
import RingCastCore

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set one ring's progress on a running server.",
        discussion: """
            Sends PUT /api/v1/boards/BOARD/rings/RING. Example: ringcast push main move 0.8 --curve easeOut --duration 0.6
            """
    )

    @Argument(help: "Board name, e.g. main.")
    var board: String

    @Argument(help: "Ring id, e.g. move.")
    var ring: String

    @Argument(help: "Progress, 0 to 10 (1 = 100 %).")
    var value: Double

    @Option(help: "Timing curve: linear, easeIn, easeOut, easeInOut, or none to jump.")
    var curve: String?

    @Option(help: "Animation duration in seconds, (0, 60].")
    var duration: Double?

    @OptionGroup var server: ServerOptions

    func validate() throws {
        guard value.isFinite, (0...10).contains(value) else {
            throw ValidationError("value must be between 0 and 10, got \(value)")
        }
        if let curve, curve != "none", TimingCurve(name: curve) == nil {
            throw ValidationError("unknown curve \"\(curve)\"; use linear, easeIn, easeOut, easeInOut or none")
        }
        if let duration, !(duration > 0 && duration <= 60) {
            throw ValidationError("duration must be in (0, 60] seconds, got \(duration)")
        }
        if curve == "none", duration != nil {
            throw ValidationError("--duration has no meaning with --curve none")
        }
    }

    func run() throws {
        let connection = try server.connection()
        let body = try JSONEncoder().encode(PushBody(progress: value, animation: animation))
        _ = try connection.request("PUT", api: ["boards", board, "rings", ring], json: Array(body))
        print("\(board)/\(ring) → \(PercentLabel.string(for: value))")
    }

    private var animation: PushBody.AnimationBody? {
        switch (curve, duration) {
        case (nil, nil): nil
        case ("none", _): .jump
        case (let curve, let duration): .timing(curve: curve ?? "easeInOut", duration: duration ?? 1)
        }
    }
}

/// `{"progress":P,"animation":…}` for `PUT /rings/{ring}`.
private struct PushBody: Encodable {
    enum AnimationBody: Encodable {
        case jump
        case timing(curve: String, duration: Double)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .jump:
                var container = encoder.singleValueContainer()
                try container.encode("none")
            case .timing(let curve, let duration):
                try Timing(curve: curve, duration: duration).encode(to: encoder)
            }
        }
    }

    private struct Timing: Encodable {
        var curve: String
        var duration: Double
    }

    var progress: Double
    var animation: AnimationBody?
}
