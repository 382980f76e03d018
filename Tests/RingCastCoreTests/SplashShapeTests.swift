import Foundation
import RingCastCore
import Testing

/// Seed 002's paths on a 200 × 100 board, by hand. The seed's rect is the board's reach: the board extended
/// by its larger side, L = 200, on every side, so x0 = y0 = −200, W = 600, H = 500 (docs/ANIMATION.md).
@Suite struct SplashShapeTests {
    static let width = 200.0
    static let height = 100.0
    static let reach = SplashShape.Reach(boardWidth: width, boardHeight: height)

    static func points(_ shape: SplashShape) -> [[Double]]? {
        guard case .polygon(let points) = shape else { return nil }
        return points.map { [$0.x, $0.y] }
    }

    static func expectPolygon(_ shape: SplashShape, _ expected: [[Double]], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let actual = points(shape) else {
            Issue.record("expected a polygon, got \(shape)", sourceLocation: sourceLocation)
            return
        }
        #expect(actual.count == expected.count, sourceLocation: sourceLocation)
        for (point, want) in zip(actual, expected) {
            #expect(
                abs(point[0] - want[0]) < 1e-9 && abs(point[1] - want[1]) < 1e-9, "\(point) ≠ \(want)",
                sourceLocation: sourceLocation)
        }
    }

    /// Whether the filled shape holds (x, y), boundary included. Every polygon here is convex (a rectangle
    /// or a triangle), so inside means on the same side of every edge.
    static func covers(_ shape: SplashShape, _ x: Double, _ y: Double) -> Bool {
        switch shape {
        case .circle(let cx, let cy, let r):
            return ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() <= r + 1e-9
        case .polygon(let points):
            let sides = points.indices.map { i in
                let a = points[i]
                let b = points[(i + 1) % points.count]
                return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
            }
            return sides.allSatisfy { $0 >= -1e-6 } || sides.allSatisfy { $0 <= 1e-6 }
        }
    }

    /// The filled area: the shoelace formula for a polygon, πr² for a circle.
    static func area(_ shape: SplashShape) -> Double {
        switch shape {
        case .circle(_, _, let r):
            return Double.pi * r * r
        case .polygon(let points):
            let doubled = points.indices.reduce(0.0) { sum, i in
                let a = points[i]
                let b = points[(i + 1) % points.count]
                return sum + a.x * b.y - b.x * a.y
            }
            return abs(doubled) / 2
        }
    }

    /// A grid over the reach, its edges and corners included, 13 × 11 points.
    static let reachGrid: [(Double, Double)] = (0...12).flatMap { (i: Int) -> [(Double, Double)] in
        (0...10).map { (j: Int) -> (Double, Double) in
            let x: Double = reach.x + reach.width * Double(i) / 12
            let y: Double = reach.y + reach.height * Double(j) / 10
            return (x, y)
        }
    }

    static let straightStyles: [SplashStyle] = [.leftToRight, .rightToLeft, .topToBottom, .bottomToTop, .circle]
    static let angles: [SplashStyle] = stride(from: 0.0, to: 360, by: 15).map { SplashStyle.angle($0) }
    static let everyStyle: [SplashStyle] = straightStyles + angles

    @Test(arguments: [
        (200.0, 100.0, -200.0, -200.0, 600.0, 500.0),
        (100, 300, -300, -300, 700, 900),
        (1280, 720, -1280, -1280, 3840, 3280),
    ])
    func reach_isTheBoardExtendedByItsLargerSideOnEverySide(
        w: Double, h: Double, x: Double, y: Double, width: Double, height: Double
    ) {
        let reach = SplashShape.Reach(boardWidth: w, boardHeight: h)
        #expect(reach.x == x && reach.y == y && reach.width == width && reach.height == height)
    }

    @Test(arguments: everyStyle)
    func atOne_theShapeCoversTheWholeReach(style: SplashStyle) {
        let shape = SplashShape(style: style, progress: 1, width: Self.width, height: Self.height)
        for (x, y) in Self.reachGrid {
            #expect(Self.covers(shape, x, y), "\(style) at 1 leaves (\(x), \(y)) uncovered")
        }
    }

    @Test(arguments: everyStyle)
    func atZero_theShapeCoversNothing(style: SplashStyle) {
        #expect(Self.area(SplashShape(style: style, progress: 0, width: Self.width, height: Self.height)) == 0)
    }

    /// The straight sweeps' edge moves linearly with p across the reach: at 0.5 it is at the reach's middle,
    /// which is the board's middle (the reach is the board grown equally on both sides).
    @Test(arguments: [
        (SplashStyle.leftToRight, 0.5, 100.0), (.rightToLeft, 0.5, 100.0), (.topToBottom, 0.5, 50.0),
        (.bottomToTop, 0.5, 50.0),
        // At 0.25: x0 + W·p = −200 + 150, x0 + W − W·p = 400 − 150, y0 + H·p = −200 + 125, y0 + H − H·p = 300 − 125.
        (.leftToRight, 0.25, -50.0), (.rightToLeft, 0.25, 250.0), (.topToBottom, 0.25, -75.0), (.bottomToTop, 0.25, 175.0),
    ])
    func sweepEdge_movesAcrossTheReach(style: SplashStyle, progress: Double, edge: Double) throws {
        let points = try #require(Self.points(SplashShape(style: style, progress: progress, width: 200, height: 100)))
        // The moving edge's ends: the seed's second and third points left or right, third and fourth up or down.
        let horizontal = style == .leftToRight || style == .rightToLeft
        let moving = horizontal ? [points[1][0], points[2][0]] : [points[2][1], points[3][1]]
        #expect(moving.allSatisfy { abs($0 - edge) < 1e-9 }, "\(style) at \(progress): \(points)")
    }

    /// The board's own part of a left-to-right sweep: its left edge is reached at p = L / W and its right
    /// edge at (L + w) / W — for the default 1280 × 720 board the middle third, 1/3 to 2/3.
    @Test func defaultBoard_isSweptDuringTheMiddleThird() throws {
        for (p, x) in [(1.0 / 3, 0.0), (2.0 / 3, 1280.0)] {
            let points = try #require(Self.points(SplashShape(style: .leftToRight, progress: p, width: 1280, height: 720)))
            #expect(abs(points[1][0] - x) < 1e-9 && abs(points[2][0] - x) < 1e-9)
        }
    }

    @Test(arguments: [
        // style, p, points: the seed's move(to:) and addLine(to:) in order, on the 600 × 500 reach at (−200, −200).
        (SplashStyle.leftToRight, 0.0, [[-200.0, -200.0], [-200, -200], [-200, 300], [-200, 300]]),
        (.leftToRight, 0.5, [[-200, -200], [100, -200], [100, 300], [-200, 300]]),
        (.leftToRight, 1, [[-200, -200], [400, -200], [400, 300], [-200, 300]]),
        (.rightToLeft, 0, [[400, -200], [400, -200], [400, 300], [400, 300]]),
        (.rightToLeft, 0.5, [[400, -200], [100, -200], [100, 300], [400, 300]]),
        (.rightToLeft, 1, [[400, -200], [-200, -200], [-200, 300], [400, 300]]),
        (.topToBottom, 0, [[-200, -200], [400, -200], [400, -200], [-200, -200]]),
        (.topToBottom, 0.5, [[-200, -200], [400, -200], [400, 50], [-200, 50]]),
        (.topToBottom, 1, [[-200, -200], [400, -200], [400, 300], [-200, 300]]),
        (.bottomToTop, 0, [[-200, 300], [400, 300], [400, 300], [-200, 300]]),
        (.bottomToTop, 0.5, [[-200, 300], [400, 300], [400, 50], [-200, 50]]),
        (.bottomToTop, 1, [[-200, 300], [400, 300], [400, -200], [-200, -200]]),
        // 45°: m = 1, b = H − (−1/m)·W = 1100, legs x = b·m·p = 1100p along the top, y = b·p = 1100p down the left.
        (.angle(45), 0, [[-200, -200], [-200, -200], [-200, -200]]),
        (.angle(45), 0.5, [[-200, -200], [350, -200], [-200, 350]]),
        (.angle(45), 1, [[-200, -200], [900, -200], [-200, 900]]),
        // 135°: cAngle 45, from the reach's top-right corner (xOffset = W), x flipped.
        (.angle(135), 0, [[400, -200], [400, -200], [400, -200]]),
        (.angle(135), 0.5, [[400, -200], [-150, -200], [400, 350]]),
        (.angle(135), 1, [[400, -200], [-700, -200], [400, 900]]),
        // 225°: from the bottom-right corner (x0 + W, y0 + H), both flipped.
        (.angle(225), 0, [[400, 300], [400, 300], [400, 300]]),
        (.angle(225), 0.5, [[400, 300], [-150, 300], [400, -250]]),
        (.angle(225), 1, [[400, 300], [-700, 300], [400, -800]]),
        // 315°: from the bottom-left corner (x0, y0 + H), y flipped.
        (.angle(315), 0, [[-200, 300], [-200, 300], [-200, 300]]),
        (.angle(315), 0.5, [[-200, 300], [350, 300], [-200, -250]]),
        (.angle(315), 1, [[-200, 300], [900, 300], [-200, -800]]),
        // Multiples of 90° are the rectangles: 0 → leftToRight, 90 → topToBottom, 180 → rightToLeft, 270 → bottomToTop.
        (.angle(0), 0.5, [[-200, -200], [100, -200], [100, 300], [-200, 300]]),
        (.angle(90), 0, [[-200, -200], [400, -200], [400, -200], [-200, -200]]),
        (.angle(90), 0.5, [[-200, -200], [400, -200], [400, 50], [-200, 50]]),
        (.angle(90), 1, [[-200, -200], [400, -200], [400, 300], [-200, 300]]),
        (.angle(180), 0.5, [[400, -200], [100, -200], [100, 300], [400, 300]]),
        (.angle(270), 0.5, [[-200, 300], [400, 300], [400, 50], [-200, 50]]),
        // Angles are taken modulo 360: −90 is 270, 405 is 45, 360 is 0.
        (.angle(-90), 0.5, [[-200, 300], [400, 300], [400, 50], [-200, 50]]),
        (.angle(405), 0.5, [[-200, -200], [350, -200], [-200, 350]]),
        (.angle(360), 0.5, [[-200, -200], [100, -200], [100, 300], [-200, 300]]),
    ])
    func polygon_portsTheSeedsPathOnTheReach(style: SplashStyle, progress: Double, expected: [[Double]]) {
        Self.expectPolygon(SplashShape(style: style, progress: progress, width: Self.width, height: Self.height), expected)
    }

    /// 30°: m = tan 30° = 1/√3, b = H − (−1/m)·W = H + W·√3; legs x = b·m·p = (H/√3 + W)·p along the reach's
    /// top, y = b·p = (H + W·√3)·p down its left.
    @Test func angle30_legsFollowTheTangent() {
        let x: Double = 500 / 3.0.squareRoot() + 600
        let y: Double = 500 + 600 * 3.0.squareRoot()
        Self.expectPolygon(
            SplashShape(style: .angle(30), progress: 0.5, width: Self.width, height: Self.height),
            [[-200, -200], [-200 + x * 0.5, -200], [-200, -200 + y * 0.5]]
        )
    }

    @Test(arguments: [(0.0, 0.0), (0.5, 195.25624189766637), (1.0, 390.51248379533274)])
    func circle_growsFromTheBoardsCentre_toHalfTheReachsDiagonal(progress: Double, radius: Double) {
        // The reach's centre is the board's, (100, 50); c = √((H/2)² + (W/2)²) = √(250² + 300²) = 390.51…; r = c·p.
        guard case .circle(let cx, let cy, let r) = SplashShape(style: .circle, progress: progress, width: 200, height: 100)
        else {
            Issue.record("expected a circle")
            return
        }
        #expect(cx == 100 && cy == 50)
        #expect(abs(r - radius) < 1e-12)
    }

    /// At p = 1 the triangle's hypotenuse passes through the reach's corner opposite the one it grows from, so
    /// the reach is covered: for legs X and Y from the corner, W/|X| + H/|Y| = 1.
    @Test(arguments: stride(from: 1.0, to: 360, by: 7).filter { $0.truncatingRemainder(dividingBy: 90) != 0 })
    func angledTriangle_coversTheReachAtOne(degrees: Double) throws {
        let points = try #require(Self.points(SplashShape(style: .angle(degrees), progress: 1, width: 200, height: 100)))
        #expect(points.count == 3)
        let corner = points[0]
        #expect([-200, 400].contains(corner[0]) && [-200, 300].contains(corner[1]))
        let legX = points[1][0] - corner[0]
        let legY = points[2][1] - corner[1]
        #expect(points[1][1] == corner[1] && points[2][0] == corner[0])
        #expect(abs(600 / abs(legX) + 500 / abs(legY) - 1) < 1e-9)
        // The legs point into the reach.
        #expect((corner[0] == -200) == (legX > 0))
        #expect((corner[1] == -200) == (legY > 0))
    }

    @Test(arguments: [
        (SplashShape.polygon([.init(x: 1, y: 2), .init(x: 3.5, y: 4)]), #"{"polygon":[[1,2],[3.5,4]]}"#),
        (.circle(cx: 640, cy: 360, r: 10), #"{"circle":{"cx":640,"cy":360,"r":10}}"#),
    ])
    func shape_encodesAsAPolygonOrCircleObject(shape: SplashShape, json: String) throws {
        let encoded = try JSONValue(decoding: Array(JSONEncoder().encode(shape)))
        #expect(encoded == (try JSONValue(decoding: Array(json.utf8))))
    }
}
