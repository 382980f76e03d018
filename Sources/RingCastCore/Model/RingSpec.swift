/// The static description of one ring, in the board's logical coordinates (y down). `cx`, `cy`,
/// `titleText` and `labelText` place it in the board's first (landscape) arrangement; `r` and
/// `thickness` hold in every arrangement.
public struct RingSpec: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    /// Centre of the ring.
    public var cx: Double
    public var cy: Double
    /// Radius of the ring's centre line.
    public var r: Double
    /// Stroke width of the ring, also the diameter of its caps.
    public var thickness: Double
    public var track: RGBAColor
    /// The gradient's start and end colours before any push changes them: exactly two, or a gradient
    /// widget's 2 to 8 (`Limits.gradientColors`).
    public var colors: [RGBAColor]
    public var kind: RingKind
    public var titleText: TextSpec
    public var labelText: TextSpec
    /// Explicit text colours from the config; nil: automatic, the server picks one that contrasts with
    /// the current background (`RGBAColor.text(on:)`).
    public var titleColor: RGBAColor?
    public var labelColor: RGBAColor?
    /// What the label shows.
    public var label: LabelFormat
    /// The value that is progress 1 (`{"value":12,"max":20}` is progress 0.6); the `fraction` and
    /// `value` labels show progress × maximum.
    public var maximum: Double
    /// What a counter shows until a push sets its number (and again after `null`); nil: no data.
    public var value: Double?
    /// A countdown ring's look and what it does at 0 (seed 004); nil: the defaults
    /// (`CountdownOptions.standard`). Optional so that stored specs without it read as before.
    public var countdown: CountdownOptions?
    /// Seconds without a write to this ring after which it shows stale (DESIGN §13), instead of the board's
    /// `staleAfter`; nil: the board's.
    public var staleAfter: Int?
    /// The status the ring was defined with (its `colors` are that status's); nil: none.
    public var status: RingStatus?
    /// Thresholds that colour the ring by its displayed value until a push colours it otherwise; nil: none.
    public var thresholds: Thresholds?

    /// Track grey of the seeds' `Color(.systemGray6)` in dark mode.
    public static let defaultTrack = RGBAColor(red: 44 / 255, green: 44 / 255, blue: 46 / 255)

    /// What a ring's maximum is until a push sets one.
    public static let defaultMaximum = 100.0

    public init(
        id: String,
        title: String,
        cx: Double,
        cy: Double,
        r: Double,
        thickness: Double,
        track: RGBAColor,
        colors: [RGBAColor],
        kind: RingKind,
        titleText: TextSpec,
        labelText: TextSpec,
        titleColor: RGBAColor?,
        labelColor: RGBAColor?,
        label: LabelFormat = .percent,
        maximum: Double = RingSpec.defaultMaximum,
        value: Double? = nil,
        countdown: CountdownOptions? = nil,
        status: RingStatus? = nil,
        thresholds: Thresholds? = nil
    ) {
        self.id = id
        self.title = title
        self.cx = cx
        self.cy = cy
        self.r = r
        self.thickness = thickness
        self.track = track
        self.colors = colors
        self.kind = kind
        self.titleText = titleText
        self.labelText = labelText
        self.titleColor = titleColor
        self.labelColor = labelColor
        self.label = label
        self.maximum = maximum
        self.value = value
        self.countdown = countdown
        self.status = status
        self.thresholds = thresholds
    }

    /// The countdown options this ring shows the board's countdown with.
    public var countdownOptions: CountdownOptions { countdown ?? .standard }
}
