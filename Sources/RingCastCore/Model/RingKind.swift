/// What a board entry is and what drives it (DESIGN §3, §12), each case carrying its kind's own definition. The
/// first three are rings; the rest are the other widgets of seed 003, laid out in a ring's cell, stored, replayed
/// and listed exactly like rings.
public enum RingKind: Sendable, Hashable {
    /// Progress pushed through the API.
    case plain(RingLook)
    /// In every frame, the mean of the displayed progress of its sources (the seeds' "Overall").
    case derived(DerivedRing)
    /// The board's countdown (`Board.startCountdown`), the label showing the time left.
    case countdown(CountdownRing)
    /// Seed 003's rolling counter.
    case counter(CounterWidget)
    /// Seed 003's wave text.
    case text(TextWidget)
    /// Seed 003's percentage indicator.
    case indicator(IndicatorWidget)
    /// Seed 003's animatable gradient.
    case gradient(GradientWidget)

    /// The kind without its definition: what a rule that depends only on the kind compares.
    public enum Name: String, Sendable, Hashable, CaseIterable {
        case plain, derived, countdown, counter, text, indicator, gradient

        /// A ring (plain, derived or countdown), as opposed to another widget.
        public var isRing: Bool { RingKind.isRing(self) }

        /// 422 `invalid_value` (field `field`) when `key` is a definition key of other kinds only, naming
        /// the kinds that take it: `sources goes with kind "derived", not "plain"`.
        public func check(definitionKey key: String, field: String?) throws(APIError) {
            guard let owners = RingKind.kindsOfKeys.first(where: { $0.key == key })?.kinds, !owners.contains(self)
            else { return }
            let names = owners.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw .invalidValue("\(key) goes with kind \(names), not \"\(rawValue)\"", field: field)
        }
    }

    public var tag: Name {
        switch self {
        case .plain: .plain
        case .derived: .derived
        case .countdown: .countdown
        case .counter: .counter
        case .text: .text
        case .indicator: .indicator
        case .gradient: .gradient
        }
    }

    /// The kind as the protocol names it.
    public var name: String { tag.rawValue }

    /// A plain ring with the default look.
    public static let plainRing = RingKind.plain(RingLook())

    /// A countdown ring with the default look and options.
    public static let countdownRing = RingKind.countdown(CountdownRing())

    /// A ring (plain, derived or countdown), as opposed to another widget: only rings join concentric groups,
    /// and only rings' frames keep the shape they had before widgets existed.
    public var isRing: Bool { Self.isRing(tag) }

    static func isRing(_ name: Name) -> Bool {
        switch name {
        case .plain, .derived, .countdown: true
        case .counter, .text, .indicator, .gradient: false
        }
    }

    /// Whether the API pushes values to it (every kind but derived and countdown rings, which the server
    /// computes).
    public var takesPushes: Bool {
        switch tag {
        case .derived, .countdown: false
        case .plain, .counter, .text, .indicator, .gradient: true
        }
    }

    /// The names the API accepts for `kind`.
    public static let names = Name.allCases.map(\.rawValue)

    /// The definition of the kind.
    var definition: any KindDefinition {
        switch self {
        case .plain(let look): look
        case .derived(let ring): ring
        case .countdown(let ring): ring
        case .counter(let widget): widget
        case .text(let widget): widget
        case .indicator(let widget): widget
        case .gradient(let widget): widget
        }
    }

    /// Each kind's definition type.
    static func definitionType(of name: Name) -> any KindDefinition.Type {
        switch name {
        case .plain: RingLook.self
        case .derived: DerivedRing.self
        case .countdown: CountdownRing.self
        case .counter: CounterWidget.self
        case .text: TextWidget.self
        case .indicator: IndicatorWidget.self
        case .gradient: GradientWidget.self
        }
    }

    /// The definition keys a kind takes beyond the common ones.
    static func keys(of name: Name) -> [String] { definitionType(of: name).keys }

    /// Every key some kind's definition takes, with the kinds that take it, in the order of `Name.allCases`.
    static let kindsOfKeys: [(key: String, kinds: [Name])] = {
        var keys: [String] = []
        for name in Name.allCases {
            for key in Self.keys(of: name) where !keys.contains(key) { keys.append(key) }
        }
        return keys.map { key in (key, Name.allCases.filter { Self.keys(of: $0).contains(key) }) }
    }()

    /// The keys a push to a ring of this kind may set (besides `staleAfter`).
    ///
    /// (The definition keys are each kind's own: `Name.check(definitionKey:field:)`.)
    public var pushKeys: [String] { Self.definitionType(of: tag).pushKeys }

    /// The ring look of a ring or an indicator; nil for the other widgets. Setting it on another kind does nothing.
    public var look: RingLook? {
        get {
            switch self {
            case .plain(let look): look
            case .derived(let ring): ring.look
            case .countdown(let ring): ring.look
            case .indicator(let widget): widget.look
            case .counter, .text, .gradient: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .plain: self = .plain(newValue)
            case .derived(var ring):
                ring.look = newValue
                self = .derived(ring)
            case .countdown(var ring):
                ring.look = newValue
                self = .countdown(ring)
            case .indicator(var widget):
                widget.look = newValue
                self = .indicator(widget)
            case .counter, .text, .gradient: break
            }
        }
    }

    /// A derived ring's sources; nil for every other kind.
    public var sources: [String]? {
        if case .derived(let ring) = self { return ring.sources }
        return nil
    }

    /// A counter's format; nil for every other kind.
    public var counterFormat: CounterFormat? {
        if case .counter(let widget) = self { return widget.format }
        return nil
    }
}

extension RingKind {
    /// Whether its targets are kept as history (issue 33): the kinds that show a number moving towards a goal (plain
    /// and derived rings, counters, indicators). A countdown's progress is the clock's, a text or gradient widget has
    /// none.
    public var keepsHistory: Bool {
        switch tag {
        case .plain, .derived, .counter, .indicator: true
        case .countdown, .text, .gradient: false
        }
    }
}
