/// A ring's look as the frames, layouts and answers read it, whatever its kind: its place's geometry and text
/// boxes, and its kind's colours, label, maximum and options with their defaults. Setting a value a kind does
/// not have (a counter's colours) changes nothing.
extension RingSpec {
    public var cx: Double {
        get { place.cx }
        set { place.cx = newValue }
    }
    public var cy: Double {
        get { place.cy }
        set { place.cy = newValue }
    }
    public var r: Double {
        get { place.r }
        set { place.r = newValue }
    }
    public var thickness: Double {
        get { place.thickness }
        set { place.thickness = newValue }
    }
    public var track: RGBAColor {
        get { place.track }
        set { place.track = newValue }
    }
    public var titleText: TextSpec {
        get { place.titleText }
        set { place.titleText = newValue }
    }
    public var labelText: TextSpec {
        get { place.labelText }
        set { place.labelText = newValue }
    }
    public var titleColor: RGBAColor? {
        get { place.titleColor }
        set { place.titleColor = newValue }
    }
    public var labelColor: RGBAColor? {
        get { place.labelColor }
        set { place.labelColor = newValue }
    }

    /// The gradient's start and end before any push changes them (a gradient widget's 2 to 8): the status's, or
    /// the lowest threshold's, or the definition's; empty for a counter or a text.
    public var colors: [RGBAColor] {
        get {
            switch kind {
            case .gradient(let widget): return widget.colors ?? []
            case .counter, .text: return []
            case .plain, .derived, .countdown, .indicator:
                guard let look = kind.look else { return [] }
                if let status = look.status { return status.colors }
                if let colors = look.colors { return colors }
                return look.thresholds?.colors(for: 0) ?? []
            }
        }
        set {
            switch kind {
            case .gradient(var widget):
                widget.colors = newValue
                kind = .gradient(widget)
            default:
                // A status sets the colours: they stay the status's.
                guard kind.look?.status == nil else { return }
                kind.look?.colors = newValue
            }
        }
    }

    /// What the label shows: a ring's format, a text widget's text; a percentage otherwise.
    public var label: LabelFormat {
        get {
            switch kind {
            case .text(let widget): .text(widget.text ?? id)
            default: kind.look?.label ?? .percent
            }
        }
        set {
            switch kind {
            case .text(var widget):
                if case .text(let text) = newValue { widget.text = text }
                kind = .text(widget)
            default:
                kind.look?.label = newValue
            }
        }
    }

    /// The line of its history drawn under its label (issue 33); nil: none, and for every kind but plain and derived
    /// rings.
    public var sparkline: Sparkline? {
        kind.look?.sparkline
    }

    /// The value that is progress 1 (`{"value":12,"max":20}` is progress 0.6).
    public var maximum: Double {
        get { kind.look?.maximum ?? Self.defaultMaximum }
        set { kind.look?.maximum = newValue }
    }

    /// What a counter shows until a push sets its number; nil: no data, and for every other kind.
    public var value: Double? {
        if case .counter(let widget) = kind { return widget.value }
        return nil
    }

    /// A countdown ring's options as defined; nil: the defaults, and for every other kind.
    public var countdown: CountdownOptions? {
        get {
            if case .countdown(let ring) = kind { return ring.options }
            return nil
        }
        set {
            guard case .countdown(var ring) = kind else { return }
            ring.options = newValue
            kind = .countdown(ring)
        }
    }

    /// The countdown options this ring shows the board's countdown with.
    public var countdownOptions: CountdownOptions { countdown ?? .standard }

    /// The status the ring was defined with (its `colors` are that status's); nil: none.
    public var status: RingStatus? {
        get { kind.look?.status }
        set {
            kind.look?.status = newValue
            if newValue != nil { kind.look?.colors = nil }
        }
    }

    /// Thresholds that colour the ring by its displayed value until a push colours it otherwise; nil: none.
    public var thresholds: Thresholds? {
        get { kind.look?.thresholds }
        set {
            kind.look?.thresholds = newValue
            if newValue != nil { kind.look?.colors = nil }
        }
    }
}
