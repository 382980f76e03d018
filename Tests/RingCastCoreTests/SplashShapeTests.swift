import Foundation
import RingCastCore
import Testing

/// Seed 002's paths on a 200 × 100 board, by hand.
@Suite struct SplashShapeTests {
    static let width = 200.0
    static let height = 100.0

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

    @Test(arguments: [
        // style, p, points: the seed's move(to:) and addLine(to:) in order.
        (SplashStyle.leftToRight, 0.0, [[0.0, 0.0], [0, 0], [0, 100], [0, 100]]),
        (.leftToRight, 0.5, [[0, 0], [100, 0], [100, 100], [0, 100]]),
        (.leftToRight, 1, [[0, 0], [200, 0], [200, 100], [0, 100]]),
        (.rightToLeft, 0, [[200, 0], [200, 0], [200, 100], [200, 100]]),
        (.rightToLeft, 0.5, [[200, 0], [100, 0], [100, 100], [200, 100]]),
        (.rightToLeft, 1, [[200, 0], [0, 0], [0, 100], [200, 100]]),
        (.topToBottom, 0, [[0, 0], [200, 0], [200, 0], [0, 0]]),
        (.topToBottom, 0.5, [[0, 0], [200, 0], [200, 50], [0, 50]]),
        (.topToBottom, 1, [[0, 0], [200, 0], [200, 100], [0, 100]]),
        (.bottomToTop, 0, [[0, 100], [200, 100], [200, 100], [0, 100]]),
        (.bottomToTop, 0.5, [[0, 100], [200, 100], [200, 50], [0, 50]]),
        (.bottomToTop, 1, [[0, 100], [200, 100], [200, 0], [0, 0]]),
        // 45°: m = 1, b = h − (−1/m)·w = 300, legs x = b·m·p = 300p along the top, y = b·p = 300p down the left.
        (.angle(45), 0, [[0, 0], [0, 0], [0, 0]]),
        (.angle(45), 0.5, [[0, 0], [150, 0], [0, 150]]),
        (.angle(45), 1, [[0, 0], [300, 0], [0, 300]]),
        // 135°: cAngle 45, from the top-right corner (xOffset = w), x flipped.
        (.angle(135), 0, [[200, 0], [200, 0], [200, 0]]),
        (.angle(135), 0.5, [[200, 0], [50, 0], [200, 150]]),
        (.angle(135), 1, [[200, 0], [-100, 0], [200, 300]]),
        // 225°: from the bottom-right corner (w, h), both flipped.
        (.angle(225), 0, [[200, 100], [200, 100], [200, 100]]),
        (.angle(225), 0.5, [[200, 100], [50, 100], [200, -50]]),
        (.angle(225), 1, [[200, 100], [-100, 100], [200, -200]]),
        // 315°: from the bottom-left corner (0, h), y flipped.
        (.angle(315), 0, [[0, 100], [0, 100], [0, 100]]),
        (.angle(315), 0.5, [[0, 100], [150, 100], [0, -50]]),
        (.angle(315), 1, [[0, 100], [300, 100], [0, -200]]),
        // 30°: m = tan 30° = 0.57735, x = (h·m + w)·p = 257.735p, y = (h + w/m)·p = 446.410p.
        (.angle(30), 0.5, [[0, 0], [128.86751345948130, 0], [0, 223.20508075688775]]),
        // Multiples of 90° are the rectangles: 0 → leftToRight, 90 → topToBottom, 180 → rightToLeft, 270 → bottomToTop.
        (.angle(0), 0.5, [[0, 0], [100, 0], [100, 100], [0, 100]]),
        (.angle(90), 0, [[0, 0], [200, 0], [200, 0], [0, 0]]),
        (.angle(90), 0.5, [[0, 0], [200, 0], [200, 50], [0, 50]]),
        (.angle(90), 1, [[0, 0], [200, 0], [200, 100], [0, 100]]),
        (.angle(180), 0.5, [[200, 0], [100, 0], [100, 100], [200, 100]]),
        (.angle(270), 0.5, [[0, 100], [200, 100], [200, 50], [0, 50]]),
        // Angles are taken modulo 360: −90 is 270, 405 is 45, 360 is 0.
        (.angle(-90), 0.5, [[0, 100], [200, 100], [200, 50], [0, 50]]),
        (.angle(405), 0.5, [[0, 0], [150, 0], [0, 150]]),
        (.angle(360), 0.5, [[0, 0], [100, 0], [100, 100], [0, 100]]),
    ])
    func polygon_portsTheSeedsPath(style: SplashStyle, progress: Double, expected: [[Double]]) {
        Self.expectPolygon(SplashShape(style: style, progress: progress, width: Self.width, height: Self.height), expected)
    }

    @Test(arguments: [(0.0, 0.0), (0.5, 55.90169943749474), (1.0, 111.80339887498948)])
    func circle_growsFromTheCentre_toHalfTheDiagonal(progress: Double, radius: Double) {
        // c = √((h/2)² + (w/2)²) = √(50² + 100²) = 111.803…; r = c·p.
        guard case .circle(let cx, let cy, let r) = SplashShape(style: .circle, progress: progress, width: 200, height: 100)
        else {
            Issue.record("expected a circle")
            return
        }
        #expect(cx == 100 && cy == 50)
        #expect(abs(r - radius) < 1e-12)
    }

    /// At p = 1 the triangle's hypotenuse passes through the corner opposite the one it grows from, so the
    /// board is covered: for legs X and Y from the corner, w/|X| + h/|Y| = 1.
    @Test(arguments: stride(from: 1.0, to: 360, by: 7).filter { $0.truncatingRemainder(dividingBy: 90) != 0 })
    func angledTriangle_coversTheBoardAtOne(degrees: Double) throws {
        let points = try #require(Self.points(SplashShape(style: .angle(degrees), progress: 1, width: 200, height: 100)))
        #expect(points.count == 3)
        let corner = points[0]
        #expect([0, 200].contains(corner[0]) && [0, 100].contains(corner[1]))
        let legX = points[1][0] - corner[0]
        let legY = points[2][1] - corner[1]
        #expect(points[1][1] == corner[1] && points[2][0] == corner[0])
        #expect(abs(200 / abs(legX) + 100 / abs(legY) - 1) < 1e-9)
        // The legs point into the board.
        #expect((corner[0] == 0) == (legX > 0))
        #expect((corner[1] == 0) == (legY > 0))
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
