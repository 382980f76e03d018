/// A board's background: a base colour and the splash layers growing over it, bottom first (seed 002's
/// `SplashView`). Time is monotonic seconds fed in by the caller.
///
/// A colour change adds a layer growing from progress 0 to 1. Once a layer has finished it covers the whole
/// board, so it becomes the base and it and every layer under it are dropped (the seed's
/// `prevColor = layers[0]; layers.remove(at: 0)`, which with equal durations is the same). The presentation at
/// any instant follows from the state alone, so frames need no `settle` to be right.
struct Background: Sendable, Equatable {
    struct Layer: Sendable, Equatable {
        let color: RGBAColor
        let style: SplashStyle
        var progress: AnimatedValue
    }

    /// The background as one frame shows it.
    struct Presentation {
        var color: RGBAColor
        var layers: [(style: SplashStyle, color: RGBAColor, progress: Double)]
    }

    var base: RGBAColor
    /// Bottom first.
    var layers: [Layer] = []

    /// A background of one colour, at rest.
    init(_ color: RGBAColor) {
        base = color
    }

    /// The colour the background ends on: the newest layer's, else the base.
    var target: RGBAColor { layers.last?.color ?? base }

    /// Starts `color` growing over the current picture in `style` with `animation` (for its progress 0 → 1) at
    /// `time`. `.none` replaces everything at once. Asking again for the colour it already ends on changes
    /// nothing. Beyond `Limits.maximumSplashLayers` the oldest layer becomes the base at once.
    mutating func change(to color: RGBAColor, style: SplashStyle, animation: Animation, at time: Double) {
        settle(at: time)
        if case .none = animation {
            base = color
            layers.removeAll()
            return
        }
        guard color != target else { return }
        var progress = AnimatedValue(0)
        progress.animate(to: 1, with: animation, at: time)
        layers.append(Layer(color: color, style: style, progress: progress))
        if layers.count > Limits.maximumSplashLayers {
            base = layers.removeFirst().color
        }
    }

    /// The base and the layers still growing at `time`.
    func presentation(at time: Double) -> Presentation {
        let finished = lastFinished(at: time)
        let running = layers[(finished.map { $0 + 1 } ?? 0)...]
        return Presentation(
            color: finished.map { layers[$0].color } ?? base,
            layers: running.map { ($0.style, $0.color, $0.progress.value(at: time)) }
        )
    }

    /// Whether a layer still grows at `time`. Every layer above the last finished one is still growing, so this
    /// is whether the top one is.
    func isAnimating(at time: Double) -> Bool {
        layers.last?.progress.isAnimating(at: time) ?? false
    }

    /// Folds the layers that have finished by `time` into the base; the presentation is unchanged.
    mutating func settle(at time: Double) {
        guard let finished = lastFinished(at: time) else { return }
        base = layers[finished].color
        layers.removeFirst(finished + 1)
    }

    private func lastFinished(at time: Double) -> Int? {
        layers.lastIndex { !$0.progress.isAnimating(at: time) }
    }
}
