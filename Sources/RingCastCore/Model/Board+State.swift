extension Board {
    /// The whole state as stored, with times in seconds since `epoch` on a grid of `fps` ticks a second.
    public func state(fps: Int, epoch: Int64) -> BoardState {
        let rings = self.rings.mapValues { ring in
            BoardState.Ring(
                progress: ring.progress?.state, colors: ring.gradient?.map(\.state), labelColor: ring.labelColor?.state,
                wave: ring.wave?.state, status: ring.status?.rawValue, thresholds: ring.thresholds,
                trail: ring.trail.map { BoardState.Trail(since: $0.since, colors: $0.colors.map(\.state)) })
        }
        return BoardState(
            format: BoardState.currentFormat,
            board: spec.name,
            fps: fps,
            epoch: epoch,
            revision: Int64(revision),
            rings: rings,
            background: BoardState.Backdrop(
                base: backdrop.base.components,
                layers: backdrop.layers.map { layer in
                    var angle: Double?
                    if case .angle(let degrees) = layer.style { angle = degrees }
                    return BoardState.Layer(
                        color: layer.color.components,
                        style: layer.style.name,
                        angle: angle,
                        progress: layer.progress.state
                    )
                }
            ),
            countdown: countdown.map {
                BoardState.CountdownState(seconds: $0.seconds, start: $0.start, animated: $0.animated ? nil : false)
            },
            spec: isShapedByAPI ? spec : nil
        )
    }

    /// Replaces everything but the spec with a stored state (its `fps` and `epoch` are the caller's to use).
    /// Every number is checked first: a bad one throws, naming its key, and changes nothing. Values for rings
    /// this board does not have, or that take no pushes, are skipped and their ids returned (`countdown` for
    /// a countdown the board has no ring for), so the caller can log them.
    mutating func restore(_ state: BoardState) throws(BoardStateError) -> [String] {
        guard BoardState.readableFormats.contains(state.format) else {
            let formats = BoardState.readableFormats
            throw BoardStateError(
                key: "format", message: "is \(state.format); this build reads \(formats.lowerBound) to \(formats.upperBound)")
        }
        guard state.deleted != true else {
            throw BoardStateError(key: "deleted", message: "the board was deleted; there is no state to restore")
        }
        guard (0...BoardState.maximumRevision).contains(state.revision) else {
            throw BoardStateError(
                key: "revision", message: "must be from 0 to \(BoardState.maximumRevision), got \(state.revision)")
        }
        if let stored = state.spec {
            try BoardSpec.check(stored, key: "spec")
        }
        var restored = Board(spec: state.spec ?? spec)
        restored.isShapedByAPI = state.spec != nil
        var skipped: [String] = []
        for (id, ring) in state.rings.sorted(by: { $0.key < $1.key }) {
            let key = "rings.\(id)"
            guard let spec = restored.ring(id), spec.kind.takesPushes || Self.takesColoring(spec.kind) else {
                skipped.append(id)
                continue
            }
            var state = RingState()
            try Self.restoreColoring(of: ring, into: &state, kind: spec.kind, key: key)
            guard spec.kind.takesPushes else {
                // A derived or countdown ring keeps only how it is coloured; the server computes its value.
                if ring.progress != nil || ring.labelColor != nil || ring.wave != nil { skipped.append(id) }
                if !state.isEmpty { restored.rings[id] = state }
                continue
            }
            if let value = ring.progress {
                state.progress = try AnimatedValue(state: value, key: key + ".progress", targets: Self.targets(of: spec.kind))
            }
            if let colors = ring.colors, spec.kind.tag == .gradient {
                // A gradient widget has the number of colours it was made with (a ring's two are read with its
                // colouring).
                let count = spec.colors.count
                guard colors.count == count else {
                    throw BoardStateError(key: key + ".colors", message: "needs \(count) colours, got \(colors.count)")
                }
                state.gradient = try colors.enumerated().map { index, color throws(BoardStateError) in
                    try AnimatedColor(state: color, key: key + ".colors.\(index)")
                }
            }
            if let wave = ring.wave {
                guard case .text = spec.kind else {
                    throw BoardStateError(key: key + ".wave", message: "only a text widget has a wave")
                }
                // A spring may carry a wave a little past its end; the targets are always 1.
                state.wave = try AnimatedValue(state: wave, key: key + ".wave", targets: 1...1)
            }
            if let color = ring.labelColor {
                state.labelColor = try AnimatedColor(state: color, key: key + ".labelColor")
            }
            if !state.isEmpty { restored.rings[id] = state }
        }
        restored.backdrop = Background(try Self.color(state.background.base, key: "background.base"))
        guard state.background.layers.count <= Limits.maximumSplashLayers else {
            throw BoardStateError(
                key: "background.layers",
                message: "holds \(state.background.layers.count) layers, at most \(Limits.maximumSplashLayers)")
        }
        for (index, layer) in state.background.layers.enumerated() {
            let key = "background.layers.\(index)"
            let style: SplashStyle
            if layer.style == "angle", let angle = layer.angle {
                try BoardState.check(angle, key + ".angle", Limits.angles)
                style = .angle(angle)
            } else if let named = SplashStyle.named.first(where: { $0.name == layer.style }) {
                style = named.style
            } else {
                throw BoardStateError(key: key + ".style", message: "unknown splash style \"\(layer.style)\"")
            }
            restored.backdrop.layers.append(
                Background.Layer(
                    color: try Self.color(layer.color, key: key + ".color"),
                    style: style,
                    progress: try AnimatedValue(state: layer.progress, key: key + ".progress", targets: 0...1)
                )
            )
        }
        if let countdown = state.countdown {
            // Above 0 rather than the write's millisecond: earlier builds stored shorter countdowns.
            try BoardState.checkPositive(countdown.seconds, "countdown.seconds", maximum: Limits.countdownSeconds.upperBound)
            try BoardState.checkTime(countdown.start, "countdown.start")
            if restored.hasCountdownRing {
                restored.countdown = Countdown(
                    seconds: countdown.seconds, start: countdown.start, animated: countdown.animated ?? true)
            } else {
                skipped.append("countdown")
            }
        }
        restored.revision = Int(state.revision)
        self = restored
        return skipped
    }

    /// Moves board time 0 forward by `seconds`, once nothing moves (`isAnimating` is false): rest values hold
    /// no time, so only a finished countdown's start moves. Keeps board times small, so they stay exact.
    mutating func shiftTime(by seconds: Double, settlingAt time: Double) {
        backdrop.settle(at: time)
        for id in rings.keys {
            rings[id]?.settle(at: time, valuesAt: time)
            // A trail's colours have finished too (its ring's colours rest); only its start holds a time.
            if var trail = rings[id]?.trail {
                for index in trail.colors.indices { trail.colors[index].settle(at: time) }
                trail.since -= seconds
                rings[id]?.trail = trail
            }
        }
        countdown?.start -= seconds
    }

    /// Reads a stored ring's colours, status, thresholds and trail into `state`, with the checks a push passes:
    /// two colours, a known status, valid thresholds, only on a kind that takes them.
    private static func restoreColoring(
        of ring: BoardState.Ring, into state: inout RingState, kind: RingKind, key: String
    ) throws(BoardStateError) {
        if let colors = ring.colors, kind.tag != .gradient {
            guard colors.count == 2 else {
                throw BoardStateError(key: key + ".colors", message: "needs 2 colours, got \(colors.count)")
            }
            state.gradient = try colors.enumerated().map { index, color throws(BoardStateError) in
                try AnimatedColor(state: color, key: key + ".colors.\(index)")
            }
        }
        guard ring.status != nil || ring.thresholds != nil || ring.trail != nil else { return }
        guard takesColoring(kind) else {
            throw BoardStateError(key: key, message: "a \(kind.name) widget takes no status or thresholds")
        }
        if let name = ring.status {
            guard let status = RingStatus(rawValue: name) else {
                throw BoardStateError(key: key + ".status", message: "must be one of \(RingStatus.listed), got \"\(name)\"")
            }
            guard state.gradient != nil else {
                throw BoardStateError(key: key + ".status", message: "a status comes with the colours it set")
            }
            state.status = status
        }
        if let thresholds = ring.thresholds {
            if let problem = thresholds.problem {
                throw BoardStateError(
                    key: key + ".thresholds" + (problem.key.map { ".\($0)" } ?? ""), message: problem.message)
            }
            guard state.gradient == nil else {
                throw BoardStateError(key: key + ".thresholds", message: "a ring is coloured by colours or thresholds, not both")
            }
            state.thresholds = thresholds
        }
        if let trail = ring.trail {
            try BoardState.checkTime(trail.since, key + ".trail.since")
            guard trail.colors.count == 2 else {
                throw BoardStateError(key: key + ".trail.colors", message: "needs 2 colours, got \(trail.colors.count)")
            }
            let colors = try trail.colors.enumerated().map { index, color throws(BoardStateError) in
                try AnimatedColor(state: color, key: key + ".trail.colors.\(index)")
            }
            state.trail = ThresholdTrail(since: trail.since, colors: colors)
        }
    }

    private static func color(_ components: [Double], key: String) throws(BoardStateError) -> RGBAColor {
        guard components.count == 4 else {
            throw BoardStateError(key: key, message: "needs 4 components (red, green, blue, alpha), got \(components.count)")
        }
        for (index, component) in components.enumerated() {
            try BoardState.check(component, "\(key).\(index)", 0...1)
        }
        return RGBAColor(red: components[0], green: components[1], blue: components[2], alpha: components[3])
    }
}

extension RGBAColor {
    /// Red, green, blue, alpha.
    var components: [Double] { [red, green, blue, alpha] }
}
