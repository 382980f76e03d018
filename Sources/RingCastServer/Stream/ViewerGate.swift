import Logging
import RingCastCore
import RingCastTransport

/// Decides who may watch: the WebSocket upgrade's origin and read token, the server's viewer limit,
/// and which stream (`/ws?board=&format=&motion=`) the viewer gets, with its greeting.
/// Touched only on the service thread.
struct ViewerGate {
    let origins: OriginPolicy
    let tokens: TokenPolicy
    let maxViewers: Int
    let defaultBoard: String
    let logger: Logger

    /// The gate for `configuration`'s origins, tokens and viewer limit; viewers who name no board
    /// get the first of `boards`.
    init(configuration: RingCastConfiguration, boards: Boards, logger: Logger) {
        origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
        tokens = TokenPolicy(writeToken: configuration.writeToken, readToken: configuration.readToken)
        maxViewers = configuration.maxViewers
        defaultBoard = boards.all[0].name
        self.logger = logger
    }

    /// Admits the viewer to its stream with the layout and a keyframe, or refuses it with the API's
    /// error (403, 401, 503, 404, 400).
    func admit(_ request: HTTPRequest, id: ViewerID, loop: EventLoop, broadcaster: Broadcaster) -> ViewerAdmission {
        do throws(APIError) {
            try origins.checkViewer(request)
            try tokens.check(.read, request)
            let watching = loop.viewerCount
            guard watching < maxViewers else {
                logger.warning("refusing a viewer: \(watching) of \(maxViewers) already watching")
                return .reject(
                    .error(
                        APIError(
                            status: 503, code: "too_many_viewers",
                            message: "the server already has \(watching) viewers; try again later"),
                        headers: [(name: "Retry-After", value: "5")]))
            }
            let key = try streamKey(of: request)
            guard let stream = broadcaster.stream(of: key.board) else {
                throw APIError.notFound("no board named \"\(key.board)\"", field: "board")
            }
            let greeting = broadcaster.greeting(for: stream, format: key.format)
            logger.debug("viewer \(id) joins \(key) (\(broadcaster.viewers(of: key.board)) already watching)")
            return .accept(channel: key, greeting: greeting.messages, sequence: UInt64(clamping: greeting.tick))
        } catch {
            return .reject(.error(error))
        }
    }

    /// The stream the upgrade's query asks for; 400 for an unknown format or motion.
    func streamKey(of request: HTTPRequest) throws(APIError) -> StreamKey {
        let board = request.query["board"] ?? defaultBoard
        let formatName = request.query["format"] ?? WireFormat.json.rawValue
        guard let format = WireFormat(rawValue: formatName) else {
            throw .malformed("unknown format \"\(formatName)\"; expected json or binary", field: "format")
        }
        let motionName = request.query["motion"] ?? StreamKey.Motion.full.rawValue
        guard let motion = StreamKey.Motion(rawValue: motionName) else {
            throw .malformed("unknown motion \"\(motionName)\"; expected full or reduced", field: "motion")
        }
        return StreamKey(board: board, format: format, motion: motion)
    }
}
