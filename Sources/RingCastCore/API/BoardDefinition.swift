/// The body of `PUT /api/v1/boards/{board}`: a template, `{"template":"tasks","count":4}` (with optional
/// `title` and `background`), or an explicit ring list,
/// `{"title":"CI","rings":[RingSpec…],"groups":[["build","tests"]],"background":"#000000"}`.
/// `spec(named:maximumRings:)` checks it against the board's rules and lays it out.
public struct BoardDefinition: Sendable, Equatable, Decodable {
    public enum Rings: Sendable, Equatable {
        /// `count` only for `tasks` (task rings besides the Overall).
        case template(BoardTemplate, count: Int?)
        /// Rings in drawing order, and the concentric groups (outermost first).
        case explicit([RingSpec], groups: [[String]])
    }

    public var title: String?
    public var background: RGBAColor?
    public var rings: Rings
    /// Seconds without a write before the board shows stale (DESIGN §13); nil (absent or `null`): never.
    public var staleAfter: Int?
    /// The board's own history bound (`HistorySetting`); nil: the server's.
    public var history: HistorySetting?

    public init(title: String? = nil, background: RGBAColor? = nil, rings: Rings, staleAfter: Int? = nil) {
        self.title = title
        self.background = background
        self.rings = rings
        self.staleAfter = staleAfter
    }

    public init(from decoder: any Decoder) throws {
        let object = try RequestField.object(
            decoder,
            allowing: ["template", "count", "title", "background", "rings", "groups", "staleAfter", "history"],
            expected: "a board such as {\"template\":\"tasks\",\"count\":4} or {\"rings\":[{\"id\":\"build\"}]}"
        )
        title = try RequestField.title(in: object)
        background = try RequestField.color(named: "background", in: object)
        staleAfter = try RequestField.staleAfter(in: object).value
        history = try RequestField.history(in: object)
        let hasTemplate = object.contains(AnyCodingKey("template"))
        let hasRings = object.contains(AnyCodingKey("rings"))
        if hasTemplate {
            guard !hasRings, !object.contains(AnyCodingKey("groups")) else {
                throw APIError.invalidValue(
                    "give a \"template\" or \"rings\" (with \"groups\"), not both", field: hasRings ? "rings" : "groups")
            }
            let name = try RequestField.string("template", in: object) ?? ""
            guard let template = BoardTemplate(rawValue: name) else {
                let known = BoardTemplate.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw APIError.invalidValue(
                    "unknown template \(RequestField.quoted(name)); the templates are \(known)", field: "template")
            }
            var count: Int?
            if object.contains(AnyCodingKey("count")) {
                let number = try RequestField.number(field: "count", named: "count") {
                    try object.decode(Double.self, forKey: AnyCodingKey("count"))
                }
                // The range is the template's (`BoardTemplate.rings(count:maximumRings:)`), checked with the board.
                guard number.rounded() == number, number.magnitude <= 1e6 else {
                    throw APIError.unprocessable(
                        "count must be a whole number of task rings, got \(RequestField.describe(number))", field: "count")
                }
                count = Int(number)
            }
            rings = .template(template, count: count)
            return
        }
        guard hasRings else {
            throw APIError.malformed(
                "missing key \"template\" or \"rings\": say what the board shows, e.g. {\"template\":\"tasks\",\"count\":4}",
                field: "rings")
        }
        guard object.contains(AnyCodingKey("count")) == false else {
            throw APIError.invalidValue("count goes with the \"tasks\" template", field: "count")
        }
        var definitions: [RingSpec] = []
        guard var list = try? object.nestedUnkeyedContainer(forKey: AnyCodingKey("rings")) else {
            throw APIError.malformed("rings must be an array of rings such as {\"id\":\"build\"}", field: "rings")
        }
        while !list.isAtEnd {
            definitions.append(try RingSpec(from: list.superDecoder(), at: .request))
        }
        var groups: [[String]] = []
        if object.contains(AnyCodingKey("groups")) {
            guard let decoded = try? object.decode([[String]].self, forKey: AnyCodingKey("groups")) else {
                throw APIError.malformed("groups must be an array of arrays of ring ids", field: "groups")
            }
            // The groups are checked against the body's own rings as the body is read, so a body with a bad group
            // is refused (422) before any precondition on the board is looked at (412), as a bad ring is.
            try Self.check(
                decoded, ids: Set(definitions.map(\.id)), widgets: Set(definitions.filter { !$0.kind.isRing }.map(\.id)))
            groups = decoded
        }
        rings = .explicit(definitions, groups: groups)
    }

    /// The board this defines, named `name` and laid out by the server. Throws 422 `invalid_value` for a bad
    /// name (field `board`), a duplicate ring id, a source that is not another plain ring of the board or a bad
    /// group, and 422 `limit_exceeded` beyond `maximumRings`.
    public func spec(named name: String, maximumRings: Int, planner: LayoutPlanner? = nil) throws(APIError) -> BoardSpec {
        try Name.check(name, as: .board, field: "board")
        let rings: [RingSpec]
        let groups: [[String]]
        switch self.rings {
        case .template(let template, let count):
            (rings, groups) = try template.rings(count: count, maximumRings: maximumRings)
        case .explicit(let definitions, let explicitGroups):
            guard !definitions.isEmpty else {
                throw .invalidValue("rings is empty: a board needs at least one ring", field: "rings")
            }
            guard definitions.count <= maximumRings else {
                throw .limitExceeded(
                    "a board holds at most \(maximumRings) rings (limits.maxRingsPerBoard), got \(definitions.count)",
                    field: "rings")
            }
            var kinds: [String: RingKind.Name] = [:]
            for (index, ring) in definitions.enumerated() where kinds.updateValue(ring.kind.tag, forKey: ring.id) != nil {
                throw .invalidValue("duplicate ring id \(RequestField.quoted(ring.id))", field: "rings.\(index).id")
            }
            for (index, ring) in definitions.enumerated() {
                try Self.checkSources(of: ring, kinds: kinds, field: "rings.\(index).sources")
            }
            let widgets = Set(definitions.filter { !$0.kind.isRing }.map(\.id))
            try Self.check(explicitGroups, ids: Set(kinds.keys), widgets: widgets)
            rings = definitions.enumerated().map { $1.placed(at: $0) }
            groups = explicitGroups
        }
        var spec = BoardSpec.laidOut(
            name: name,
            title: title,
            background: background ?? RGBAColor(red: 0, green: 0, blue: 0),
            rings: rings,
            groups: groups,
            planner: planner
        )
        if let seconds = staleAfter {
            try Limits.check(staleAfter: seconds, field: "staleAfter")
        }
        spec.staleAfter = staleAfter
        spec.history = history
        return spec
    }

    /// Every source of a derived ring must be another plain ring of the board.
    static func checkSources(of ring: RingSpec, kinds: [String: RingKind.Name], field: String) throws(APIError) {
        if let problem = BoardSpec.sourceProblem(of: ring.id, kind: ring.kind, kinds: kinds) {
            throw .invalidValue(problem.reason, field: "\(field).\(problem.index)")
        }
    }

    /// Groups name existing rings, each in one group at most.
    static func check(_ groups: [[String]], ids: Set<String>, widgets: Set<String> = []) throws(APIError) {
        if let problem = BoardSpec.groupProblem(in: groups, ids: ids, widgets: widgets) {
            throw .invalidValue(problem.reason, field: "groups.\(problem.index)")
        }
    }
}
