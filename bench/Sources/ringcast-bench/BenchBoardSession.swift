import Foundation
import RingCastClient

#if canImport(Glibc)
    import Glibc
#endif

/// The REST side of every bench scenario, on one keep-alive connection: read the board, keep one
/// ring animating so the server composes a frame every tick, scrape `/metrics`, and put the rings
/// back afterwards.
///
/// Main thread only.
final class BenchBoardSession {
    /// How long the stand-in animation runs (the API's longest), and how often it is renewed.
    private static let animationSeconds = 60.0
    private static let animationRenewal: UInt64 = 30_000_000_000

    let address: ServerAddress
    let token: String?
    let board: String
    let http: HTTPClient
    private let encoder = JSONEncoder()
    private(set) var animatedRing = ""
    private var animateUpward = true
    /// BenchSystem.now() when `animate()` is due again.
    private(set) var nextAnimation: UInt64 = 0

    init(_ settings: BenchSettings) {
        address = settings.address
        token = settings.token
        board = settings.board
        http = HTTPClient(address: address, token: token)
    }

    /// `/api/v1/boards/B`, escaped.
    var boardPath: String { "/api/v1/boards/\(Self.escape(board))" }

    /// `/ws?board=B&format=F[&token=T]`: where the viewers connect.
    func viewerPath(format: BenchFormat) -> String {
        "/ws?board=\(Self.escape(board))&format=\(format.rawValue)" + (token.map { "&token=\(Self.escape($0))" } ?? "")
    }

    func readBoard() throws(BenchFailure) -> BenchBoard {
        let response: HTTPClient.Response
        do {
            response = try http.request("GET", boardPath)
        } catch let error where error.isConnectionProblem {
            throw BenchFailure("\(error); is ringcast serve running there?")
        } catch {
            throw BenchFailure("GET \(boardPath): \(error)")
        }
        do {
            return try JSONDecoder().decode(BenchBoard.self, from: Data(response.body))
        } catch {
            throw BenchFailure("GET \(boardPath) did not answer with a board: \(error)")
        }
    }

    /// Starts `ring` animating (see `animate()`), away from where it stands.
    func startAnimating(_ ring: BenchBoard.Ring) throws(BenchFailure) {
        animatedRing = ring.id
        animateUpward = (ring.progress ?? 0) < 5
        try animate()
    }

    /// Sends the animated ring towards 0 or 10 over 60 s, linearly, so the server composes a frame
    /// every tick; renewed every 30 s in the other direction.
    func animate() throws(BenchFailure) {
        let target = animateUpward ? 10.0 : 0.0
        animateUpward.toggle()
        let body = try encode(
            BoardPatch(rings: [animatedRing: .init(progress: target, animation: .linear(seconds: Self.animationSeconds))])
        )
        do {
            _ = try http.request("PATCH", boardPath, json: body)
        } catch {
            throw BenchFailure("PATCH \(boardPath): \(error)")
        }
        nextAnimation = BenchSystem.now() + Self.animationRenewal
    }

    /// Renews the animation when it is due.
    func keepAnimating() throws(BenchFailure) {
        if BenchSystem.now() >= nextAnimation { try animate() }
    }

    /// Sleeps until `deadline`, renewing the animation on the way.
    func keepAnimating(until deadline: UInt64) throws(BenchFailure) {
        while true {
            try keepAnimating()
            let now = BenchSystem.now()
            guard now < deadline else { return }
            usleep(useconds_t(min(deadline - now, nextAnimation > now ? nextAnimation - now : 0, 50_000_000) / 1000))
        }
    }

    /// Puts the animated ring back at its target from before the run (0 when it had none) and each
    /// of `others` that had a target back at it, without animation, so the board stops ticking.
    /// Best effort: the run's result stands either way.
    func restore(animated: BenchBoard.Ring, others: [BenchBoard.Ring]) {
        var rings: [String: BoardPatch.Target] = [:]
        rings[animated.id] = .init(progress: animated.target ?? 0, animation: .none)
        for ring in others {
            if let target = ring.target { rings[ring.id] = .init(progress: target, animation: .none) }
        }
        guard let body = try? encode(BoardPatch(rings: rings)) else { return }
        _ = try? http.request("PATCH", boardPath, json: body)
    }

    /// `GET /metrics`, or nil when it cannot be read.
    func scrapeMetrics() -> BenchMetrics? {
        guard let response = try? http.request("GET", "/metrics") else { return nil }
        return BenchMetrics(prometheusText: response.text, board: board)
    }

    func encode(_ value: some Encodable) throws(BenchFailure) -> [UInt8] {
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw BenchFailure("cannot encode a request body: \(error)")
        }
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}

@available(*, unavailable)
extension BenchBoardSession: Sendable {}

/// `{"progress":V,"animation":"none"}` for `PUT /api/v1/boards/B/rings/R`, or with another animation
/// (`BenchPushAnimation`; the server's default sends no `animation` key).
struct BenchRingBody: Encodable {
    var progress: Double
    var animation = BenchPushAnimation.none

    private enum Key: String, CodingKey { case progress, animation }

    private struct Timing: Encodable {
        var curve: String
        var duration: Double
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(progress, forKey: .progress)
        switch animation {
        case .none: try container.encode("none", forKey: .animation)
        case .serverDefault: break
        case .linear(let seconds): try container.encode(Timing(curve: "linear", duration: seconds), forKey: .animation)
        }
    }
}

/// `{"rings":{ID:{"progress":P,"animation":A}}}` for `PATCH /api/v1/boards/B`.
private struct BoardPatch: Encodable {
    struct Target: Encodable {
        enum Animation: Encodable {
            case none
            case linear(seconds: Double)

            private struct Timing: Encodable {
                var curve: String
                var duration: Double
            }

            func encode(to encoder: any Encoder) throws {
                switch self {
                case .none:
                    var container = encoder.singleValueContainer()
                    try container.encode("none")
                case .linear(let seconds):
                    try Timing(curve: "linear", duration: seconds).encode(to: encoder)
                }
            }
        }

        var progress: Double
        var animation: Animation
    }

    var rings: [String: Target]
}
