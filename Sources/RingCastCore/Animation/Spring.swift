/// A spring as SwiftUI describes one: how long a cycle takes (`response`) and how quickly it dies down
/// (`dampingFraction`, ζ). It moves a unit mass attached to its target by a spring of `stiffness` k with a
/// damper of coefficient `damping` c, so the displacement x from the target follows x″ + c·x′ + k·x = 0
/// (see `Spring+Oscillator.swift`). Values may overshoot the target when ζ < 1.
///
/// The struct holds any numbers; the API's ranges are checked where requests are decoded and in `Limits`.
public struct Spring: Sendable, Hashable {
    /// Seconds per cycle of the undamped spring: ω₀ = 2π / response.
    public let response: Double
    /// ζ: below 1 the spring bounces, 1 is critically damped, above 1 overdamped.
    public let dampingFraction: Double

    /// SwiftUI's `.spring(response:dampingFraction:)`; the defaults are those of `.spring()`.
    public init(response: Double = 0.5, dampingFraction: Double = 0.825) {
        self.response = response
        self.dampingFraction = dampingFraction
    }

    /// The iOS 17 form, `Spring(duration:bounce:)`: response = duration, and bounce b gives ζ = 1 − b for
    /// b ≥ 0 and ζ = 1 / (1 + b) for b < 0 (Apple, WWDC23 "Animate with springs").
    public init(duration: Double, bounce: Double = 0) {
        self.init(response: duration, dampingFraction: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce))
    }

    /// A unit mass on a spring of `stiffness` k with a damper `damping` c: response = 2π/√k and
    /// ζ = c / (2√k), the inverse of `stiffness` and `damping` below.
    public init(stiffness: Double, damping: Double) {
        let root = stiffness.squareRoot()
        self.init(response: 2 * Double.pi / root, dampingFraction: damping / (2 * root))
    }

    /// `.smooth`: duration 0.5, bounce 0 (critically damped, no overshoot).
    public static let smooth = Spring(duration: 0.5, bounce: 0)
    /// `.snappy`: duration 0.5, bounce 0.15.
    public static let snappy = Spring(duration: 0.5, bounce: 0.15)
    /// `.bouncy`: duration 0.5, bounce 0.3.
    public static let bouncy = Spring(duration: 0.5, bounce: 0.3)

    /// The presets by their API names.
    static let presets: [(name: String, spring: Spring)] = [("smooth", .smooth), ("snappy", .snappy), ("bouncy", .bouncy)]

    /// The iOS 17 duration: the response.
    public var duration: Double { response }

    /// The iOS 17 bounce: 1 − ζ for ζ ≤ 1, 1/ζ − 1 for ζ > 1 (the inverse of `init(duration:bounce:)`).
    public var bounce: Double { dampingFraction <= 1 ? 1 - dampingFraction : 1 / dampingFraction - 1 }

    /// ω₀ = 2π / response, the undamped angular frequency in radians per second.
    public var angularFrequency: Double { 2 * Double.pi / response }

    /// k = ω₀² = (2π / response)² for a unit mass (SwiftUI's `Spring.stiffness`).
    public var stiffness: Double { angularFrequency * angularFrequency }

    /// c = 2ζω₀ = 4πζ / response for a unit mass (SwiftUI's `Spring.damping`).
    public var damping: Double { 4 * Double.pi * dampingFraction / response }
}
