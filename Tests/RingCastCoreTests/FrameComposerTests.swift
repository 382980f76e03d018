import Foundation
import RingCastCore
import Testing

@Suite struct FrameComposerTests {
    let spec = Fixtures.ring("move")  // centre (300, 330), radius 220, lightRed → darkRed; frames are relative to the centre
    let start = Palette.lightRed
    let end = Palette.darkRed
    let a0 = -Double.pi / 2

    func compose(_ p: Double?) -> RingFrame {
        FrameComposer.ring(spec, progress: p, colors: [start, end], labelColor: Fixtures.white)
    }

    func expectStops(_ frame: RingFrame, _ expected: [(Double, RGBAColor)]) {
        let actual = frame.gradient.stops
        #expect(actual.count == expected.count)
        for (stop, (offset, color)) in zip(actual, expected) {
            #expect(abs(stop.offset - offset) < 1e-12)
            #expect(stop.color.hex == color.hex)
        }
    }

    @Test func zero_drawsOnlyTheTrack() {
        let frame = compose(0)
        #expect(frame.p == 0)
        #expect(frame.a0 == a0 && frame.a1 == a0)
        #expect(frame.gradient.start == a0)
        expectStops(frame, [(0, start), (0, end), (0.5, end), (0.5, start), (1, start)])
        #expect(!frame.cap.visible)
        #expect(!frame.tip.visible)
        #expect(frame.label == "0%")
    }

    @Test func half_spansHalfTheCircleWithTheGapSplitBetweenEndAndStartColour() {
        let frame = compose(0.5)
        #expect(frame.a0 == a0)
        #expect(abs(frame.a1 - Double.pi / 2) < 1e-15)
        #expect(frame.gradient.start == a0)
        expectStops(frame, [(0, start), (0.5, end), (0.75, end), (0.75, start), (1, start)])
        #expect(frame.cap.visible && frame.cap.color == start)
        #expect(frame.cap.x == 0 && frame.cap.y == -220)
        #expect(!frame.tip.visible)
        #expect(frame.tip.color == end)
        #expect(abs(frame.tip.x) < 1e-9 && abs(frame.tip.y - 220) < 1e-9)
        #expect(frame.label == "50%")
        #expect(frame.labelColor == Fixtures.white)
    }

    @Test func justAbove96Percent_showsTheTipWithItsShadow() {
        let frame = compose(0.97)
        #expect(abs(frame.a1 - (a0 + 2 * Double.pi * 0.97)) < 1e-12)
        expectStops(frame, [(0, start), (0.97, end), (0.985, end), (0.985, start), (1, start)])
        #expect(frame.cap.visible)
        #expect(frame.tip.visible)
        #expect(frame.label == "97%")
    }

    @Test func fullTurn_keepsTheStartCap_andShowsTheTip() {
        let frame = compose(1)
        #expect(abs(frame.a1 - 3 * Double.pi / 2) < 1e-15)
        expectStops(frame, [(0, start), (1, end), (1, end), (1, start), (1, start)])
        #expect(frame.cap.visible)
        #expect(frame.tip.visible)
        #expect(abs(frame.tip.x) < 1e-9 && abs(frame.tip.y + 220) < 1e-9)
        #expect(frame.label == "100%")
    }

    @Test func beyondOneTurn_startsTheConicUnderTheTip_andShowsOnlyTheLastTurn() {
        let frame = compose(1.5)
        let a1 = a0 + 3 * Double.pi
        #expect(abs(frame.a1 - a1) < 1e-12)
        #expect(abs(frame.gradient.start - a1) < 1e-12)
        // The last turn spans (p − 1)/p = 1/3 of the gradient to its end.
        expectStops(frame, [(0, start.mixed(with: end, fraction: 1.0 / 3)), (1, end)])
        #expect(!frame.cap.visible)
        #expect(frame.tip.visible)
        #expect(abs(frame.tip.x) < 1e-9 && abs(frame.tip.y - 220) < 1e-9)
        #expect(frame.label == "150%")
    }

    @Test func noData_drawsNothingButTheTrack_andADash() {
        let frame = compose(nil)
        #expect(frame.p == nil)
        #expect(frame.a1 == frame.a0)
        expectStops(frame, [(0, start), (0, end), (0.5, end), (0.5, start), (1, start)])
        #expect(!frame.cap.visible)
        #expect(!frame.tip.visible)
        #expect(frame.label == "—")
    }

    @Test(arguments: [
        // p, tip (x, y) relative to the centre, shadow (dx, dy): the tip at 3, 6 and 12 o'clock, the shadow a
        // chord 0.01 turn ahead.
        (0.25, 220.0, 0.0, -0.4341197457802082, 13.813914296448957),
        (0.5, 0.0, 220.0, -13.813914296448957, -0.4341197457802082),
        (1.0, 0.0, -220.0, 13.8139142964489, 0.434119745780265),
        (0.97, -41.2238892088594, -216.10319516031151, 13.6505778247124, -2.1620391288736016),
    ])
    func tipAndShadow_followTheSeedsRingTip(p: Double, x: Double, y: Double, dx: Double, dy: Double) {
        let tip = compose(p).tip
        #expect(abs(tip.x - x) < 1e-9 && abs(tip.y - y) < 1e-9)
        #expect(abs(tip.shadow.dx - dx) < 1e-9 && abs(tip.shadow.dy - dy) < 1e-9)
        #expect(tip.shadow.blur == 2 && tip.shadow.alpha == 0.15)
        // tip(p + 0.01) − tip(p) is a chord of 0.01 turn: 2r·sin(π·0.01) long.
        let length = (tip.shadow.dx * tip.shadow.dx + tip.shadow.dy * tip.shadow.dy).squareRoot()
        #expect(abs(length - 2 * 220 * sin(Double.pi * 0.01)) < 1e-9)
    }

    @Test func negativeProgress_keepsGradientOffsetsInsideZeroToOne() {
        let frame = compose(-0.05)
        #expect(frame.gradient.stops.allSatisfy { (0...1).contains($0.offset) })
        #expect(!frame.cap.visible)
        #expect(frame.label == "-5%")
    }

    @Test func boardFrame_carriesEveryRingInOrder_withDisplayedValues() throws {
        var board = Board(spec: Fixtures.board)
        try board.apply(BoardPatch(rings: ["move": RingPatch(progress: 0.5)], animation: Animation.none), at: 0)
        let frame = FrameComposer.frame(of: board, at: 1, seq: 7, wallClockMilliseconds: 1_763_700_000_123.4)
        #expect(frame.board == "main" && frame.seq == 7 && frame.t == 1_763_700_000_123.4)
        #expect(frame.rings.map(\.id) == Fixtures.board.rings.map(\.id))
        #expect(frame.rings[0].p == 0.5)
        #expect(frame.rings[1].p == nil)
        #expect(frame.background.color == Fixtures.board.background)
        #expect(frame.background.splash.isEmpty)
    }

    @Test func layout_carriesEachRingsStaticGeometry() {
        let layout = FrameComposer.layout(of: Fixtures.board)
        #expect(layout.board == "main" && layout.title == "main")
        #expect(layout.arrangements.map(\.name) == ["landscape"])
        #expect(layout.arrangements[0].width == 1280 && layout.arrangements[0].height == 720)
        #expect(layout.arrangements[0].rings.map(\.id) == Fixtures.board.rings.map(\.id))
        #expect(layout.arrangements[0].rings[0].cx == Fixtures.board.rings[0].cx)
        #expect(layout.rings.map(\.id) == Fixtures.board.rings.map(\.id))
        #expect(
            layout.rings.map(\.kind) == ["plain", "plain", "plain", "plain", "plain", "plain", "plain", "derived", "countdown"])
        #expect(layout.rings[1].r == 180)
    }
}
