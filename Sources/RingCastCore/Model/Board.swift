/// The live state of one board: per ring the pushed targets and the animations toward them, from which
/// the presentation at any instant follows. A value type; time is monotonic seconds fed in by the caller.
///
/// Only plain rings take pushes. A derived ring shows, in every frame, the mean of its sources' displayed
/// values (sources without data count as 0, and its label says how many have data, `10% · 1 of 4`; no value at all
/// while no source has data). Countdown rings show
/// the board's countdown, if one was started. The background is a colour with splash layers growing over it.
public struct Board: Sendable, Equatable {
    /// The board's rings and their placement; changed through the API by `restructure(to:)` and by entries that
    /// set a ring's title, label or maximum.
    public private(set) var spec: BoardSpec {
        didSet { ringIndex = Self.index(of: spec) }
    }
    /// Whether the spec was set or changed through the API: then it is part of the stored state, and the
    /// configuration's description of the board no longer applies (docs/CONFIGURATION.md).
    public internal(set) var isShapedByAPI = false
    /// +1 on every change through the API (`apply`, `startCountdown`, `cancelCountdown`); the server's ETag.
    public internal(set) var revision: Int = 0

    /// Position of each ring in `spec.rings`, for lookups by id.
    private var ringIndex: [String: Int]
    /// What was pushed to each plain ring, by id; a ring nothing was pushed to has no entry.
    var rings: [String: RingState] = [:]
    /// The background colour and its splash layers.
    var backdrop: Background
    /// The countdown every countdown ring shows; nil: those rings have no data.
    public internal(set) var countdown: Countdown?

    public init(spec: BoardSpec) {
        self.spec = spec
        backdrop = Background(spec.background)
        ringIndex = Self.index(of: spec)
    }

    private static func index(of spec: BoardSpec) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, ring) in spec.rings.enumerated() where index[ring.id] == nil {
            index[ring.id] = position
        }
        return index
    }

    // MARK: Structure

    /// Gives the board new rings and placement (a board replaced or a ring added or deleted through the API) at
    /// `time`. Values of rings that are still there and still take them are kept; a countdown is kept while a
    /// ring shows it. The board takes everything else `spec` says, as a new board does: its title, staleAfter and
    /// background (at once, no splash, unless it already rests on it), so a ring added or deleted starts from
    /// `specAtRest`, which keeps the background. The caller has checked `spec` (ids, sources, layout).
    public mutating func restructure(to spec: BoardSpec, at time: Double) {
        let before = self
        // A ring keeps its values only as the same kind: a plain ring's progress is no counter's number.
        let kinds = Dictionary(self.spec.rings.map { ($0.id, $0.kind.name) }, uniquingKeysWith: { first, _ in first })
        self.spec = spec
        isShapedByAPI = true
        let kept = Set(
            spec.rings.filter { ($0.kind.takesPushes || Self.takesColoring($0.kind)) && kinds[$0.id] == $0.kind.name }
                .map(\.id))
        rings = rings.filter { kept.contains($0.key) }
        if !hasCountdownRing { countdown = nil }
        if spec.background != backdrop.target {
            backdrop.change(to: spec.background, style: .leftToRight, animation: .none, at: time)
        }
        // New sources or thresholds may colour any ring otherwise from here on.
        restartTrails(of: spec.rings.map(\.id), from: before, at: time)
        revision += 1
    }

    // MARK: Targets

    /// The pushed progress of a plain ring, the mean of its sources' targets for a derived ring (sources
    /// without data count as 0), 1 for a countdown ring while a countdown is set; nil when the ring never
    /// received data or does not exist.
    public func target(ofRing id: String) -> Double? {
        resolve(id, visiting: []) { ring in
            ring.kind.tag == .countdown ? countdown.map { _ in 1 } : rings[ring.id]?.progress?.target ?? ring.value
        }
    }

    /// Pushed progress of every plain ring that has data: what is persisted.
    public var targets: [String: Double] {
        rings.compactMapValues { $0.progress?.target }
    }

    /// Pushed gradient colours of every ring whose colours a push changed: what is persisted.
    public var targetColors: [String: [RGBAColor]] {
        rings.compactMapValues { $0.gradient?.map(\.target) }
    }

    /// Rings whose label colour was changed by a push: what is persisted.
    public var targetLabelColors: [String: RGBAColor] {
        rings.compactMapValues { $0.labelColor?.target }
    }

    /// The background colour at rest: the newest pushed colour, else the configured one. What is persisted.
    public var background: RGBAColor {
        backdrop.target
    }

    /// The spec with the background the board rests on now (a push may have changed it): what a ring added or
    /// deleted starts from, so that `restructure(to:at:)` keeps the background.
    public var specAtRest: BoardSpec {
        var spec = spec
        spec.background = background
        return spec
    }

    /// Whether the board has a ring that shows the countdown.
    public var hasCountdownRing: Bool {
        spec.rings.contains { $0.kind.tag == .countdown }
    }

    /// Whether a countdown ring still moves at `time`: until the countdown ends, or forever on a ring that
    /// restarts it.
    func isCountdownRunning(at time: Double) -> Bool {
        guard let countdown else { return false }
        return spec.rings.contains { $0.kind.tag == .countdown && countdown.isRunning(at: time, then: $0.countdownOptions.then) }
    }

    /// The countdown rings whose countdown reaches 0 between `previous` and `time` (`Countdown.completions`
    /// grows), in ring order: the end events of the frame at `time` when `previous` is the frame before's.
    public func countdownEnds(between previous: Double, and time: Double) -> [RingSpec] {
        guard let countdown else { return [] }
        return spec.rings.filter { ring in
            ring.kind.tag == .countdown
                && countdown.completions(at: time, then: ring.countdownOptions.then)
                    > countdown.completions(at: previous, then: ring.countdownOptions.then)
        }
    }

    // MARK: Pushes

    /// Applies a PATCH atomically: every entry is validated first, then all start animating at `time`.
    ///
    /// Each ring animates with its entry's own animation, else the patch's, else its kind's default
    /// (`defaultAnimation(of:)`).
    /// Throws 404 `not_found` (field `rings.ID`) for an unknown ring, 422 `read_only` (field `rings.ID`) for a
    /// derived or countdown ring, whose values the server computes, 422 `invalid_value` for an entry that
    /// sets nothing or an empty patch, and the range errors of `Limits`. A rejected patch changes nothing,
    /// the revision included.
    public mutating func apply(_ patch: BoardPatch, at time: Double) throws(APIError) {
        guard !patch.rings.isEmpty || patch.changesBoard else {
            throw .invalidValue("rings is empty: name at least one ring to change", field: "rings")
        }
        if let title = patch.title { try Limits.check(title: title, field: "title") }
        if let background = patch.background { try background.validate() }
        if let staleAfter = patch.staleAfter ?? nil { try Limits.check(staleAfter: staleAfter, field: "staleAfter") }
        if let animation = patch.animation {
            try Limits.check(animation: animation, field: "animation")
        }
        // Sorted so that the same patch always reports the same error.
        let entries = patch.rings.sorted { $0.key < $1.key }
        for (id, entry) in entries {
            let field = RequestField.path("rings", id)
            try validate(entry, ring: id, field: field, ringField: field)
        }
        let before = beforeRecoloring(entries.contains { $0.value.coloring != nil })
        for (id, entry) in entries {
            start(entry, ring: id, animation: entry.animation ?? patch.animation ?? defaultAnimation(of: id), at: time)
        }
        // (Only a board with thresholds has trails to restart: `before` is nil otherwise.)
        if before != nil { restartTrails(of: ringsTouched(by: entries.map(\.key)), from: before, at: time) }
        // The board's own settings: its spec is then stored with its state, as a restructured board's is.
        if patch.title != nil || patch.staleAfter != nil {
            if let title = patch.title { spec.title = title }
            if let staleAfter = patch.staleAfter { spec.staleAfter = staleAfter }
            isShapedByAPI = true
        }
        if let background = patch.background {
            backdrop.change(to: background.color, style: background.style, animation: background.layerAnimation, at: time)
        }
        revision += 1
    }

    /// Applies `PUT …/rings/{id}` with the same rules as a one-entry PATCH. Field paths are those of the
    /// PUT body (`progress`, `colors.0`); an unknown ring is 404 without a field, since it is in the URL.
    public mutating func apply(_ update: RingUpdate, toRing id: String, at time: Double) throws(APIError) {
        try validate(update, ring: id, field: nil, ringField: nil)
        let before = beforeRecoloring(update.coloring != nil)
        start(update, ring: id, animation: update.animation ?? defaultAnimation(of: id), at: time)
        // (Only a board with thresholds has trails to restart: `before` is nil otherwise.)
        if before != nil { restartTrails(of: ringsTouched(by: [id]), from: before, at: time) }
        revision += 1
    }

    /// Sets the background to `update.color`, growing over the current picture as a splash layer (seed 002);
    /// `"animation":"none"` replaces it at once. Several changes in a row stack their layers. Throws what
    /// `BackgroundUpdate.validate()` throws, and then changes nothing, the revision included.
    public mutating func apply(_ update: BackgroundUpdate, at time: Double) throws(APIError) {
        try update.validate()
        backdrop.change(to: update.color, style: update.style, animation: update.layerAnimation, at: time)
        revision += 1
    }

    /// Starts the countdown: every countdown ring fills linearly from 0 to 1 over `seconds` from `time` and
    /// counts the seconds down (with `animated` false, the stroke jumps once per whole second); a running
    /// countdown starts over. Throws 404 `not_found` when the board has no countdown ring and 422
    /// `out_of_range` (field `seconds`) unless 0 < seconds ≤ 86400; either way nothing changes.
    public mutating func startCountdown(seconds: Double, animated: Bool = true, at time: Double) throws(APIError) {
        guard hasCountdownRing else {
            throw .notFound("board \"\(spec.name)\" has no countdown ring")
        }
        try Limits.check(countdownSeconds: seconds, field: "seconds")
        let before = beforeRecoloring(false)
        countdown = Countdown(seconds: seconds, start: time, animated: animated)
        restartTrails(of: countdownRingIDs, from: before, at: time)
        revision += 1
    }

    /// Stops and clears the countdown at `time`: its rings show no data again (p `null`, label `—`). Without a
    /// countdown it changes nothing, the revision included.
    public mutating func cancelCountdown(at time: Double) {
        guard countdown != nil else { return }
        let before = beforeRecoloring(false)
        countdown = nil
        restartTrails(of: countdownRingIDs, from: before, at: time)
        revision += 1
    }

    /// The ids of the rings that show the countdown.
    private var countdownRingIDs: [String] {
        spec.rings.filter { $0.kind.tag == .countdown }.map(\.id)
    }

    /// Replaces the whole state with persisted values, shown at once without animation, e.g. at start-up:
    /// ring targets and colours, the background colour (nil: the configured one) and the countdown, whose
    /// `start` must be in this board's monotonic clock (a countdown that ended long ago rests at 1, `0s`).
    /// Entries for rings the board no longer has or that take no pushes, and values outside the API's limits
    /// are skipped; their ids are returned so the caller can log them (`countdown` for a countdown that the
    /// board has no ring for or whose numbers are out of range).
    /// `revision`, when given, continues the persisted revision so ETags stay unique across restarts.
    @discardableResult
    public mutating func restore(
        targets: [String: Double],
        colors: [String: [RGBAColor]],
        labelColors: [String: RGBAColor] = [:],
        background: RGBAColor? = nil,
        countdown: Countdown? = nil,
        revision: Int? = nil
    ) -> [String] {
        var skipped: [String] = []
        rings = [:]
        for (id, color) in labelColors {
            guard let ring = ring(id), ring.kind.takesPushes else {
                skipped.append(id)
                continue
            }
            rings[id, default: RingState()].labelColor = AnimatedColor(color)
        }
        backdrop = Background(background ?? spec.background)
        self.countdown = nil
        if let countdown {
            if hasCountdownRing, countdown.start.isFinite,
                (try? Limits.check(countdownSeconds: countdown.seconds, field: nil)) != nil
            {
                self.countdown = countdown
            } else {
                skipped.append("countdown")
            }
        }
        for (id, target) in targets {
            guard let ring = ring(id), ring.kind.takesPushes, Self.targets(of: ring.kind).contains(target) else {
                skipped.append(id)
                continue
            }
            rings[id, default: RingState()].progress = AnimatedValue(target)
        }
        for (id, pair) in colors {
            guard let ring = ring(id), ring.kind.takesPushes, pair.count == ring.colors.count else {
                skipped.append(id)
                continue
            }
            rings[id, default: RingState()].gradient = pair.map(AnimatedColor.init)
        }
        if let revision { self.revision = revision }
        return skipped.sorted()
    }

    // MARK: Presentation

    /// Whether anything on the board still moves at `time`: a ring's progress, gradient or label colour, the
    /// countdown or a splash layer. The per-ring check below asks the same of one ring.
    public func isAnimating(at time: Double) -> Bool {
        rings.values.contains { $0.isAnimating(at: time) }
            || isCountdownRunning(at: time)
            || backdrop.isAnimating(at: time)
            || areThresholdColorsMoving(at: time)
    }

    /// Whether this ring's progress (a derived ring: any source's; a countdown ring: the countdown) or colours
    /// are still moving at `time`.
    public func isAnimating(ring id: String, at time: Double) -> Bool {
        isAnimating(ring: id, at: time, visiting: [])
    }

    /// Drops finished animations and splash layers so memory stays bounded; the presentation is unchanged.
    public mutating func settle(at time: Double) {
        // A threshold follower reads values back in time: their animations are kept a little longer.
        settle(at: time, valuesAt: hasThresholdColoring ? time - ThresholdFollower.memory : time)
    }

    /// `settle(at:)` with the values' animations dropped by `valuesTime`.
    mutating func settle(at time: Double, valuesAt valuesTime: Double) {
        backdrop.settle(at: time)
        updateRingStates { $0.settle(at: time, valuesAt: valuesTime) }
    }

    /// How many animations the rings' values hold: what the board's stored state grows with.
    public var heldAnimations: Int {
        rings.values.reduce(0) { $0 + $1.heldAnimations }
    }

    /// Keeps every ring's motion at `time`, so that reading the board at that instant (a frame, a write's answer)
    /// blends only what is pushed after this call (`AnimatedValue.prime(at:)`). Changes nothing a reader sees.
    public mutating func prime(at time: Double) {
        updateRingStates { $0.prime(at: time) }
    }

    /// Calls `body` on every ring's state in place: iterating `rings.keys` would hold the dictionary and make the
    /// first change copy it whole.
    private mutating func updateRingStates(_ body: (inout RingState) -> Void) {
        var index = rings.startIndex
        while index != rings.endIndex {
            body(&rings.values[index])
            rings.formIndex(after: &index)
        }
    }

    /// The displayed progress of every ring at `time`, by id; nil for rings without data.
    public func presentation(at time: Double) -> [String: Double?] {
        var result: [String: Double?] = [:]
        for ring in spec.rings {
            result.updateValue(progress(ofRing: ring.id, at: time), forKey: ring.id)
        }
        return result
    }

    /// The displayed progress of one ring at `time` (derived and countdown rings computed); nil without data.
    /// A counter's number stays within `Limits.counterValues`: a spring may carry it a little past its target,
    /// as the seed's does, but never past the counter's range (docs/ANIMATION.md, "Rolling counter"), so its
    /// digits never show a number the API would refuse and its label is never longer than the one its
    /// definition was checked against (`Limits.labelProblem(of:)`).
    public func progress(ofRing id: String, at time: Double) -> Double? {
        resolve(id, visiting: []) { ring in
            switch ring.kind {
            case .countdown:
                return countdown?.progress(at: time, then: ring.countdownOptions.then)
            case .counter:
                let range = Limits.counterValues
                return (rings[ring.id]?.progress?.value(at: time) ?? ring.value).map {
                    min(max($0, range.lowerBound), range.upperBound)
                }
            default:
                return rings[ring.id]?.progress?.value(at: time) ?? ring.value
            }
        }
    }

    /// The label of one ring at `time`: whole seconds left for a countdown ring (`9s`), else the displayed
    /// progress in the ring's label format (`73%`, `12/20`, `12`, fixed text); `—` without data.
    public func label(ofRing id: String, at time: Double) -> String {
        guard let ring = ring(id) else { return PercentLabel.string(for: nil) }
        switch ring.kind {
        case .countdown:
            return countdown?.label(at: time, options: ring.countdownOptions) ?? PercentLabel.string(for: nil)
        case .counter(let counter):
            return progress(ofRing: id, at: time).map { Odometer.label(for: $0, format: counter.format) }
                ?? PercentLabel.string(for: nil)
        case .indicator: return IndicatorLabel.string(for: progress(ofRing: id, at: time))
        case .text, .gradient:
            if case .text(let text) = ring.label { return text }
            return ""
        case .plain: break
        case .derived(let derived):
            let label = ValueLabel.string(for: progress(ofRing: id, at: time), format: ring.label, maximum: ring.maximum)
            return label + Self.reporting(derived.sources.map { progress(ofRing: $0, at: time) != nil }, format: ring.label)
        }
        return ValueLabel.string(for: progress(ofRing: id, at: time), format: ring.label, maximum: ring.maximum)
    }

    /// What a derived ring's label adds while only some of its sources have data (`reporting`, one a source): those
    /// without count as 0 in its mean (the seeds' Overall), so `Task 1` at 40 % alone makes Overall `10% · 1 of 4`,
    /// saying why. Nothing once all have data, or while none has (the label is `—`), or for a fixed text, a rate or
    /// an ETA (issue 34).
    static func reporting(_ reporting: [Bool], format: LabelFormat) -> String {
        switch format {
        case .percent, .fraction, .value: break
        case .text, .rate, .eta: return ""
        }
        let count = reporting.filter { $0 }.count
        guard count > 0, count < reporting.count else { return "" }
        return " · \(count) of \(reporting.count)"
    }

    /// The background at `time`: the colour under the layers and the layers still growing, bottom first.
    func backgroundPresentation(at time: Double) -> Background.Presentation {
        backdrop.presentation(at: time)
    }

    /// The label colour `time` shows: a pushed one as it animates, else the configured one, else
    /// `automatic`, the frame's text colour for the background colour under the splash layers
    /// (`RGBAColor.text(on:)`, picked once per frame by the composer).
    public func labelColor(ofRing id: String, at time: Double, automatic: RGBAColor) -> RGBAColor {
        rings[id]?.labelColor?.value(at: time) ?? ring(id)?.labelColor ?? automatic
    }

    /// The displayed gradient colours (start, end) of one ring at `time`; the configured ones until a push.
    public func colors(ofRing id: String, at time: Double) -> [RGBAColor] {
        if let thresholds = thresholds(ofRing: id) { return thresholdColors(ofRing: id, thresholds: thresholds, at: time) }
        if let gradient = rings[id]?.gradient { return gradient.map { $0.value(at: time) } }
        return ring(id)?.colors ?? []
    }

    // MARK: Private

    func ring(_ id: String) -> RingSpec? {
        ringIndex[id].map { spec.rings[$0] }
    }

    /// Checks one entry against the board. `field` is the entry's path in the body (`rings.ID`, nil for a
    /// PUT body); `ringField` names the ring itself (`rings.ID`, nil for a PUT, whose ring is in the URL).
    private func validate(_ entry: RingPatch, ring id: String, field: String?, ringField: String?) throws(APIError) {
        guard let ring = ring(id) else {
            let known = spec.rings.map { "\"\($0.id)\"" }.joined(separator: ", ")
            throw .notFound(
                "board \"\(spec.name)\" has no ring \(RequestField.quoted(id)); its rings are \(known)",
                field: ringField
            )
        }
        func path(_ key: String) -> String { field.map { RequestField.path($0, key) } ?? key }
        if let label = entry.label, case .text(let text) = label {
            try Limits.check(labelText: text, field: path("label.text"))
        }
        if let title = entry.title {
            try Limits.check(title: title, field: path("title"))
        }
        if let seconds = entry.staleAfter {
            try Limits.check(staleAfter: seconds, field: path("staleAfter"))
        }
        let pushesValues =
            entry.setsProgress || entry.colors != nil || entry.labelColor != nil || entry.maximum != nil
            || entry.startsWave
        try validateKeys(of: entry, for: ring, field: field)
        switch ring.kind {
        case .plain, .counter, .text, .indicator, .gradient:
            break
        case _ where !pushesValues:
            // Derived and countdown rings take a new title or label format, nothing the server computes.
            break
        case .derived(let derived):
            let names = derived.sources.map { "\"\($0)\"" }.joined(separator: ", ")
            throw .readOnly(
                "ring \"\(id)\" is derived: it shows the mean of \(names), so push to those rings instead",
                field: ringField
            )
        case .countdown:
            throw .readOnly(
                "ring \"\(id)\" is a countdown: it follows the clock; start it with POST /api/v1/boards/\(spec.name)/countdown",
                field: ringField
            )
        }
        guard pushesValues || entry.shapesRing || entry.coloring != nil else {
            throw .invalidValue(
                "the entry for \(ring.kind.isRing ? "ring" : ring.kind.name) \"\(id)\" sets nothing: give \(Self.listOfKeysTaken(by: ring.kind))",
                field: field)
        }
        if entry.progress != nil && entry.value != nil {
            throw .invalidValue("give \"progress\" or \"value\" (with \"max\"), not both", field: path("value"))
        }
        if let progress = entry.progress {
            try Limits.check(progress: progress, field: path("progress"))
        }
        if let maximum = entry.maximum {
            try Limits.check(maximum: maximum, field: path("max"))
        }
        if let value = entry.value, case .counter = ring.kind {
            try Limits.check(counterValue: value, field: path("value"))
        } else if let value = entry.value {
            guard value >= 0 else {
                throw .unprocessable(
                    "value must be a number of at least 0, got \(RequestField.describe(value))", field: path("value"))
            }
            let maximum = entry.maximum ?? ring.maximum
            let progress = value / maximum
            guard progress.isFinite, Limits.progress.contains(progress) else {
                throw .unprocessable(
                    "value / max must be from 0 to 10 (max is \(RequestField.describe(maximum))), got \(RequestField.describe(value))",
                    field: path("value"))
            }
        }
        if let colors = entry.colors {
            try Limits.check(colors: colors, count: ring.kind.tag == .gradient ? ring.colors.count : 2, field: path("colors"))
        }
        try Self.check(entry, coloringOf: path)
        if let text = entry.text {
            try Limits.check(labelText: text, field: path("text"))
        }
        if let width = entry.waveWidth {
            try Limits.check(waveWidth: width, field: path("wave.width"))
        }
        if let animation = entry.animation {
            try Limits.check(animation: animation, field: path("animation"))
        }
    }

    /// Starts a validated entry's animations at `time`. A ring's first progress counts up from 0.
    private mutating func start(_ entry: RingPatch, ring id: String, animation: Animation, at time: Double) {
        // A ring coloured by thresholds changes colour from the colours it moves with now.
        let recolors = entry.colors != nil || entry.coloring != nil
        let shown = recolors && thresholds(ofRing: id) != nil ? colorsBeforeChange(ofRing: id, at: time) : nil
        if entry.shapesRing, let index = ringIndex[id] {
            var ring = spec.rings[index]
            if let title = entry.title { ring.title = title }
            if let label = entry.label { ring.label = label }
            if let maximum = entry.maximum { ring.maximum = maximum }
            if let text = entry.text { ring.label = .text(text) }
            if let width = entry.waveWidth, case .text(var widget) = ring.kind {
                widget.waveWidth = width
                ring.kind = .text(widget)
            }
            if entry.setsStaleAfter { ring.staleAfter = entry.staleAfter }
            if ring != spec.rings[index] {
                spec.rings[index] = ring
                isShapedByAPI = true
            }
        }
        var state = rings[id] ?? RingState()
        if entry.clearsData {
            state.progress = nil
        }
        let isCounter = ring(id).map { if case .counter = $0.kind { true } else { false } } ?? false
        let target =
            isCounter ? entry.value : entry.progress ?? entry.value.map { $0 / (ring(id)?.maximum ?? RingSpec.defaultMaximum) }
        if let target {
            // A counter's first push rolls on from the number it was defined with.
            var progress = state.progress ?? AnimatedValue(isCounter ? ring(id)?.value ?? 0 : 0)
            progress.animate(to: target, with: animation, at: time)
            state.progress = progress
        }
        if let colors = entry.colors {
            var gradient = shown ?? state.gradient ?? configuredGradient(of: id)
            for index in gradient.indices {
                gradient[index].animate(to: colors[index], with: animation, at: time)
            }
            state.gradient = gradient
            state.status = nil
            state.thresholds = nil
        }
        if let coloring = entry.coloring {
            recolor(
                &state, ring: id, with: coloring, from: shown ?? state.gradient ?? configuredGradient(of: id),
                animation: animation, at: time)
        }
        if let color = entry.labelColor {
            // An automatic label starts from the text colour it shows now.
            var label =
                state.labelColor
                ?? AnimatedColor(ring(id)?.labelColor ?? RGBAColor.text(on: backgroundPresentation(at: time).color))
            label.animate(to: color, with: animation, at: time)
            state.labelColor = label
        }
        if entry.startsWave {
            // Every wave passes once from the start: seed 003's pct from 0 to 1.
            var wave = AnimatedValue(0)
            wave.animate(to: 1, with: animation, at: time)
            state.wave = wave
        }
        rings[id] = state.isEmpty ? nil : state
    }

    /// The configured start and end colours (a gradient widget's 2 to 8) as animatable values; padded if the
    /// spec holds fewer than two.
    private func configuredGradient(of id: String) -> [AnimatedColor] {
        let configured = ring(id)?.colors ?? []
        if configured.count > 2 { return configured.map(AnimatedColor.init) }
        let start = configured.first ?? RGBAColor(red: 0, green: 0, blue: 0)
        let end = configured.count > 1 ? configured[1] : start
        return [AnimatedColor(start), AnimatedColor(end)]
    }

    /// A ring's value, following derived rings to their sources (a cycle counts as no data); `leaf` gives the
    /// value of a plain or countdown ring.
    private func resolve(_ id: String, visiting: Set<String>, leaf value: (RingSpec) -> Double?) -> Double? {
        guard let ring = ring(id) else { return nil }
        switch ring.kind {
        case .plain, .countdown, .counter, .text, .indicator, .gradient:
            return value(ring)
        case .derived(let derived):
            guard !visiting.contains(id), !derived.sources.isEmpty else { return nil }
            let values = derived.sources.map { resolve($0, visiting: visiting.union([id]), leaf: value) }
            guard values.contains(where: { $0 != nil }) else { return nil }
            // The seeds' overall progress: the mean of the tasks, a task without data counting as 0.
            return values.reduce(0) { $0 + ($1 ?? 0) } / Double(values.count)
        }
    }

    private func isAnimating(ring id: String, at time: Double, visiting: Set<String>) -> Bool {
        if rings[id]?.isAnimating(at: time) == true { return true }
        if visiting.isEmpty, areThresholdColorsMoving(ofRing: id, at: time) { return true }
        if let ring = ring(id), ring.kind.tag == .countdown,
            countdown?.isRunning(at: time, then: ring.countdownOptions.then) == true
        {
            return true
        }
        guard let sources = ring(id)?.kind.sources, !visiting.contains(id) else { return false }
        return sources.contains { isAnimating(ring: $0, at: time, visiting: visiting.union([id])) }
    }
}
