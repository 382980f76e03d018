import Foundation
import RingCastCore
import RingCastStorage
import RingCastTransport

/// Everything a server needs to start: where to listen, how fast to tick, where files live, and
/// the boards it serves. Built from config/ringcast.json, then overridden by `RINGCAST_*`
/// environment variables and command-line flags (in that order).
public struct RingCastConfiguration: Sendable {
    /// Interface to listen on; `127.0.0.1` by default so a fresh install is not exposed.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one.
    public var port: Int = 8080
    /// Animation frames per second while something moves.
    public var fps: Int = 60
    /// Static files of the dashboard; nil serves none.
    public var webRoot: String? = "web"
    /// The OpenAPI document served at `/api/v1/openapi.yaml`; nil serves none.
    public var openAPIDocument: String? = "docs/openapi.yaml"
    /// Where the pushed targets are stored.
    public var dataDirectory: String = "data"
    /// Largest request body accepted (413 beyond it).
    public var maxBodyBytes: Int = 65_536
    /// Seconds between WebSocket pings to idle viewers.
    public var pingIntervalSeconds: Int = 30
    /// Seconds a viewer may refuse data before it is closed.
    public var stallTimeoutSeconds: Int = 10
    /// Writes per minute one client (IP address) may make, with bursts up to as many; 0 = no limit.
    public var writesPerMinute: Int = 600
    /// Bytes the Idempotency-Key cache may hold (digests and first answers); the oldest go first.
    public var idempotencyCacheBytes: Int = 4 << 20
    /// Viewers the server accepts at once; the next gets 503.
    public var maxViewers: Int = 10_000
    /// Boards the server holds, configured and created through the API together (422 beyond).
    public var maxBoards: Int = 100
    /// Rings one board holds (422 beyond).
    public var maxRingsPerBoard: Int = 24
    /// Bearer token every write must present; nil = writes are open.
    public var writeToken: String?
    /// Token REST reads and viewers must present (the write token also works); nil = reads are open.
    public var readToken: String?
    /// Scoped tokens (`tokens`, DESIGN §14): each covers some boards at one level of access. `writeToken` and
    /// `readToken` are shorthands for two more (`accessTokens`).
    public var tokens: [AccessToken] = []
    /// Push-to-create (`autoCreate`): with a template, a write to a ring a board lacks adds it, and one to a board
    /// that does not exist creates it from the template and the ring; nil (the default) answers 404.
    public var autoCreate: BoardTemplate?
    /// Browser origins allowed to open the WebSocket (e.g. `http://tv.local:8080`); empty = any.
    public var allowedOrigins: [String] = []
    /// Sites whose pages may frame the board page (`https://wiki.example.com`, `https://*.example.com`, or `*`
    /// for any), DESIGN §14; empty = none. The control page is never framed.
    public var embedOrigins: [String] = []
    /// Host names the server answers to besides `localhost` and IP addresses (DNS-rebinding defence,
    /// `HostPolicy`), e.g. `rings.example.com`; `["*"]` = any; nil = the bind address and the machine's name.
    public var allowedHosts: [String]?
    /// Hosts a countdown ring's webhook may name (`hooks.example.com`, an IP address); empty = any. A write
    /// token otherwise lets its holder make the server POST anywhere it can reach.
    public var webhookHosts: [String] = []
    /// PEM certificate (chain) for https and wss; given together with `tlsKey`, or neither.
    public var tlsCertificate: String?
    /// PEM private key of `tlsCertificate`, unencrypted.
    public var tlsKey: String?
    /// Seconds of the Strict-Transport-Security header on https answers; 0 = none.
    public var hstsMaxAgeSeconds: Int = 0
    /// What to log to standard error: `trace`, `debug`, `info`, `notice`, `warning`, `error` or
    /// `critical` (swift-log's levels). Applied by the executable, at start and on every reload.
    public var logLevel: String = "info"
    /// Cluster mode's Redis, `redis://HOST:PORT[/DB]` (docs/CLUSTER.md); nil serves from the embedded
    /// store in `dataDirectory`.
    public var redis: String?
    /// This node's name in cluster mode (logs, `/metrics`, `X-RingCast-Node`); nil = `HOST:PORT`.
    public var node: String?
    /// How far ahead of now a write accepted in cluster mode starts, so that every node has it
    /// before that tick.
    public var leadMilliseconds: Int = 50
    /// Replicas that must acknowledge a write (Redis WAIT) before its 2xx; 0 = none.
    public var replicas: Int = 0
    /// Entries each board's Redis stream keeps at least, for nodes catching up.
    public var streamLength: Int = 1000
    /// How far back each ring's history reaches (issue 33, docs/HISTORY.md): its points of the last `historySeconds`,
    /// at most the newest `historyPoints` of them (0 in either: no history). And what each board's change log in the
    /// embedded store keeps besides the changes its snapshot does not cover: those of the last `historySeconds`, at
    /// most `historyChanges` of them (docs/STORAGE.md, "How much of the log is kept"); 0 keeps none.
    public var historySeconds = Int(HistoryBound.standard.seconds)
    public var historyPoints = Int(HistoryBound.standard.points)
    public var historyChanges = Int(ChangeRetention.standard.changes)

    /// What each ring's history keeps, unless its board keeps its own (`BoardSpec.history`, applied by
    /// `HistoryRetention.of(_:)`).
    public var historyRetention: HistoryRetention {
        HistoryRetention(seconds: historySeconds, points: historyPoints)
    }
    /// Seconds SIGTERM (or `RingCastServer.stop()`) may take to drain: answer the requests already
    /// received, close viewers with 1001, flush the store. Past it the server stops anyway. 0 = at once.
    public var shutdownTimeout: Int = 10
    /// Service loops: threads, each serving its share of the connections (viewers and HTTP), the first also
    /// running the engine, the store's answers and every request (docs/CONFIGURATION.md, "Loops"). By default one
    /// per core, at most `maximumLoops`.
    public var loops: Int = RingCastConfiguration.defaultLoops
    /// The most loops a server runs: the transport's own limit.
    public static let maximumLoops = TransportConfiguration.maximumLoops
    /// One loop per core the process may run on, at most `maximumLoops`.
    public static var defaultLoops: Int {
        min(maximumLoops, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }
    /// The boards, in the order `GET /api/v1/boards` lists them.
    public var boards: [BoardSpec] = []
    /// The board a viewer who names none watches (the page at `/`), whatever other boards exist, so that a
    /// wall screen's address keeps its meaning. It need not exist yet (a board may be created through the
    /// API): until it does, such viewers are told there is no board of that name.
    public var defaultBoard: String = "main"
    /// The playlists the file declares, each anchored at the Unix epoch (so every node and every start agrees on
    /// its switches); served at start unless one of that name was written through the API (docs/CONFIGURATION.md).
    public var playlists: [Playlist] = []
    /// The config file these settings were read from; nil for settings built in code.
    public var configFile: String?
    /// The settings that did not come from the file, by the file's key (`port`), with what set them
    /// (`RINGCAST_PORT`, `--port`): an error about one names that. See `set(_:to:key:from:)`.
    public var origins: [String: String] = [:]

    public init() {}

    public init(boards: [BoardSpec]) {
        self.boards = boards
    }

    /// Every token: the shorthands first (`token` as `write`, admin of every board, as it always could do
    /// everything; `readToken` as `read`, reader of every board), then `tokens`.
    public var accessTokens: [AccessToken] {
        var all: [AccessToken] = []
        if let writeToken { all.append(AccessToken(name: "write", secret: .plain(writeToken), boards: ["*"], access: .admin)) }
        if let readToken { all.append(AccessToken(name: "read", secret: .plain(readToken), boards: ["*"], access: .read)) }
        return all + tokens
    }

    /// The configured board named `name`, if there is one.
    func board(named name: String) -> BoardSpec? {
        boards.first { $0.name == name }
    }
}
