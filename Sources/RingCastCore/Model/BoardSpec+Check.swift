extension BoardSpec {
    /// Checks what every board must hold, whoever made it (the configuration, the API or the store): at least
    /// one ring, unique ids, derived rings averaging other plain rings, groups of existing rings each in at
    /// most one group, finite sizes, countdown options only on countdown rings (a webhook a valid URL), and
    /// every arrangement placing exactly the board's rings in order.
    /// Throws the first problem, its key under `key`.
    public static func check(_ spec: BoardSpec, key: String) throws(BoardStateError) {
        func fail(_ subkey: String, _ message: String) -> BoardStateError {
            BoardStateError(key: key + subkey, message: message)
        }
        guard !spec.rings.isEmpty else { throw fail(".rings", "a board needs at least one ring") }
        if let seconds = spec.staleAfter, !Limits.staleAfterSeconds.contains(seconds) {
            throw fail(".staleAfter", Limits.staleAfterRange)
        }
        var kinds: [String: RingKind] = [:]
        for (index, ring) in spec.rings.enumerated() {
            guard kinds.updateValue(ring.kind, forKey: ring.id) == nil else {
                throw fail(".rings.\(index).id", "duplicate ring id \"\(ring.id)\"")
            }
            for (name, value) in [("r", ring.r), ("thickness", ring.thickness), ("max", ring.maximum)]
            where !(value.isFinite && value > 0) {
                throw fail(".rings.\(index).\(name)", "must be a positive number")
            }
            if ring.kind == .gradient {
                guard Limits.gradientColors.contains(ring.colors.count) else {
                    throw fail(".rings.\(index).colors", "a gradient needs 2 to 8 colours")
                }
            } else {
                guard ring.colors.count == 2 else { throw fail(".rings.\(index).colors", "needs 2 colours") }
            }
            if let problem = widgetProblem(ring) {
                throw fail(".rings.\(index).\(problem.key)", problem.message)
            }
            if let seconds = ring.staleAfter, !Limits.staleAfterSeconds.contains(seconds) {
                throw fail(".rings.\(index).staleAfter", Limits.staleAfterRange)
            }
            if let problem = coloringProblem(ring) {
                throw fail(".rings.\(index).\(problem.key)", problem.message)
            }
            if let options = ring.countdown {
                guard ring.kind == .countdown else {
                    throw fail(".rings.\(index).countdown", "only a countdown ring has countdown options")
                }
                if let webhook = options.webhook, case .failure(let problem) = CountdownOptions.webhookTarget(webhook) {
                    throw fail(".rings.\(index).countdown.webhook", problem.reason)
                }
            }
        }
        for (index, ring) in spec.rings.enumerated() {
            if let problem = sourceProblem(of: ring.id, kind: ring.kind, kinds: kinds) {
                throw fail(".rings.\(index).sources.\(problem.index)", problem.reason)
            }
        }
        let widgets = Set(spec.rings.filter { !$0.kind.isRing }.map(\.id))
        if let problem = groupProblem(in: spec.groups, ids: Set(kinds.keys), widgets: widgets) {
            throw fail(".groups.\(problem.index)", problem.reason)
        }
        let ids = spec.rings.map(\.id)
        for arrangement in spec.arrangements {
            let subkey = ".arrangements.\(arrangement.name)"
            guard arrangement.width.isFinite, arrangement.height.isFinite, arrangement.width > 0, arrangement.height > 0
            else { throw fail(subkey, "width and height must be positive") }
            guard arrangement.placements.map(\.id) == ids else {
                throw fail(subkey, "must place the board's rings, in order")
            }
            for placement in arrangement.placements {
                let numbers = [
                    placement.cx, placement.cy, placement.titleText.x, placement.titleText.y, placement.titleText.size,
                    placement.labelText.x, placement.labelText.y, placement.labelText.size,
                ]
                guard numbers.allSatisfy(\.isFinite) else {
                    throw fail(subkey + ".\(placement.id)", "every coordinate must be finite")
                }
            }
        }
    }

    /// The first of a widget's own settings outside `Limits` (what the API refuses when it is defined), as the
    /// key under the ring and why; nil for a ring or a widget within them.
    static func widgetProblem(_ ring: RingSpec) -> (key: String, message: String)? {
        switch ring.kind {
        case .counter(let format):
            if let digits = format.digits, !Limits.counterDigits.contains(digits) {
                return ("kind.digits", "must be from 1 to \(Limits.counterDigits.upperBound)")
            }
            if !Limits.counterDecimals.contains(format.decimals) {
                return ("kind.decimals", "must be from 0 to \(Limits.counterDecimals.upperBound)")
            }
            if let grouping = format.grouping, grouping.isEmpty || grouping.count > Limits.counterSeparatorLength {
                return ("kind.grouping", "must have 1 to \(Limits.counterSeparatorLength) characters")
            }
            if let unit = format.unit,
                (try? Limits.check(text: unit, named: "unit", maximumLength: Limits.counterUnitLength, field: nil)) == nil
            {
                return ("kind.unit", "must be 1 to \(Limits.counterUnitLength) visible characters")
            }
            // Not `Limits.labelProblem(of:)`: like titles, a counter stored by an older build with a longer label
            // still loads (a refusal would empty the board after an upgrade, or split a cluster mid-upgrade); the
            // composer cuts its label at whole characters, and only the definition checks refuse new ones.
            if let value = ring.value, !(value.isFinite && Limits.counterValues.contains(value)) {
                return ("value", "must be a counter's number, within ±1e12")
            }
        case .text(let width):
            if !(width.isFinite && Limits.waveWidths.contains(width)) {
                return ("kind.waveWidth", "must be from 1 to 64 characters")
            }
            if case .text(let text) = ring.label,
                (try? Limits.check(labelText: text, field: nil)) == nil
            {
                return ("label.text", "must be a text of 1 to \(LabelFormat.maximumTextLength) visible characters")
            }
        case .plain, .derived, .countdown, .indicator, .gradient:
            break
        }
        return nil
    }
}
