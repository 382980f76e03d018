import Foundation

/// The region a splash layer fills, in the board's logical coordinates (y down), ported from seed 002's
/// `SplashShape.path(in:)` with the board as the rect.
///
/// Encodes as `{"polygon":[[x,y],…]}` (fill the closed path through the points) or
/// `{"circle":{"cx":…,"cy":…,"r":…}}`.
public enum SplashShape: Sendable, Equatable {
    /// A point of a polygon; encodes as `[x, y]`.
    public struct Point: Sendable, Equatable, Encodable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }

        public func encode(to encoder: any Encoder) throws {
            var pair = encoder.unkeyedContainer()
            try pair.encode(x)
            try pair.encode(y)
        }
    }

    case polygon([Point])
    case circle(cx: Double, cy: Double, r: Double)

    /// The seed's path for `style` at `progress` p (0 → nothing, 1 → the whole board) on a board of `width` w
    /// and `height` h. p may pass 1 when a spring overshoots; the shape then reaches past the board.
    public init(style: SplashStyle, progress p: Double, width w: Double, height h: Double) {
        switch style {
        case .leftToRight: self = Self.leftToRight(p, w, h)
        case .rightToLeft: self = Self.rightToLeft(p, w, h)
        case .topToBottom: self = Self.topToBottom(p, w, h)
        case .bottomToTop: self = Self.bottomToTop(p, w, h)
        case .circle: self = Self.circle(p, w, h)
        case .angle(let degrees): self = Self.angle(Self.normalized(degrees), p, w, h)
        }
    }

    /// Degrees in 0..<360, so that −90 and 270 (or 405 and 45) draw the same; the seed's quadrant tests assume it.
    static func normalized(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        let angle = degrees.truncatingRemainder(dividingBy: 360)
        let positive = angle < 0 ? angle + 360 : angle
        return positive < 360 ? positive : 0
    }

    private static func polygon(_ points: (Double, Double)...) -> SplashShape {
        .polygon(points.map { Point(x: $0.0, y: $0.1) })
    }

    /// Seed 002 `leftToRight(rect:)`: (0,0), (w·p,0), (w·p,h), (0,h).
    private static func leftToRight(_ p: Double, _ w: Double, _ h: Double) -> SplashShape {
        polygon((0, 0), (w * p, 0), (w * p, h), (0, h))
    }

    /// Seed 002 `rightToLeft(rect:)`: (w,0), (w − w·p,0), (w − w·p,h), (w,h).
    private static func rightToLeft(_ p: Double, _ w: Double, _ h: Double) -> SplashShape {
        polygon((w, 0), (w - w * p, 0), (w - w * p, h), (w, h))
    }

    /// Seed 002 `topToBottom(rect:)`: (0,0), (w,0), (w,h·p), (0,h·p).
    private static func topToBottom(_ p: Double, _ w: Double, _ h: Double) -> SplashShape {
        polygon((0, 0), (w, 0), (w, h * p), (0, h * p))
    }

    /// Seed 002 `bottomToTop(rect:)`: (0,h), (w,h), (w,h − h·p), (0,h − h·p).
    private static func bottomToTop(_ p: Double, _ w: Double, _ h: Double) -> SplashShape {
        polygon((0, h), (w, h), (w, h - h * p), (0, h - h * p))
    }

    /// Seed 002 `circle(rect:)`: centred, radius c·p with c = √((h/2)² + (w/2)²), half the diagonal.
    private static func circle(_ p: Double, _ w: Double, _ h: Double) -> SplashShape {
        let a = h / 2
        let b = w / 2
        return .circle(cx: w / 2, cy: h / 2, r: (a * a + b * b).squareRoot() * p)
    }

    /// Seed 002 `angle(rect:angle:)` for an angle in 0..<360: a right triangle from a corner, legs along two
    /// edges, whose hypotenuse reaches the opposite corner at p = 1.
    private static func angle(_ degrees: Double, _ p: Double, _ w: Double, _ h: Double) -> SplashShape {
        let cAngle = degrees.truncatingRemainder(dividingBy: 90)
        // Multiples of 90° are the rectangles, as the seed's comment says. (Its code tests `cAngle == 0` in the
        // first branch, so 90, 180 and 270 never reach theirs and all sweep left to right; see docs/ANIMATION.md.)
        if cAngle == 0 {
            switch degrees {
            case 90: return topToBottom(p, w, h)
            case 180: return rightToLeft(p, w, h)
            case 270: return bottomToTop(p, w, h)
            default: return leftToRight(p, w, h)
            }
        }
        // Seed: m = tan(cAngle), m_1 = −1/m, b = h − m_1·w (the y-intercept of y = m_1·x + b through (w, h)).
        let m = tan(cAngle * Double.pi / 180)
        let inverseSlope = -1 / m
        let b = h - inverseSlope * w
        // Seed: x = b·m·progress, y = b·progress: the legs along the top and the left edge.
        var x = b * m * p
        var y = b * p
        // Seed: the corner the triangle grows from, and which way its legs point, by quadrant.
        let xOffset = degrees > 90 && degrees < 270 ? w : 0
        let yOffset = degrees > 180 && degrees < 360 ? h : 0
        if degrees > 90 && degrees < 180 {
            x *= -1
        } else if degrees > 180 && degrees < 270 {
            x *= -1
            y *= -1
        } else if degrees > 270 && degrees < 360 {
            y *= -1
        }
        return polygon((xOffset, yOffset), (xOffset + x, yOffset), (xOffset, yOffset + y))
    }
}

extension SplashShape: Encodable {
    private enum CodingKeys: String, CodingKey {
        case polygon, circle
    }

    private enum CircleKeys: String, CodingKey {
        case cx, cy, r
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .polygon(let points):
            try container.encode(points, forKey: .polygon)
        case .circle(let cx, let cy, let r):
            var circle = container.nestedContainer(keyedBy: CircleKeys.self, forKey: .circle)
            try circle.encode(cx, forKey: .cx)
            try circle.encode(cy, forKey: .cy)
            try circle.encode(r, forKey: .r)
        }
    }
}
