/// The live state of one board: per ring the pushed targets and the animations toward them, from which
/// the presentation at any instant follows. A value type; time is monotonic seconds fed in by the caller.
///
/// Only plain rings take pushes. A derived ring shows, in every frame, the mean of its sources' displayed
/// values (sources without data count as 0; no value at all while no source has data). A countdown ring
/// shows no progress yet (later issue).
public struct Board: Sendable, Equatable {
    public let spec: BoardSpec
    /// +1 on every successful `apply`; the server's ETag.
    public private(set) var revision: Int = 0

    /// Position of each ring in `spec.rings`, for lookups by id.
    private let ringIndex: [String: Int]
    /// Plain rings that have received progress.
    private var progress: [String: AnimatedValue] = [:]
    /// Rings whose gradient colours were pushed: start, end.
    private var gradients: [String: [AnimatedColor]] = [:]

    public init(spec: BoardSpec) {
        self.spec = spec
        var index: [String: Int] = [:]
        for (position, ring) in spec.rings.enumerated() where index[ring.id] == nil {
            index[ring.id] = position
        }
        ringIndex = index
    }

    // MARK: Targets

    /// The pushed progress of a plain ring, the mean of its sources' targets for a derived ring (sources
    /// without data count as 0); nil when the ring never received data, is a countdown, or does not exist.
    public func target(ofRing id: String) -> Double? {
        resolve(id, visiting: []) { progress[$0]?.target }
    }

    /// Pushed progress of every plain ring that has data: what is persisted.
    public var targets: [String: Double] {
        progress.mapValues(\.target)
    }

    /// Pushed gradient colours of every ring whose colours a push changed: what is persisted.
    public var targetColors: [String: [RGBAColor]] {
        gradients.mapValues { $0.map(\.target) }
    }

    // MARK: Pushes

    /// Applies a PATCH atomically: every entry is validated first, then all start animating at `time`.
    ///
    /// Each ring animates with its entry's own animation, else the patch's, else `Animation.default`.
    /// Throws 404 `not_found` (field `rings.ID`) for an unknown ring, 422 `read_only` (field `rings.ID`) for a
    /// derived or countdown ring, whose values the server computes, 422 `invalid_value` for an entry that
    /// sets nothing or an empty patch, and the range errors of `Limits`. A rejected patch changes nothing,
    /// the revision included.
    public mutating func apply(_ patch: BoardPatch, at time: Double) throws(APIError) {
        guard !patch.rings.isEmpty else {
            throw .invalidValue("rings is empty: name at least one ring to change", field: "rings")
        }
        if let animation = patch.animation {
            try Limits.check(animation: animation, field: "animation")
        }
        // Sorted so that the same patch always reports the same error.
        let entries = patch.rings.sorted { $0.key < $1.key }
        for (id, entry) in entries {
            let field = RequestField.path("rings", id)
            try validate(entry, ring: id, field: field, ringField: field)
        }
        for (id, entry) in entries {
            start(entry, ring: id, animation: entry.animation ?? patch.animation ?? .default, at: time)
        }
        revision += 1
    }

    /// Applies `PUT …/rings/{id}` with the same rules as a one-entry PATCH. Field paths are those of the
    /// PUT body (`progress`, `colors.0`); an unknown ring is 404 without a field, since it is in the URL.
    public mutating func apply(_ update: RingUpdate, toRing id: String, at time: Double) throws(APIError) {
        let entry = RingPatch(progress: update.progress, colors: update.colors, animation: update.animation)
        try validate(entry, ring: id, field: nil, ringField: nil)
        start(entry, ring: id, animation: entry.animation ?? .default, at: time)
        revision += 1
    }

    /// Replaces the whole state with persisted targets, shown at once without animation, e.g. at start-up.
    /// Entries for rings the board no longer has or that take no pushes, and values outside the API's limits
    /// are skipped; their ids are returned so the caller can log them.
    /// `revision`, when given, continues the persisted revision so ETags stay unique across restarts.
    @discardableResult
    public mutating func restore(
        targets: [String: Double],
        colors: [String: [RGBAColor]],
        revision: Int? = nil
    ) -> [String] {
        var skipped: [String] = []
        progress = [:]
        gradients = [:]
        for (id, target) in targets {
            guard let ring = ring(id), ring.kind == .plain, Limits.progress.contains(target) else {
                skipped.append(id)
                continue
            }
            progress[id] = AnimatedValue(target)
        }
        for (id, pair) in colors {
            guard let ring = ring(id), ring.kind == .plain, pair.count == 2 else {
                skipped.append(id)
                continue
            }
            gradients[id] = pair.map(AnimatedColor.init)
        }
        if let revision { self.revision = revision }
        return skipped.sorted()
    }

    // MARK: Presentation

    /// Whether any ring of the board is still moving at `time`.
    public func isAnimating(at time: Double) -> Bool {
        progress.values.contains { $0.isAnimating(at: time) }
            || gradients.values.contains { $0.contains { $0.isAnimating(at: time) } }
    }

    /// Whether this ring's progress (a derived ring: any source's) or colours are still moving at `time`.
    public func isAnimating(ring id: String, at time: Double) -> Bool {
        isAnimating(ring: id, at: time, visiting: [])
    }

    /// Drops finished animations so memory stays bounded; the presentation is unchanged.
    public mutating func settle(at time: Double) {
        for id in progress.keys { progress[id]?.settle(at: time) }
        for id in gradients.keys {
            for index in gradients[id, default: []].indices { gradients[id]?[index].settle(at: time) }
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

    /// The displayed progress of one ring at `time` (derived rings computed); nil without data.
    public func progress(ofRing id: String, at time: Double) -> Double? {
        resolve(id, visiting: []) { progress[$0]?.value(at: time) }
    }

    /// The displayed gradient colours (start, end) of one ring at `time`; the configured ones until a push.
    public func colors(ofRing id: String, at time: Double) -> [RGBAColor] {
        if let gradient = gradients[id] { return gradient.map { $0.value(at: time) } }
        return ring(id)?.colors ?? []
    }

    // MARK: Private

    private func ring(_ id: String) -> RingSpec? {
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
        switch ring.kind {
        case .plain:
            break
        case .derived(let sources):
            let names = sources.map { "\"\($0)\"" }.joined(separator: ", ")
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
        func path(_ key: String) -> String { field.map { RequestField.path($0, key) } ?? key }
        guard entry.progress != nil || entry.colors != nil else {
            throw .invalidValue("the entry for ring \"\(id)\" sets nothing: give \"progress\", \"colors\" or both", field: field)
        }
        if let progress = entry.progress {
            try Limits.check(progress: progress, field: path("progress"))
        }
        if let colors = entry.colors {
            try Limits.check(colors: colors, field: path("colors"))
        }
        if let animation = entry.animation {
            try Limits.check(animation: animation, field: path("animation"))
        }
    }

    /// Starts a validated entry's animations at `time`. A ring's first progress counts up from 0.
    private mutating func start(_ entry: RingPatch, ring id: String, animation: Animation, at time: Double) {
        if let target = entry.progress {
            progress[id, default: AnimatedValue(0)].animate(to: target, with: animation, at: time)
        }
        if let colors = entry.colors {
            var gradient = gradients[id] ?? configuredGradient(of: id)
            for index in gradient.indices {
                gradient[index].animate(to: colors[index], with: animation, at: time)
            }
            gradients[id] = gradient
        }
    }

    /// The configured start and end colours as animatable values; padded if the spec holds fewer than two.
    private func configuredGradient(of id: String) -> [AnimatedColor] {
        let configured = ring(id)?.colors ?? []
        let start = configured.first ?? RGBAColor(red: 0, green: 0, blue: 0)
        let end = configured.count > 1 ? configured[1] : start
        return [AnimatedColor(start), AnimatedColor(end)]
    }

    /// A ring's value, following derived rings to their sources (a cycle counts as no data).
    private func resolve(_ id: String, visiting: Set<String>, plain value: (String) -> Double?) -> Double? {
        guard let ring = ring(id) else { return nil }
        switch ring.kind {
        case .plain:
            return value(id)
        case .countdown:
            return nil
        case .derived(let sources):
            guard !visiting.contains(id), !sources.isEmpty else { return nil }
            let values = sources.map { resolve($0, visiting: visiting.union([id]), plain: value) }
            guard values.contains(where: { $0 != nil }) else { return nil }
            // The seeds' overall progress: the mean of the tasks, a task without data counting as 0.
            return values.reduce(0) { $0 + ($1 ?? 0) } / Double(values.count)
        }
    }

    private func isAnimating(ring id: String, at time: Double, visiting: Set<String>) -> Bool {
        if progress[id]?.isAnimating(at: time) == true { return true }
        if gradients[id]?.contains(where: { $0.isAnimating(at: time) }) == true { return true }
        guard case .derived(let sources) = ring(id)?.kind, !visiting.contains(id) else { return false }
        return sources.contains { isAnimating(ring: $0, at: time, visiting: visiting.union([id])) }
    }
}
