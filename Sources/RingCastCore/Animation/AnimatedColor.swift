/// A colour whose four gamma-encoded sRGB components animate together, so every frame shows the seeds'
/// `colorMixer` of the colours it moves between (DESIGN §4: colours interpolate in gamma-encoded sRGB).
public struct AnimatedColor: Sendable, Hashable {
    var red: AnimatedValue
    var green: AnimatedValue
    var blue: AnimatedValue
    var alpha: AnimatedValue

    /// A colour at rest.
    public init(_ color: RGBAColor) {
        red = AnimatedValue(color.red)
        green = AnimatedValue(color.green)
        blue = AnimatedValue(color.blue)
        alpha = AnimatedValue(color.alpha)
    }

    /// The colour the presentation ends on.
    public var target: RGBAColor {
        RGBAColor(red: red.target, green: green.target, blue: blue.target, alpha: alpha.target)
    }

    /// Starts animating toward `target`; asking again for the current target changes nothing, unless it ends a
    /// repetition (`AnimatedValue.animate(to:with:at:)`). A repeating animation repeats all four components.
    public mutating func animate(to target: RGBAColor, with animation: Animation, at time: Double) {
        guard target != self.target || animation == Animation.none || endsRepetition(with: animation, at: time)
        else { return }
        red.animate(to: target.red, with: animation, at: time, evenIfUnchanged: true)
        green.animate(to: target.green, with: animation, at: time, evenIfUnchanged: true)
        blue.animate(to: target.blue, with: animation, at: time, evenIfUnchanged: true)
        alpha.animate(to: target.alpha, with: animation, at: time, evenIfUnchanged: true)
    }

    /// Whether a push of the current colour with `animation` ends a repetition: any component's (a component
    /// that did not change has no spring passes to replay, so it may hold none).
    func endsRepetition(with animation: Animation, at time: Double) -> Bool {
        [red, green, blue, alpha].contains { $0.endsRepetition(with: animation, at: time) }
    }

    /// The presentation colour at `time`; exactly `target` once the animation has finished.
    public func value(at time: Double) -> RGBAColor {
        RGBAColor(
            red: red.value(at: time),
            green: green.value(at: time),
            blue: blue.value(at: time),
            alpha: alpha.value(at: time)
        )
    }

    public func isAnimating(at time: Double) -> Bool {
        red.isAnimating(at: time) || green.isAnimating(at: time)
            || blue.isAnimating(at: time) || alpha.isAnimating(at: time)
    }

    /// How many animations its components hold.
    public var runningAnimationCount: Int {
        red.runningAnimationCount + green.runningAnimationCount + blue.runningAnimationCount + alpha.runningAnimationCount
    }

    public mutating func settle(at time: Double) {
        red.settle(at: time)
        green.settle(at: time)
        blue.settle(at: time)
        alpha.settle(at: time)
    }
}
