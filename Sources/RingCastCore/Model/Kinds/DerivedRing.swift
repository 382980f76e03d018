/// A derived ring's definition: in every frame, the mean of the displayed progress of the plain rings in
/// `sources` (the seeds' "Overall"); read-only through the API.
public struct DerivedRing: KindDefinition {
    /// The ids of the plain rings it averages, each once (which are plain rings of the board is the board's
    /// rule, `BoardSpec.sourceProblem`).
    public var sources: [String]
    public var look: RingLook

    public init(sources: [String], look: RingLook = RingLook()) {
        self.sources = sources
        self.look = look
    }

    static let keys = ["sources"] + RingLook.keys
    static let pushKeys = ["label", "title", "status", "thresholds"]

    init(reading object: KeyedDecodingContainer<AnyCodingKey>, id: String, from boundary: RingSpec.Boundary) throws {
        let field = RequestField.path(RequestField.path(object.codingPath), "sources")
        guard object.contains(Self.key("sources")) else {
            throw APIError.invalidValue("a derived ring needs \"sources\": the ids of the rings it averages", field: field)
        }
        guard let sources = try? object.decode([String].self, forKey: Self.key("sources")) else {
            throw APIError.malformed("sources must be an array of ring ids", field: field)
        }
        self.sources = sources
        look = try RingLook(reading: object, countdown: false)
        try validateSources(field: RequestField.path(object.codingPath))
    }

    func validate(field: String?, from boundary: RingSpec.Boundary) throws(APIError) {
        try validateSources(field: field)
        try look.validate(field: field, from: boundary)
    }

    private func validateSources(field: String?) throws(APIError) {
        let sourcesField = RequestField.path(field, "sources")
        guard !sources.isEmpty else {
            throw .invalidValue("a derived ring needs \"sources\": the ids of the rings it averages", field: sourcesField)
        }
        var seen = Set<String>()
        for (index, source) in sources.enumerated() where !seen.insert(source).inserted {
            throw .invalidValue(
                "sources names ring \(RequestField.quoted(source)) twice", field: RequestField.path(sourcesField, "\(index)"))
        }
    }

    func write(to object: inout KeyedEncodingContainer<AnyCodingKey>) throws {
        try object.encode(sources, forKey: Self.key("sources"))
        try look.write(to: &object)
    }
}
