import Foundation

/// The region a splash layer fills, in the board's logical coordinates (y down), ported from seed 002's
/// `SplashShape.path(in:)` with the board's **reach** as the rect: the board extended by its larger side
/// on every side (see `Reach`), so that the letterbox around the board in a window of another aspect
/// ratio is swept in step with the board instead of snapping to the new colour at the end.
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

    /// The rectangle a splash sweeps, in board coordinates: the board `w` × `h` extended by
    /// `L = max(w, h)` on every side, from (−L, −L) to (w + L, h + L). A page that fits the board into a
    /// window shows letterbox bands beside (or above and below) it; they lie inside the reach as long as
    /// the window's aspect ratio is between `w / (h + 2L)` and `(w + 2L) / h`, at least three times the
    /// board's own either way (for 1280 × 720: from 9:23 to 16:3).
    public struct Reach: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

        public init(boardWidth w: Double, boardHeight h: Double) {
            let extent = max(w, h)
            x = -extent
            y = -extent
            width = w + 2 * extent
            height = h + 2 * extent
        }
    }

    case polygon([Point])
    case circle(cx: Double, cy: Double, r: Double)

    /// The seed's path for `style` at `progress` p (0 → nothing, 1 → the whole reach) on a board of `width`
    /// and `height`, swept across the board's `Reach`. p may pass 1 when a spring overshoots; the shape then
    /// reaches past the reach.
    public init(style: SplashStyle, progress p: Double, width: Double, height: Double) {
        let reach = Reach(boardWidth: width, boardHeight: height)
        switch style {
        case .leftToRight: self = Self.leftToRight(p, reach)
        case .rightToLeft: self = Self.rightToLeft(p, reach)
        case .topToBottom: self = Self.topToBottom(p, reach)
        case .bottomToTop: self = Self.bottomToTop(p, reach)
        case .circle: self = Self.circle(p, reach)
        case .angle(let degrees): self = Self.angle(Self.normalized(degrees), p, reach)
        }
    }

    /// Degrees in 0..<360, so that −90 and 270 (or 405 and 45) draw the same; the seed's quadrant tests assume it.
    static func normalized(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        let angle = degrees.truncatingRemainder(dividingBy: 360)
        let positive = angle < 0 ? angle + 360 : angle
        return positive < 360 ? positive : 0
    }

    /// A polygon through the seed's points, each moved by the reach's origin (the seed's rect is at (0, 0)).
    private static func polygon(_ rect: Reach, _ points: (Double, Double)...) -> SplashShape {
        .polygon(points.map { Point(x: rect.x + $0.0, y: rect.y + $0.1) })
    }

    /// Seed 002 `leftToRight(rect:)`: (0,0), (w·p,0), (w·p,h), (0,h).
    private static func leftToRight(_ p: Double, _ r: Reach) -> SplashShape {
        polygon(r, (0, 0), (r.width * p, 0), (r.width * p, r.height), (0, r.height))
    }

    /// Seed 002 `rightToLeft(rect:)`: (w,0), (w − w·p,0), (w − w·p,h), (w,h).
    private static func rightToLeft(_ p: Double, _ r: Reach) -> SplashShape {
        polygon(r, (r.width, 0), (r.width - r.width * p, 0), (r.width - r.width * p, r.height), (r.width, r.height))
    }

    /// Seed 002 `topToBottom(rect:)`: (0,0), (w,0), (w,h·p), (0,h·p).
    private static func topToBottom(_ p: Double, _ r: Reach) -> SplashShape {
        polygon(r, (0, 0), (r.width, 0), (r.width, r.height * p), (0, r.height * p))
    }

    /// Seed 002 `bottomToTop(rect:)`: (0,h), (w,h), (w,h − h·p), (0,h − h·p).
    private static func bottomToTop(_ p: Double, _ r: Reach) -> SplashShape {
        polygon(r, (0, r.height), (r.width, r.height), (r.width, r.height - r.height * p), (0, r.height - r.height * p))
    }

    /// Seed 002 `circle(rect:)`: centred, radius c·p with c = √((h/2)² + (w/2)²), half the diagonal.
    private static func circle(_ p: Double, _ r: Reach) -> SplashShape {
        let a = r.height / 2
        let b = r.width / 2
        return .circle(cx: r.x + b, cy: r.y + a, r: (a * a + b * b).squareRoot() * p)
    }

    /// Seed 002 `angle(rect:angle:)` for an angle in 0..<360: a right triangle from a corner, legs along two
    /// edges, whose hypotenuse reaches the opposite corner at p = 1.
    private static func angle(_ degrees: Double, _ p: Double, _ r: Reach) -> SplashShape {
        let (w, h) = (r.width, r.height)
        let cAngle = degrees.truncatingRemainder(dividingBy: 90)
        // Multiples of 90° are the rectangles, as the seed's comment says. (Its code tests `cAngle == 0` in the
        // first branch, so 90, 180 and 270 never reach theirs and all sweep left to right; see docs/ANIMATION.md.)
        if cAngle == 0 {
            switch degrees {
            case 90: return topToBottom(p, r)
            case 180: return rightToLeft(p, r)
            case 270: return bottomToTop(p, r)
            default: return leftToRight(p, r)
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
        return polygon(r, (xOffset, yOffset), (xOffset + x, yOffset), (xOffset, yOffset + y))
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
