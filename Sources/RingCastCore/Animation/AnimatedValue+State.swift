extension AnimatedValue {
    /// The stored form: every number as it is held, so a restored value continues bit for bit.
    var state: BoardState.Value {
        var value = BoardState.Value(target: target, rest: nil, spring: nil, segments: [])
        switch root {
        case .rest(let rest):
            value.rest = rest
        case .spring(let motion):
            value.spring = BoardState.SpringState(
                response: motion.spring.response,
                dampingFraction: motion.spring.dampingFraction,
                start: motion.start,
                from: motion.initial,
                velocity: motion.v0,
                target: motion.target,
                repetition: motion.repetition.map(BoardState.RepetitionState.init)
            )
        }
        value.segments = segments.map { segment in
            BoardState.Segment(
                start: segment.start,
                duration: segment.duration,
                curve: [segment.curve.x1, segment.curve.y1, segment.curve.x2, segment.curve.y2],
                target: segment.target,
                repetition: segment.repetition.map(BoardState.RepetitionState.init)
            )
        }
        return value
    }

    /// How far a running value (a spring's start, velocity, a segment's target) may lie from 0 in a stored state:
    /// ±1e6 for targets within ±10 (progress, colours, a wave), as many times more for wider targets (a counter's
    /// ±1e12 gives ±1e17), so that any animation between two accepted targets loads again.
    static func looseBound(for targets: ClosedRange<Double>) -> Double {
        let widest = max(targets.lowerBound.magnitude, targets.upperBound.magnitude)
        return 1e6 * max(1, widest / 10)
    }

    /// Rebuilds a stored value through the same initialisers that built it, so derived numbers (a segment's
    /// end, a spring's settling time) come out the same. Targets must lie in `targets`; every other number
    /// must be finite and within `looseBound(for:)` (a spring may overshoot, nothing sane goes further).
    init(state: BoardState.Value, key: String, targets: ClosedRange<Double>) throws(BoardStateError) {
        let bound = Self.looseBound(for: targets)
        let loose = -bound...bound
        try BoardState.check(state.target, key + ".target", targets)
        switch (state.rest, state.spring) {
        case (let rest?, nil):
            try BoardState.check(rest, key + ".rest", loose)
            root = .rest(rest)
        case (nil, let stored?):
            let springKey = key + ".spring"
            try BoardState.checkPositive(stored.response, springKey + ".response", maximum: Limits.durations.upperBound)
            try BoardState.checkPositive(stored.dampingFraction, springKey + ".dampingFraction", maximum: 1e6)
            try BoardState.checkTime(stored.start, springKey + ".start")
            try BoardState.check(stored.from, springKey + ".from", loose)
            try BoardState.check(stored.velocity, springKey + ".velocity", loose)
            try BoardState.check(stored.target, springKey + ".target", loose)
            root = .spring(
                SpringMotion(
                    spring: Spring(response: stored.response, dampingFraction: stored.dampingFraction),
                    start: stored.start,
                    from: Motion(value: stored.from, velocity: stored.velocity),
                    target: stored.target,
                    repetition: try stored.repetition?.repetition(key: springKey + ".repetition")
                )
            )
        default:
            throw BoardStateError(key: key, message: "needs exactly one of \"rest\" and \"spring\"")
        }
        guard state.segments.count <= BoardState.maximumSegments else {
            throw BoardStateError(
                key: key + ".segments", message: "holds \(state.segments.count) segments, more than any run makes")
        }
        var segments: [Segment] = []
        segments.reserveCapacity(state.segments.count)
        for (index, stored) in state.segments.enumerated() {
            let segmentKey = "\(key).segments.\(index)"
            try BoardState.checkTime(stored.start, segmentKey + ".start")
            try BoardState.checkPositive(stored.duration, segmentKey + ".duration", maximum: Limits.durations.upperBound)
            try BoardState.check(stored.target, segmentKey + ".target", loose)
            guard stored.curve.count == 4 else {
                throw BoardStateError(
                    key: segmentKey + ".curve", message: "needs 4 control-point numbers, got \(stored.curve.count)")
            }
            for (position, number) in stored.curve.enumerated() {
                try BoardState.check(number, "\(segmentKey).curve.\(position)", position.isMultiple(of: 2) ? 0...1 : -1e3...1e3)
            }
            segments.append(
                Segment(
                    start: stored.start,
                    duration: stored.duration,
                    curve: TimingCurve(x1: stored.curve[0], y1: stored.curve[1], x2: stored.curve[2], y2: stored.curve[3]),
                    target: stored.target,
                    repetition: try stored.repetition?.repetition(key: segmentKey + ".repetition")
                )
            )
        }
        self.segments = Segments(segments)
        target = state.target
    }
}

extension BoardState.RepetitionState {
    init(_ repetition: Repetition) {
        switch repetition.count {
        case .times(let passes): self.init(count: passes, forever: nil, autoreverse: repetition.autoreverses)
        case .forever: self.init(count: nil, forever: true, autoreverse: repetition.autoreverses)
        }
    }

    /// The repetition it stores: exactly one of `count` (in `Limits.repeatCounts`) and `"forever": true`.
    func repetition(key: String) throws(BoardStateError) -> Repetition {
        switch (count, forever) {
        case (let count?, nil):
            guard Limits.repeatCounts.contains(count) else {
                throw BoardStateError(
                    key: key + ".count",
                    message: "must be a whole number from \(Limits.repeatCounts.lowerBound) to "
                        + "\(Limits.repeatCounts.upperBound), got \(count)"
                )
            }
            return Repetition(count: .times(count), autoreverses: autoreverse)
        case (nil, true?):
            return Repetition(count: .forever, autoreverses: autoreverse)
        default:
            throw BoardStateError(key: key, message: "needs exactly one of \"count\" and \"forever\": true")
        }
    }
}

extension AnimatedColor {
    var state: BoardState.Color {
        [red.state, green.state, blue.state, alpha.state]
    }

    init(state: BoardState.Color, key: String) throws(BoardStateError) {
        guard state.count == 4 else {
            throw BoardStateError(key: key, message: "needs 4 components (red, green, blue, alpha), got \(state.count)")
        }
        red = try AnimatedValue(state: state[0], key: key + ".0", targets: 0...1)
        green = try AnimatedValue(state: state[1], key: key + ".1", targets: 0...1)
        blue = try AnimatedValue(state: state[2], key: key + ".2", targets: 0...1)
        alpha = try AnimatedValue(state: state[3], key: key + ".3", targets: 0...1)
    }
}
