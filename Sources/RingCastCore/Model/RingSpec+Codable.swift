/// The one codec of a ring definition, for every boundary: the same keys, the same reading, the same rules and
/// the same field paths in the API body, the configuration file, the stored spec and the CLI's request. Only the
/// place differs by boundary (`Boundary`).
///
/// `{"id":ID,"title":T,"kind":K,"staleAfter":S, …the kind's own keys…}`, the kind's keys being its definition's
/// (`KindDefinition.keys`: a plain ring's `colors`, `label`, `max`, `status`, `thresholds`; a derived ring's
/// `sources` too; a countdown's `style`, `tenths`, `then`, `webhook`; a counter's `value`, `digits`,
/// `decimals`, `sign`, `grouping`, `unit`; a text's `text`, `waveWidth`; an indicator's `colors`, `max`,
/// `status`, `thresholds`; a gradient's `colors`), and where a place is taken `cx`, `cy`, `r`, `thickness`,
/// `track`, `titleText`, `labelText`, `titleColor`, `labelColor`.
extension RingSpec: Codable {
    /// Where a definition is read or written.
    public enum Boundary: Sendable, Hashable {
        /// An API body or the CLI's request: no place (the server lays boards out).
        case request
        /// A configuration file's ring: a place for a hand-placed board (`cx`, `cy`, `r`, `thickness`, all or
        /// none), colours and `track` for any.
        case configuration
        /// The stored spec (and the cluster's updates): always placed. Reads what older builds stored too.
        case store
    }

    /// The keys every kind takes.
    static let commonKeys = ["id", "title", "kind", "staleAfter"]

    /// The stored spec.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, at: .store)
    }

    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, at: .store)
    }

    /// Reads a definition at `boundary`. Every problem is an `APIError` naming the field by its path from the
    /// document's root (`rings.2.colors`).
    public init(from decoder: any Decoder, at boundary: Boundary) throws {
        if boundary == .store, let legacy = try LegacyRingSpec.read(from: decoder) {
            self = legacy
            return
        }
        let kindKeys = RingKind.kindsOfKeys.map(\.key)
        let object = try RequestField.object(
            decoder,
            allowing: Self.commonKeys + kindKeys + RingPlace.keys,
            expected: "a ring such as {\"id\":\"tests\",\"title\":\"Tests\"}"
        )
        let field = RequestField.path(decoder.codingPath)
        guard let id = try RequestField.string("id", in: object) else {
            throw APIError.malformed("missing key \"id\": every ring needs an id", field: RequestField.path(field, "id"))
        }
        try Name.check(id, as: .ring, field: RequestField.path(field, "id"))
        let kindName = try RequestField.string("kind", in: object) ?? RingKind.Name.plain.rawValue
        guard let name = RingKind.Name(rawValue: kindName) else {
            let names = RingKind.names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw APIError.invalidValue(
                "kind must be one of \(names), got \(RequestField.quoted(kindName))", field: RequestField.path(field, "kind"))
        }
        for key in kindKeys where object.contains(AnyCodingKey(key)) {
            try name.check(definitionKey: key, field: RequestField.path(field, key))
        }
        let title = try RequestField.title(in: object)
        let staleAfter = try RequestField.staleAfter(in: object).value
        let kind: RingKind =
            switch name {
            case .plain: .plain(try RingLook(reading: object, id: id, from: boundary))
            case .derived: .derived(try DerivedRing(reading: object, id: id, from: boundary))
            case .countdown: .countdown(try CountdownRing(reading: object, id: id, from: boundary))
            case .counter: .counter(try CounterWidget(reading: object, id: id, from: boundary))
            case .text: .text(try TextWidget(reading: object, id: id, from: boundary))
            case .indicator: .indicator(try IndicatorWidget(reading: object, id: id, from: boundary))
            case .gradient: .gradient(try GradientWidget(reading: object, id: id, from: boundary))
            }
        let place = try RingPlace(reading: object, at: boundary)
        self.init(id: id, title: title, kind: kind, staleAfter: staleAfter, place: place)
    }

    /// Writes the definition as `boundary` reads it: the place only for the store, and of the kind's values
    /// those given.
    public func encode(to encoder: any Encoder, at boundary: Boundary) throws {
        var object = encoder.container(keyedBy: AnyCodingKey.self)
        try object.encode(id, forKey: AnyCodingKey("id"))
        if title != id { try object.encode(title, forKey: AnyCodingKey("title")) }
        // A definition without a kind is a plain ring.
        if kind.tag != .plain { try object.encode(kind.name, forKey: AnyCodingKey("kind")) }
        try object.encodeIfPresent(staleAfter, forKey: AnyCodingKey("staleAfter"))
        try kind.definition.write(to: &object)
        if boundary == .store { try place.write(to: &object) }
    }

    /// The definition as an API body: what `ringcast ring add` and `widget add` send.
    public struct Request: Encodable, Sendable {
        public var ring: RingSpec

        public init(_ ring: RingSpec) {
            self.ring = ring
        }

        public func encode(to encoder: any Encoder) throws {
            try ring.encode(to: encoder, at: .request)
        }
    }
}

extension RingPlace {
    /// The place a definition gives at `boundary`: none in a request (refused, naming the key), all four of
    /// `cx`, `cy`, `r`, `thickness` or none in the configuration (with texts only when placed), all of them in
    /// the store. A place not given is `unplaced`, with the configuration's `track` and colours.
    init(reading object: KeyedDecodingContainer<AnyCodingKey>, at boundary: RingSpec.Boundary) throws {
        let field = RequestField.path(object.codingPath)
        let given = Self.keys.filter { object.contains(AnyCodingKey($0)) }
        if boundary == .request, let key = given.first {
            throw APIError.unknownField(
                "\(key) places a ring, which only a hand-placed board of the configuration file does; the server lays out rings given through the API",
                field: RequestField.path(field, key))
        }
        func number(_ key: String) throws -> Double? {
            guard object.contains(AnyCodingKey(key)) else { return nil }
            let value = try RequestField.number(field: RequestField.path(field, key), named: key) {
                try object.decode(Double.self, forKey: AnyCodingKey(key))
            }
            guard value.isFinite else {
                throw APIError.invalidValue("\(key) must be a finite number", field: RequestField.path(field, key))
            }
            return value
        }
        func text(_ key: String) throws -> TextSpec? {
            guard object.contains(AnyCodingKey(key)) else { return nil }
            return try TextSpec.read(object, key: key, field: RequestField.path(field, key))
        }
        let track = try RequestField.color(named: "track", in: object) ?? RingSpec.defaultTrack
        let titleColor = try RequestField.color(named: "titleColor", in: object)
        let labelColor = try RequestField.color(named: "labelColor", in: object)
        let geometry = try Self.geometryKeys.map(number)
        guard geometry.contains(where: { $0 != nil }) || boundary == .store else {
            for key in ["titleText", "labelText"] where given.contains(key) {
                throw APIError.invalidValue(
                    "the server places the texts of a board it lays out; give no \(key)", field: RequestField.path(field, key))
            }
            self = .unplaced
            self.track = track
            self.titleColor = titleColor
            self.labelColor = labelColor
            return
        }
        guard let cx = geometry[0], let cy = geometry[1], let r = geometry[2], let thickness = geometry[3] else {
            let missing = zip(Self.geometryKeys, geometry).first { $0.1 == nil }?.0 ?? "cx"
            throw APIError.invalidValue(
                "a hand-placed ring needs cx, cy, r and thickness", field: RequestField.path(field, missing))
        }
        // Defaults: the label in the ring's centre, the title just below the ring.
        let labelSize = min(max(r * 0.36, 12), 64)
        let titleSize = min(max(r * 0.16, 12), 28)
        let titleText = try text("titleText")
        let labelText = try text("labelText")
        if boundary == .store, titleText == nil || labelText == nil {
            throw APIError.malformed(
                "a stored ring has its titleText and labelText",
                field: RequestField.path(field, titleText == nil ? "titleText" : "labelText"))
        }
        self.init(
            cx: cx, cy: cy, r: r, thickness: thickness, track: track,
            titleText: titleText ?? TextSpec(x: cx, y: cy + r + thickness / 2 + titleSize, size: titleSize, align: "center"),
            labelText: labelText ?? TextSpec(x: cx, y: cy, size: labelSize, align: "center"),
            titleColor: titleColor, labelColor: labelColor)
        try validate(field: field)
    }

    func write(to object: inout KeyedEncodingContainer<AnyCodingKey>) throws {
        try object.encode(cx, forKey: AnyCodingKey("cx"))
        try object.encode(cy, forKey: AnyCodingKey("cy"))
        try object.encode(r, forKey: AnyCodingKey("r"))
        try object.encode(thickness, forKey: AnyCodingKey("thickness"))
        try object.encode(color: track, forKey: "track")
        try object.encode(titleText, forKey: AnyCodingKey("titleText"))
        try object.encode(labelText, forKey: AnyCodingKey("labelText"))
        try object.encode(color: titleColor, forKey: "titleColor")
        try object.encode(color: labelColor, forKey: "labelColor")
    }
}

extension TextSpec {
    /// A text box under `key`: `{"x":X,"y":Y,"size":S,"align":"left"|"center"|"right","width":W}` (`width`
    /// optional), read strictly.
    static func read(_ object: KeyedDecodingContainer<AnyCodingKey>, key: String, field: String) throws -> TextSpec {
        let expected = "\(key) must be an object such as {\"x\":100,\"y\":180,\"size\":14,\"align\":\"center\"}"
        guard let box = try? object.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(key)) else {
            throw APIError.malformed(expected, field: field)
        }
        for other in box.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !["x", "y", "size", "align", "width"].contains(other.stringValue) {
            throw APIError.unknownField(
                "unknown key \(RequestField.quoted(other.stringValue)); a text box takes \"x\", \"y\", \"size\", \"align\" and \"width\"",
                field: RequestField.path(field, other.stringValue))
        }
        func number(_ name: String) throws -> Double? {
            guard box.contains(AnyCodingKey(name)) else { return nil }
            return try RequestField.number(field: RequestField.path(field, name), named: name) {
                try box.decode(Double.self, forKey: AnyCodingKey(name))
            }
        }
        guard let x = try number("x"), let y = try number("y"), let size = try number("size") else {
            throw APIError.malformed(expected, field: field)
        }
        guard let align = try RequestField.string("align", in: box) else {
            throw APIError.malformed(expected, field: field)
        }
        let text = TextSpec(x: x, y: y, size: size, align: align, width: try number("width"))
        if let problem = RingPlace.textProblem(text) {
            throw APIError.invalidValue(problem.message, field: field + problem.key)
        }
        return text
    }
}
