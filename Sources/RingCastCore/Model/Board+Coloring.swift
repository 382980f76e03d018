/// How a ring's colours are chosen (DESIGN §13): by `colors`, by a `status`, or by `thresholds` on its displayed
/// value. The latest write wins: a push of `colors` or a `status` ends thresholds, a push of `thresholds` ends a
/// status, and `null` for either goes back to what the ring's definition says. Rings (plain, derived and
/// countdown) and the indicator take them.
extension Board {
    /// Applies a push's `status`, `thresholds` or `null` to `state`: a status animates the gradient from `current`
    /// (the colours it moves with now) to its colours with the push's `animation`, as a push of those colours
    /// would; thresholds take over from the gradient (the trail started after the push continues from the colours
    /// shown); `null` goes back to the definition's thresholds, or animates to its colours and status.
    func recolor(
        _ state: inout RingState, ring id: String, with coloring: Coloring, from current: [AnimatedColor],
        animation: Animation, at time: Double
    ) {
        func animate(to colors: [RGBAColor]) {
            var gradient = current
            for index in gradient.indices where index < colors.count {
                gradient[index].animate(to: colors[index], with: animation, at: time)
            }
            state.gradient = gradient
        }
        state.thresholds = nil
        state.status = nil
        switch coloring {
        case .status(let status):
            animate(to: status.colors)
            state.status = status
        case .thresholds(let thresholds):
            state.gradient = nil
            state.thresholds = thresholds
        case .definition:
            guard let definition = ring(id), definition.thresholds == nil else {
                state.gradient = nil
                return
            }
            animate(to: definition.colors)
            state.status = definition.status
        }
    }

    /// 422 `invalid_value` for thresholds outside `Limits` in an entry built in code (a decoded one was checked as
    /// it was read); `path` turns a key into the entry's field.
    static func check(_ entry: RingPatch, coloringOf path: (String) -> String) throws(APIError) {
        guard case .thresholds(let thresholds) = entry.coloring, let problem = thresholds.problem else { return }
        throw .invalidValue(problem.message, field: path("thresholds" + (problem.key.map { ".\($0)" } ?? "")))
    }

    /// Whether a ring of `kind` takes a `status` or `thresholds` (`keysTaken(by:)` says which do).
    static func takesColoring(_ kind: RingKind) -> Bool {
        keysTaken(by: kind).contains("status")
    }

    /// The thresholds that colour ring `id`: pushed ones, else its definition's unless a push set its colours.
    public func thresholds(ofRing id: String) -> Thresholds? {
        if let state = rings[id] {
            if let thresholds = state.thresholds { return thresholds }
            if state.gradient != nil { return nil }
        }
        return ring(id)?.thresholds
    }

    /// The status ring `id` shows: the last pushed one, else its definition's while no push changed its colours.
    public func status(ofRing id: String) -> RingStatus? {
        if let state = rings[id], state.thresholds != nil || state.gradient != nil { return state.status }
        return thresholds(ofRing: id) == nil ? ring(id)?.status : nil
    }

    /// Whether any ring is coloured by thresholds: then the board keeps its values' finished animations for
    /// `ThresholdFollower.memory` seconds.
    var hasThresholdColoring: Bool {
        // Asked on every push and every frame: a board without thresholds answers without a lookup per ring.
        rings.values.contains { $0.thresholds != nil }
            || spec.rings.contains { ring in ring.thresholds != nil && rings[ring.id]?.gradient == nil }
    }

    /// The gradient of a ring coloured by thresholds at `time`.
    func thresholdColors(ofRing id: String, thresholds: Thresholds, at time: Double) -> [RGBAColor] {
        thresholdMotion(ofRing: id, thresholds: thresholds, through: time, including: true).map { $0.value(at: time) }
    }

    /// Whether a ring coloured by thresholds is still changing colour at `time`.
    func areThresholdColorsMoving(ofRing id: String, at time: Double) -> Bool {
        guard thresholds(ofRing: id) != nil else { return false }
        return !ThresholdFollower.isAtRest(trail: rings[id]?.trail, at: time) { isValueMoving(ring: id, at: $0) }
    }

    /// Whether any ring coloured by thresholds is still changing colour at `time`.
    func areThresholdColorsMoving(at time: Double) -> Bool {
        guard hasThresholdColoring else { return false }
        return spec.rings.contains { areThresholdColorsMoving(ofRing: $0.id, at: time) }
    }

    /// The target colours GET shows: the band of the ring's target for thresholds, the pushed ones, else the
    /// definition's.
    func targetColors(ofRing id: String) -> [RGBAColor] {
        if let thresholds = thresholds(ofRing: id) { return thresholds.colors(for: target(ofRing: id)) }
        return rings[id]?.gradient?.map(\.target) ?? ring(id)?.colors ?? []
    }

    /// The colours ring `id` moves with just before `time`, for a change at `time` to continue from: a thresholds
    /// ring's transitions as followed up to then, any other ring's colours as shown then, at rest.
    func colorsBeforeChange(ofRing id: String, at time: Double) -> [AnimatedColor] {
        if let thresholds = thresholds(ofRing: id) {
            return thresholdMotion(ofRing: id, thresholds: thresholds, through: time, including: false)
        }
        return colors(ofRing: id, at: time).map(AnimatedColor.init)
    }

    /// The board before a change, for `restartTrails(of:from:at:)`: nil when no ring is coloured by thresholds and
    /// the change colours none (`recolors` false), so that pushes to boards without thresholds copy nothing.
    func beforeRecoloring(_ recolors: Bool) -> Board? {
        recolors || hasThresholdColoring ? self : nil
    }

    /// After a change at `time` applied to `before`: every ring in `ids` coloured by thresholds now starts a new
    /// trail there, continuing from the colours `before` moved with (its value or colouring may have changed, so
    /// the follower must not read it from before the change); the others lose theirs. Nothing to do without
    /// `before` (`beforeRecoloring(_:)`).
    mutating func restartTrails(of ids: some Sequence<String>, from before: Board?, at time: Double) {
        guard let before else { return }
        for id in ids {
            if thresholds(ofRing: id) != nil {
                let colors = before.colorsBeforeChange(ofRing: id, at: time)
                rings[id, default: RingState()].trail = ThresholdTrail(since: time, colors: colors)
            } else if rings[id]?.trail != nil {
                rings[id]?.trail = nil
                if rings[id]?.isEmpty == true { rings[id] = nil }
            }
        }
    }

    /// The rings whose displayed value or colouring a patch of `ids` may change: those rings and the derived
    /// rings that average any of them.
    func ringsTouched(by ids: some Sequence<String>) -> [String] {
        let pushed = Set(ids)
        return spec.rings.filter { ring in
            if pushed.contains(ring.id) { return true }
            if let sources = ring.kind.sources { return sources.contains(where: pushed.contains) }
            return false
        }.map(\.id)
    }

    /// Whether ring `id`'s displayed value changes at `time`: its progress, a derived ring's sources, a
    /// countdown ring's countdown. Colours do not count: thresholds follow the value alone.
    func isValueMoving(ring id: String, at time: Double) -> Bool {
        isValueMoving(ring: id, at: time, visiting: [])
    }

    private func isValueMoving(ring id: String, at time: Double, visiting: Set<String>) -> Bool {
        guard let ring = ring(id) else { return false }
        switch ring.kind {
        case .countdown:
            return countdown?.isRunning(at: time, then: ring.countdownOptions.then) == true
        case .derived(let derived):
            guard !visiting.contains(id) else { return false }
            return derived.sources.contains { isValueMoving(ring: $0, at: time, visiting: visiting.union([id])) }
        case .plain, .counter, .text, .indicator, .gradient:
            return rings[id]?.progress?.isAnimating(at: time) == true
        }
    }

    private func thresholdMotion(
        ofRing id: String, thresholds: Thresholds, through time: Double, including: Bool
    ) -> [AnimatedColor] {
        ThresholdFollower.motion(
            of: thresholds, trail: rings[id]?.trail, through: time, including: including,
            value: { progress(ofRing: id, at: $0) }, isMoving: { isValueMoving(ring: id, at: $0) })
    }
}
