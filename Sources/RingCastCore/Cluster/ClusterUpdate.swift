/// One accepted write as it travels between cluster nodes (DESIGN §10): the board's revision before and
/// after it, the tick it starts at, what it changes, and a digest of the board's state once it has
/// started. Every node that applies `change` at `startTick` to the state of `baseRevision` computes the
/// same frames, byte for byte, and the same `digest`.
///
/// A change is carried as the request body it was accepted from (decoded again on every node with the
/// same code, so the decoded values are identical bit for bit) or, for a structure the accepting node
/// computed, as the resulting `BoardSpec`.
public struct ClusterUpdate: Sendable, Equatable, Codable {
    /// What a write changes, in the form that travels.
    public enum Change: Sendable, Equatable {
        /// `PATCH /api/v1/boards/{board}`: the body.
        case patch(body: [UInt8])
        /// `PUT …/rings/{ring}`: the ring and the body.
        case ring(String, body: [UInt8])
        /// `PUT …/background`: the body.
        case background(body: [UInt8])
        case startCountdown(seconds: Double, animated: Bool = true)
        case cancelCountdown
        /// New rings and placement, as the accepting node laid them out.
        case restructure(BoardSpec)
        /// Push-to-create: the structure the accepting node grew the board to, then the write that asked for it.
        indirect case grow(BoardSpec, then: Change)
        /// The board is deleted (its state becomes a tombstone).
        case delete

        /// The animator's change, decoded as the accepting node decoded it. Throws what the API's decoders
        /// throw for a body no node would have accepted.
        public func decoded() throws(APIError) -> Animator.Change {
            switch self {
            case .patch(let body): .patch(try RequestDecoder.decode(BoardPatch.self, from: body))
            case .ring(let id, let body): .ring(id, try RequestDecoder.decode(RingUpdate.self, from: body))
            case .background(let body): .background(try RequestDecoder.decode(BackgroundUpdate.self, from: body))
            case .startCountdown(let seconds, let animated): .startCountdown(seconds: seconds, animated: animated)
            case .cancelCountdown: .cancelCountdown
            case .restructure(let spec): .restructure(spec)
            case .grow(let spec, let then): .grow(spec, then: try then.decoded())
            case .delete: throw APIError.notFound("the board is deleted", field: "board")
            }
        }
    }

    public var board: String
    /// The board's revision before this write (what the compare-and-set checked) and after it.
    public var baseRevision: Int64
    public var revision: Int64
    /// The tick the change starts at, on the shared grid.
    public var startTick: Int64
    public var change: Change
    /// `ClusterUpdate.digest(of:)` of the board's state with this change started.
    public var digest: String

    public init(board: String, baseRevision: Int64, revision: Int64, startTick: Int64, change: Change, digest: String) {
        self.board = board
        self.baseRevision = baseRevision
        self.revision = revision
        self.startTick = startTick
        self.change = change
        self.digest = digest
    }

    /// The state's `StructuralDigest` (its encoded structure hashed as it is walked, never encoded: a cluster write
    /// and every node applying it take one, issue 32), as 16 hex digits: the same state gives the same digest on
    /// every node. Not a security measure. Throws for a state that cannot be encoded (a non-finite number): no
    /// digest, rather than the digest of half a state.
    public static func digest(of state: BoardState) throws(EncodingFailure) -> String {
        let hash: UInt64
        do {
            hash = try StructuralDigest.digest(of: state)
        } catch {
            throw EncodingFailure(encoding: BoardState.self, error)
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case board
        case baseRevision = "base"
        case revision
        case startTick = "tick"
        case change, digest
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        board = try container.decode(String.self, forKey: .board)
        baseRevision = try container.decode(Int64.self, forKey: .baseRevision)
        revision = try container.decode(Int64.self, forKey: .revision)
        startTick = try container.decode(Int64.self, forKey: .startTick)
        digest = try container.decode(String.self, forKey: .digest)
        change = try container.decode(Change.self, forKey: .change)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(board, forKey: .board)
        try container.encode(baseRevision, forKey: .baseRevision)
        try container.encode(revision, forKey: .revision)
        try container.encode(startTick, forKey: .startTick)
        try container.encode(digest, forKey: .digest)
        try container.encode(change, forKey: .change)
    }
}

/// A change as it travels between nodes and as the change log keeps it (`{"kind": …}`, a body as a string).
extension ClusterUpdate.Change: Codable {
    private enum ChangeKeys: String, CodingKey {
        case kind, body, ring, seconds, animated, spec, then
    }

    public init(from decoder: any Decoder) throws {
        self = try Self.decodeChange(try decoder.container(keyedBy: ChangeKeys.self))
    }

    private static func decodeChange(_ change: KeyedDecodingContainer<ChangeKeys>) throws -> Self {
        func body() throws -> [UInt8] { Array(try change.decode(String.self, forKey: .body).utf8) }
        switch try change.decode(String.self, forKey: .kind) {
        case "patch": return .patch(body: try body())
        case "ring": return .ring(try change.decode(String.self, forKey: .ring), body: try body())
        case "background": return .background(body: try body())
        case "startCountdown":
            return .startCountdown(
                seconds: try change.decode(Double.self, forKey: .seconds),
                animated: try change.decodeIfPresent(Bool.self, forKey: .animated) ?? true)
        case "cancelCountdown": return .cancelCountdown
        case "restructure": return .restructure(try change.decode(BoardSpec.self, forKey: .spec))
        case "grow":
            let then = try decodeChange(try change.nestedContainer(keyedBy: ChangeKeys.self, forKey: .then))
            // A grown board's write is one of the others: an update is never nested deeper than this.
            switch then {
            case .grow, .delete, .restructure:
                throw DecodingError.dataCorruptedError(
                    forKey: .then, in: change, debugDescription: "a grown board's write cannot be another structure")
            default: break
            }
            return .grow(try change.decode(BoardSpec.self, forKey: .spec), then: then)
        case "delete": return .delete
        case let kind:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: change, debugDescription: "unknown change kind \"\(kind)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ChangeKeys.self)
        try Self.encode(self, into: &container)
    }

    private static func encode(_ value: Self, into change: inout KeyedEncodingContainer<ChangeKeys>) throws {
        // Bodies were accepted as UTF-8 JSON, so they travel as strings.
        func body(_ bytes: [UInt8]) throws { try change.encode(String(decoding: bytes, as: UTF8.self), forKey: .body) }
        switch value {
        case .patch(let bytes):
            try change.encode("patch", forKey: .kind)
            try body(bytes)
        case .ring(let id, let bytes):
            try change.encode("ring", forKey: .kind)
            try change.encode(id, forKey: .ring)
            try body(bytes)
        case .background(let bytes):
            try change.encode("background", forKey: .kind)
            try body(bytes)
        case .startCountdown(let seconds, let animated):
            try change.encode("startCountdown", forKey: .kind)
            try change.encode(seconds, forKey: .seconds)
            // Only when false: an animated countdown travels as it did before the option existed.
            if !animated { try change.encode(false, forKey: .animated) }
        case .cancelCountdown:
            try change.encode("cancelCountdown", forKey: .kind)
        case .restructure(let spec):
            try change.encode("restructure", forKey: .kind)
            try change.encode(spec, forKey: .spec)
        case .grow(let spec, let then):
            try change.encode("grow", forKey: .kind)
            try change.encode(spec, forKey: .spec)
            var nested = change.nestedContainer(keyedBy: ChangeKeys.self, forKey: .then)
            try encode(then, into: &nested)
        case .delete:
            try change.encode("delete", forKey: .kind)
        }
    }
}
