import Foundation
import RingCastCore

/// The JSON shape of config/ringcast.json. Every key is optional except the boards' geometry;
/// unknown keys are errors so a typo never passes silently.
struct ConfigurationFile: Decodable {
    var host: String?
    var port: Int?
    var fps: Int?
    var webRoot: String?
    var openAPIDocument: String?
    var dataDir: String?
    var limits: Limits?
    var token: String?
    var readToken: String?
    var allowedOrigins: [String]?
    var embedOrigins: [String]?
    var allowedHosts: [String]?
    var webhookHosts: [String]?
    var tls: TLS?
    var logLevel: String?
    var shutdownTimeout: Int?
    var loops: Int?
    var cluster: Cluster?
    var history: History?
    var boards: [BoardEntry]?
    var defaultBoard: String?
    var tokens: [TokenEntry]?
    var autoCreate: AutoCreateEntry?
    var playlists: [PlaylistEntry]?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, fps, webRoot, openAPIDocument, dataDir, limits, token, readToken, allowedOrigins, tls, logLevel
        case shutdownTimeout, loops, cluster, history, boards
        case allowedHosts, webhookHosts
        case defaultBoard
        case embedOrigins
        case tokens, autoCreate
        case playlists
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        host = try c.decodeIfPresent(String.self, forKey: .host)
        port = try c.decodeIfPresent(Int.self, forKey: .port)
        fps = try c.decodeIfPresent(Int.self, forKey: .fps)
        webRoot = try c.decodeIfPresent(String.self, forKey: .webRoot)
        openAPIDocument = try c.decodeIfPresent(String.self, forKey: .openAPIDocument)
        dataDir = try c.decodeIfPresent(String.self, forKey: .dataDir)
        limits = try c.decodeIfPresent(Limits.self, forKey: .limits)
        token = try c.decodeIfPresent(String.self, forKey: .token)
        readToken = try c.decodeIfPresent(String.self, forKey: .readToken)
        allowedOrigins = try c.decodeIfPresent([String].self, forKey: .allowedOrigins)
        embedOrigins = try c.decodeIfPresent([String].self, forKey: .embedOrigins)
        allowedHosts = try c.decodeIfPresent([String].self, forKey: .allowedHosts)
        webhookHosts = try c.decodeIfPresent([String].self, forKey: .webhookHosts)
        tls = try c.decodeIfPresent(TLS.self, forKey: .tls)
        logLevel = try c.decodeIfPresent(String.self, forKey: .logLevel)
        shutdownTimeout = try c.decodeIfPresent(Int.self, forKey: .shutdownTimeout)
        loops = try c.decodeIfPresent(Int.self, forKey: .loops)
        cluster = try c.decodeIfPresent(Cluster.self, forKey: .cluster)
        history = try c.decodeIfPresent(History.self, forKey: .history)
        boards = try c.decodeIfPresent([BoardEntry].self, forKey: .boards)
        defaultBoard = try c.decodeIfPresent(String.self, forKey: .defaultBoard)
        tokens = try c.decodeIfPresent([TokenEntry].self, forKey: .tokens)
        autoCreate = try c.decodeIfPresent(AutoCreateEntry.self, forKey: .autoCreate)
        playlists = try c.decodeIfPresent([PlaylistEntry].self, forKey: .playlists)
    }

    /// One of `playlists`: `{"name", "boards", "seconds", "transition"}`. The definition is read by the API's own
    /// reader (`PlaylistDefinition`); what it refuses is kept as `problem`, for the loader to name the key.
    struct PlaylistEntry: Decodable {
        var name: String
        var definition: PlaylistDefinition?
        var problem: APIError?

        private enum CodingKeys: String, CodingKey {
            case name
        }

        init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
            do {
                definition = try PlaylistDefinition(from: decoder, besides: ["name"])
            } catch let error as APIError {
                problem = error
            }
        }
    }

    /// One of `tokens` (`AccessToken`): `{"name", "token" or "sha256", "boards", "access"}`, checked in `validate()`.
    struct TokenEntry: Decodable {
        var name: String
        var token: String?
        var sha256: String?
        var boards: [String]
        var access: String

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case name, token, sha256, boards, access
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            token = try c.decodeIfPresent(String.self, forKey: .token)
            sha256 = try c.decodeIfPresent(String.self, forKey: .sha256)
            boards = try c.decode([String].self, forKey: .boards)
            access = try c.decode(String.self, forKey: .access)
        }
    }

    /// `"autoCreate": true`, or `{"enabled": true, "template": "single"}`: writes to rings and boards that do not
    /// exist create them (`AutoCreate`).
    struct AutoCreateEntry: Decodable {
        var enabled: Bool
        var template: String?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case enabled, template
        }

        init(from decoder: any Decoder) throws {
            if let enabled = try? decoder.singleValueContainer().decode(Bool.self) {
                self.enabled = enabled
                return
            }
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
            template = try c.decodeIfPresent(String.self, forKey: .template)
        }
    }

    /// `history`: how far back each ring's history reaches and how many points it keeps, and what each board's change
    /// log keeps besides what its snapshot does not cover (docs/STORAGE.md, docs/HISTORY.md).
    struct History: Decodable {
        var seconds: Int?
        var points: Int?
        var changes: Int?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case seconds, points, changes
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            seconds = try c.decodeIfPresent(Int.self, forKey: .seconds)
            points = try c.decodeIfPresent(Int.self, forKey: .points)
            changes = try c.decodeIfPresent(Int.self, forKey: .changes)
        }
    }

    /// `cluster`: several nodes on one Redis (docs/CLUSTER.md).
    struct Cluster: Decodable {
        var redis: String?
        var node: String?
        var leadMilliseconds: Int?
        var replicas: Int?
        var streamLength: Int?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case redis, node, leadMilliseconds, replicas, streamLength
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            redis = try c.decodeIfPresent(String.self, forKey: .redis)
            node = try c.decodeIfPresent(String.self, forKey: .node)
            leadMilliseconds = try c.decodeIfPresent(Int.self, forKey: .leadMilliseconds)
            replicas = try c.decodeIfPresent(Int.self, forKey: .replicas)
            streamLength = try c.decodeIfPresent(Int.self, forKey: .streamLength)
        }
    }

    struct Limits: Decodable {
        var maxBodyBytes: Int?
        var pingIntervalSeconds: Int?
        var stallTimeoutSeconds: Int?
        var writesPerMinute: Int?
        var maxViewers: Int?
        var idempotencyCacheBytes: Int?
        var maxBoards: Int?
        var maxRingsPerBoard: Int?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case maxBodyBytes, pingIntervalSeconds, stallTimeoutSeconds, writesPerMinute, maxViewers
            case idempotencyCacheBytes, maxBoards, maxRingsPerBoard
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            maxBodyBytes = try c.decodeIfPresent(Int.self, forKey: .maxBodyBytes)
            pingIntervalSeconds = try c.decodeIfPresent(Int.self, forKey: .pingIntervalSeconds)
            stallTimeoutSeconds = try c.decodeIfPresent(Int.self, forKey: .stallTimeoutSeconds)
            writesPerMinute = try c.decodeIfPresent(Int.self, forKey: .writesPerMinute)
            maxViewers = try c.decodeIfPresent(Int.self, forKey: .maxViewers)
            idempotencyCacheBytes = try c.decodeIfPresent(Int.self, forKey: .idempotencyCacheBytes)
            maxBoards = try c.decodeIfPresent(Int.self, forKey: .maxBoards)
            maxRingsPerBoard = try c.decodeIfPresent(Int.self, forKey: .maxRingsPerBoard)
        }
    }

    /// `"tls": {"cert": "…", "key": "…", "hstsMaxAgeSeconds": 31536000}`: PEM files for https and
    /// wss, and the opt-in Strict-Transport-Security header.
    struct TLS: Decodable {
        var cert: String?
        var key: String?
        var hstsMaxAgeSeconds: Int?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case cert, key, hstsMaxAgeSeconds
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            cert = try c.decodeIfPresent(String.self, forKey: .cert)
            key = try c.decodeIfPresent(String.self, forKey: .key)
            hstsMaxAgeSeconds = try c.decodeIfPresent(Int.self, forKey: .hstsMaxAgeSeconds)
        }
    }

    /// A board: hand-placed (`width`, `height` and every ring's `cx`, `cy`, `r`, `thickness`), or
    /// laid out by the server (`template`, or rings without coordinates, and `groups`).
    struct BoardEntry: Decodable {
        var name: String
        var title: String?
        var width: Double?
        var height: Double?
        var background: RGBAColor?
        var rings: [RingEntry]?
        var groups: [[String]]?
        var template: String?
        var count: Int?
        /// A hand-placed board's own portrait arrangement; without it the server makes one.
        var portrait: PortraitEntry?
        /// Seconds without a write before the board shows stale (DESIGN §13); checked in `BoardSpec(entry:)`.
        var staleAfter: Int?
        /// The board's own history bound (`HistorySetting`): `{"seconds":S,"points":N}`, either or both.
        var history: HistorySetting?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case name, title, width, height, background, rings, groups, template, count, portrait
            case staleAfter, history
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            title = try c.decodeIfPresent(String.self, forKey: .title)
            width = try c.decodeIfPresent(Double.self, forKey: .width)
            height = try c.decodeIfPresent(Double.self, forKey: .height)
            background = try c.decodeIfPresent(RGBAColor.self, forKey: .background)
            rings = try c.decodeIfPresent([RingEntry].self, forKey: .rings)
            groups = try c.decodeIfPresent([[String]].self, forKey: .groups)
            template = try c.decodeIfPresent(String.self, forKey: .template)
            count = try c.decodeIfPresent(Int.self, forKey: .count)
            portrait = try c.decodeIfPresent(PortraitEntry.self, forKey: .portrait)
            staleAfter = try c.decodeIfPresent(Int.self, forKey: .staleAfter)
            history = try c.decodeIfPresent(HistorySetting.self, forKey: .history)
        }
    }

    /// `"portrait": {"width": W, "height": H, "rings": [{"id", "cx", "cy", "titleText", "labelText"}, …]}`: where
    /// a hand-placed board's rings go on a screen taller than wide, every ring once (each keeps its r and
    /// thickness).
    struct PortraitEntry: Decodable {
        var width: Double
        var height: Double
        var rings: [PlacementEntry]

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case width, height, rings
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            width = try c.decode(Double.self, forKey: .width)
            height = try c.decode(Double.self, forKey: .height)
            rings = try c.decode([PlacementEntry].self, forKey: .rings)
        }
    }

    /// One ring's place in a given arrangement.
    struct PlacementEntry: Decodable {
        var id: String
        var cx: Double
        var cy: Double
        var titleText: TextSpec
        var labelText: TextSpec

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id, cx, cy, titleText, labelText
        }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.rawValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            cx = try c.decode(Double.self, forKey: .cx)
            cy = try c.decode(Double.self, forKey: .cy)
            titleText = try c.decode(TextSpec.self, forKey: .titleText)
            labelText = try c.decode(TextSpec.self, forKey: .labelText)
        }
    }

    /// A ring of a board: a definition as the API reads it (`RingSpec`'s one codec at the configuration
    /// boundary), which may also place the ring (`cx`, `cy`, `r`, `thickness`, texts) and fix its colours.
    struct RingEntry: Decodable {
        var ring: RingSpec
        /// Whether the entry places the ring itself.
        var isPlaced: Bool

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: AnyKey.self)
            isPlaced = ["cx", "cy", "r", "thickness"].contains { object.contains(AnyKey($0)) }
            do {
                ring = try RingSpec(from: decoder, at: .configuration)
            } catch let error as APIError {
                // The API's message, at the key it names (a path from the file's root).
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: AnyKey.path(error.field), debugDescription: error.message))
            }
        }
    }

    /// A key named at run time, for error paths.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) {
            stringValue = String(intValue)
            self.intValue = intValue
        }

        /// A dotted field path (`boards.0.rings.2.colors`) as coding keys, indices as integer keys.
        static func path(_ field: String?) -> [any CodingKey] {
            (field ?? "").split(separator: ".").map { part in
                Int(part).flatMap(AnyKey.init(intValue:)) ?? AnyKey(String(part))
            }
        }
    }
}
