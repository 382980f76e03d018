/// A cubic Bézier timing curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2), as CSS
/// `cubic-bezier()` and SwiftUI's `timingCurve` define it.
///
/// `progress(at:)` solves x(t) = fraction for the curve parameter t and returns y(t), the way WebKit's
/// `UnitBezier` and Chromium's `gfx::CubicBezier` do: a few Newton steps from t = x, and bisection when
/// the derivative is too flat for Newton. The tolerance is tighter than theirs (1e-12 instead of 1e-7) so that
/// frames computed on the server are smooth at any duration.
public struct TimingCurve: Sendable, Hashable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double

    /// x(t) = ((ax·t + bx)·t + cx)·t and y(t) likewise, the Bernstein form expanded (Chromium `InitCoefficients`).
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    /// x1 and x2 are clamped to 0...1 (CSS rejects others) so that x(t) stays monotonic and solvable;
    /// y1 and y2 are free, which allows curves that overshoot.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = min(max(x1, 0), 1)
        self.y1 = y1
        self.x2 = min(max(x2, 0), 1)
        self.y2 = y2
        // B(t) = 3(1−t)²t·P1 + 3(1−t)t²·P2 + t³ with P0 = (0,0), P3 = (1,1) (Chromium cubic_bezier.cc).
        cx = 3 * self.x1
        bx = 3 * (self.x2 - self.x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    /// CSS `linear`, cubic-bezier(0, 0, 1, 1).
    public static let linear = TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1)
    /// CSS `ease-in` and SwiftUI `.easeIn`, cubic-bezier(0.42, 0, 1, 1).
    public static let easeIn = TimingCurve(x1: 0.42, y1: 0, x2: 1, y2: 1)
    /// CSS `ease-out` and SwiftUI `.easeOut`, cubic-bezier(0, 0, 0.58, 1).
    public static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)
    /// CSS `ease-in-out` and SwiftUI `.easeInOut`, cubic-bezier(0.42, 0, 0.58, 1).
    public static let easeInOut = TimingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)

    private static let byName: [(name: String, curve: TimingCurve)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInOut", .easeInOut),
    ]

    /// The names the API accepts: `linear`, `easeIn`, `easeOut`, `easeInOut`.
    public static var names: [String] { byName.map(\.name) }

    /// One of the four named curves; nil for any other name.
    public init?(name: String) {
        guard let entry = Self.byName.first(where: { $0.name == name }) else { return nil }
        self = entry.curve
    }

    /// The API name when this is one of the four named curves.
    public var name: String? {
        Self.byName.first(where: { $0.curve == self })?.name
    }

    /// The eased progress y at time fraction x. The fraction is clamped to 0...1 (NaN counts as 0), and the
    /// result is exactly 0 at 0 and exactly 1 at 1, so an animation ends precisely on its target.
    public func progress(at fraction: Double) -> Double {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return 1 }
        // The control points lie on the diagonal: y = x exactly, no solving (and no rounding) needed.
        if x1 == y1 && x2 == y2 { return fraction }
        return sampleY(solveT(forX: fraction))
    }

    /// The eased progress's rate of change dy/dx at time fraction x, for the velocity a spring takes over from a
    /// running curve: (dy/dt)/(dx/dt) at the parameter t with x(t) = x. Where dx/dt vanishes (only at an end of
    /// a curve with x1 = 0 or x2 = 1) it is the limit y″(t)/x″(t) (l'Hôpital). 0 outside 0..<1: the curve has
    /// not started or has finished; at 0 it is the slope just after the start.
    public func slope(at fraction: Double) -> Double {
        guard fraction >= 0, fraction < 1 else { return 0 }
        if x1 == y1 && x2 == y2 { return 1 }
        let t = fraction == 0 ? 0 : solveT(forX: fraction)
        let dx = sampleDerivativeX(t)
        if abs(dx) > 1e-9 { return sampleDerivativeY(t) / dx }
        // x″ = 6ax·t + 2bx and y″ likewise.
        let ddx = 6 * ax * t + 2 * bx
        return ddx == 0 ? 0 : (6 * ay * t + 2 * by) / ddx
    }

    private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    /// dx/dt = 3ax·t² + 2bx·t + cx (Chromium `SampleCurveDerivativeX`).
    private func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
    private func sampleDerivativeY(_ t: Double) -> Double { (3 * ay * t + 2 * by) * t + cy }

    private static let epsilon = 1e-12

    /// The t in 0...1 with x(t) = x (Chromium `SolveCurveX`: Newton first, then bisection).
    private func solveT(forX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < Self.epsilon { return t }
            let slope = sampleDerivativeX(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
            // Newton may step off the curve where x(t) need not be monotonic; bisection takes over.
            if !(0...1).contains(t) { break }
        }
        // Bisection always converges because x(t) is monotonic on 0...1; 64 halvings exhaust a Double.
        var low = 0.0
        var high = 1.0
        t = x
        for _ in 0..<64 where low < high {
            let sample = sampleX(t)
            if abs(sample - x) < Self.epsilon { return t }
            if x > sample { low = t } else { high = t }
            t = (high - low) * 0.5 + low
        }
        return t
    }
}
