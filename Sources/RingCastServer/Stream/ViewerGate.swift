import Logging
import RingCastCore
import RingCastTransport

/// Decides who may watch: the WebSocket upgrade's host, origin and read token, the server's viewer limit,
/// and which stream (`/ws?board=&format=&motion=`) the viewer gets, with its greeting.
///
/// A refusal is an HTTP answer with the API's JSON error. With `&refusal=message` (the page asks
/// for it: a browser cannot read a refused upgrade's answer) the upgrade is accepted instead, the
/// error sent as an `error` message (`ViewerRefusal`) and the connection closed with 4000 + the
/// status (4404, 4401, 4403, 4503…).
/// Touched only on the service thread.
struct ViewerGate {
    let hosts: HostPolicy
    let origins: OriginPolicy
    let tokens: TokenPolicy
    /// Where refusals for a token are counted; nil counts none.
    let metrics: ServerMetrics?
    let maxViewers: Int
    /// Where viewers who name no board go (the page at `/`): the configured `defaultBoard`, whatever else
    /// exists, so that a wall screen's address never changes meaning; 404 while there is no such board.
    let defaultBoard: String
    let logger: Logger

    /// The gate for `configuration`'s origins, tokens, viewer limit and default board.
    init(configuration: RingCastConfiguration, logger: Logger, metrics: ServerMetrics? = nil) {
        hosts = HostPolicy(configuration: configuration)
        origins = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
        tokens = TokenPolicy(configuration: configuration)
        self.metrics = metrics
        maxViewers = configuration.maxViewers
        defaultBoard = configuration.defaultBoard
        self.logger = logger
    }

    /// Admits the viewer to its stream with the layout and a keyframe, or refuses it with the API's
    /// error (421, 403, 401, 503, 404, 400).
    func admit(_ request: HTTPRequest, id: ViewerID, loop: any ServiceLoop, broadcaster: Broadcaster) -> ViewerAdmission {
        do throws(ViewerRefusal) {
            if request.query["playlist"] != nil {
                return try admitPlaylist(request, id: id, loop: loop, broadcaster: broadcaster)
            }
            let (key, stream) = try check(request, loop: loop, broadcaster: broadcaster)
            let greeting: (messages: [OutgoingMessage], tick: Int64)
            do throws(EncodingFailure) {
                greeting = try broadcaster.greeting(for: stream, format: key.format, motion: key.motion)
            } catch {
                logger.error("viewer \(id) of \(key) refused: \(error)")
                throw ViewerRefusal(.unshowable(key.board, error))
            }
            logger.debug("viewer \(id) joins \(key) (\(broadcaster.viewers(of: key.board)) already watching)")
            return .accept(channel: key, greeting: greeting.messages, sequence: UInt64(clamping: greeting.tick))
        } catch {
            logger.debug("viewer \(id) refused: \(error.error)")
            guard request.query["refusal"] == "message" else {
                let retry = error.retryAfter.map { [(name: "Retry-After", value: String($0))] } ?? []
                return .reject(.error(error.error, headers: retry))
            }
            return .refuseAfterUpgrade(
                message: OutgoingMessage(text: error.messageBody), closeCode: 4000 + error.error.status, reason: error.error.code)
        }
    }

    /// The stream the viewer may watch, or why not.
    private func check(_ request: HTTPRequest, loop: any ServiceLoop, broadcaster: Broadcaster) throws(ViewerRefusal) -> (
        StreamKey, BoardStream
    ) {
        try checkAccess(request, loop: loop, to: .board(request.query["board"] ?? defaultBoard))
        let key: StreamKey
        do throws(APIError) {
            key = try streamKey(of: request)
        } catch {
            throw ViewerRefusal(error)
        }
        guard let stream = broadcaster.stream(of: key.board) else {
            let named = request.query["board"] != nil
            let message =
                named
                ? "no board named \"\(key.board)\""
                : "no board named \"\(key.board)\", the server's default board (defaultBoard); name one with ?board="
            throw ViewerRefusal(.notFound(message, field: "board"), boards: broadcaster.boardNames)
        }
        return (key, stream)
    }

    /// Whether the viewer may watch `resource`: the upgrade's host, origin and a token that may read it, and the
    /// viewer limit.
    func checkAccess(_ request: HTTPRequest, loop: any ServiceLoop, to resource: TokenPolicy.Resource) throws(ViewerRefusal) {
        do throws(APIError) {
            try hosts.check(request)
            try origins.checkViewer(request)
        } catch {
            throw ViewerRefusal(error)
        }
        do throws(TokenPolicy.Refusal) {
            try tokens.check(TokenPolicy.Need(access: .read, resource: resource), request)
        } catch {
            metrics?.refused(token: error.token, permission: error.permission)
            throw ViewerRefusal(error.error)
        }
        let watching = loop.viewerCount
        guard watching < maxViewers else {
            logger.warning("refusing a viewer: \(watching) of \(maxViewers) already watching")
            throw ViewerRefusal(
                APIError(
                    status: 503, code: "too_many_viewers", message: "the server already has \(watching) viewers; try again later"),
                retryAfter: 5)
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
