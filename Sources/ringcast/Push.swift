import ArgumentParser
import Foundation
import RingCastClient
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

    @Option(help: "Server URL (default: $RINGCAST_URL or http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "Write token (default: $RINGCAST_TOKEN).")
    var token: String?

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
        let environment = ProcessInfo.processInfo.environment
        let base = server ?? environment["RINGCAST_URL"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: base), let scheme = url.scheme, let name = url.host, !name.isEmpty, url.query == nil
        else {
            throw ValidationError("--server must be an http:// URL such as http://127.0.0.1:8080, got \(base)")
        }
        guard scheme == "http" else {
            throw ValidationError(
                "--server: ringcast push speaks plain HTTP, as ringcast serve does; got \(base) (for an https proxy, use curl)")
        }
        let prefix = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
        let path = "\(prefix)/api/v1/boards/\(Self.escape(board))/rings/\(Self.escape(ring))"
        let body = try JSONEncoder().encode(PushBody(progress: value, animation: animation))

        do throws(ClientError) {
            let address = try ServerAddress(
                resolving: name.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: url.port ?? 80)
            let client = HTTPClient(address: address, token: token ?? environment["RINGCAST_TOKEN"], timeoutSeconds: 10)
            _ = try client.request("PUT", path, json: Array(body))
        } catch .httpStatus(let status, let error) {
            throw PushFailure(error?.message ?? "the server answered HTTP \(status)")
        } catch {
            throw PushFailure("\(error)")
        }
        print("\(board)/\(ring) → \(PercentLabel.string(for: value))")
    }

    private var animation: PushBody.AnimationBody? {
        switch (curve, duration) {
        case (nil, nil): nil
        case ("none", _): .jump
        case (let curve, let duration): .timing(curve: curve ?? "easeInOut", duration: duration ?? 1)
        }
    }

    private static func escape(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? segment
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

/// A failed push: printed as the message alone, exit status 1.
struct PushFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
