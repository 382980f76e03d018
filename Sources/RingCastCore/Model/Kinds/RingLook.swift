/// A plain ring's definition, and the look every ring (plain, derived, countdown) shares: the gradient's two
/// colours, or the status or thresholds that colour it instead (DESIGN §13), what the label shows and the value
/// that is progress 1. What is nil was left out and takes the default: the palette's colours for the ring's
/// position (`RingSpec.placed(at:)`), a percentage, a maximum of 100.
public struct RingLook: KindDefinition {
    public var colors: [RGBAColor]?
    public var label: LabelFormat?
    public var maximum: Double?
    /// The status the ring is defined with; its colours are the status's.
    public var status: RingStatus?
    /// Thresholds that colour the ring by its displayed value until a push colours it otherwise.
    public var thresholds: Thresholds?
    /// A line of the ring's history under its label (issue 33); not for a countdown ring, which keeps none.
    public var sparkline: Sparkline?

    public init(
        colors: [RGBAColor]? = nil, label: LabelFormat? = nil, maximum: Double? = nil, status: RingStatus? = nil,
        thresholds: Thresholds? = nil, sparkline: Sparkline? = nil
    ) {
        self.colors = colors
        self.label = label
        self.maximum = maximum
        self.status = status
        self.thresholds = thresholds
        self.sparkline = sparkline
    }

    static let keys = ["colors", "label", "max", "status", "thresholds", "sparkline"]
    static let pushKeys = ["progress", "value", "max", "colors", "labelColor", "label", "title", "status", "thresholds"]

    init(reading object: KeyedDecodingContainer<AnyCodingKey>, id: String, from boundary: RingSpec.Boundary) throws {
        try self.init(reading: object, countdown: false)
    }

    /// A countdown ring's label may be `"seconds"`, what its GET says it shows (read as no format).
    init(reading object: KeyedDecodingContainer<AnyCodingKey>, countdown: Bool) throws {
        let field = RequestField.path(object.codingPath)
        colors = try RequestField.colors(in: object)
        if let colors {
            try Limits.check(colors: colors, field: RequestField.path(field, "colors"))
        }
        label = try RequestField.label(in: object, countdown: countdown)
        maximum = try RequestField.maximum(in: object)
        switch try RequestField.coloring(in: object, allowsNull: false) {
        case .status(let status): self.status = status
        case .thresholds(let thresholds): self.thresholds = thresholds
        case .definition, nil: break
        }
        sparkline = try RequestField.sparkline(in: object)
        if countdown, sparkline != nil {
            throw APIError.invalidValue(
                "a countdown ring keeps no history, so it has no sparkline",
                field: RequestField.path(field, "sparkline"))
        }
    }

    func validate(field: String?, from boundary: RingSpec.Boundary) throws(APIError) {
        if let colors {
            try Limits.check(colors: colors, field: RequestField.path(field, "colors"))
        }
        try Self.validate(label: label, field: field)
        if let maximum {
            try Limits.check(maximum: maximum, field: RequestField.path(field, "max"))
        }
        try validateColoring(field: field)
        try sparkline?.validate(field: RequestField.path(field, "sparkline"))
    }

    /// A text label's text, under the label rules.
    static func validate(label: LabelFormat?, field: String?) throws(APIError) {
        if case .text(let text) = label {
            try Limits.check(labelText: text, field: RequestField.path(RequestField.path(field, "label"), "text"))
        }
    }

    /// One of `colors`, `status` and `thresholds`; thresholds within their rules.
    func validateColoring(field: String?) throws(APIError) {
        let given = [("colors", colors != nil), ("status", status != nil), ("thresholds", thresholds != nil)]
            .filter(\.1).map(\.0)
        if given.count > 1 {
            throw .invalidValue(
                "give one of \"colors\", \"status\" and \"thresholds\": each sets the ring's colours, so they exclude each other",
                field: RequestField.path(field, given[1]))
        }
        if let problem = thresholds?.problem {
            let thresholdsField = RequestField.path(field, "thresholds")
            throw .invalidValue(
                problem.message, field: problem.key.map { RequestField.path(thresholdsField, $0) } ?? thresholdsField)
        }
    }

    func write(to object: inout KeyedEncodingContainer<AnyCodingKey>) throws {
        try object.encode(colors: colors, forKey: "colors")
        try object.encodeIfPresent(label, forKey: Self.key("label"))
        try object.encodeIfPresent(maximum, forKey: Self.key("max"))
        try object.encodeIfPresent(status, forKey: Self.key("status"))
        try object.encodeIfPresent(thresholds, forKey: Self.key("thresholds"))
        try object.encodeIfPresent(sparkline, forKey: Self.key("sparkline"))
    }
}
