import Foundation
import Testing

@testable import RingCastCore

/// Issue 30, problem 8: a counter's spring showed 1,000,000,000,002 for a target of 10¹², a number outside the
/// counter's range that the API refuses. The displayed number stays within `Limits.counterValues`; within it a
/// spring still overshoots its target, as seed 003's does (docs/ANIMATION.md, "Rolling counter").
@Suite("Counter range")
struct CounterRangeTests {
    static let fps = 60.0

    static func board(value: Double) throws -> Board {
        let definition = #"{"rings":[{"id":"big","kind":"counter","value":\#(value),"grouping":","}]}"#
        let spec = try RequestDecoder.decode(BoardDefinition.self, from: Array(definition.utf8))
            .spec(named: "range", maximumRings: 255)
        return Board(spec: spec)
    }

    /// Per tick for five seconds after a push at 0 with the counter's default spring (a spring across 10¹² settles
    /// within 1e-4 in about 3.6 s): the number the spring itself reaches, and what the frame shows (its value, its
    /// columns as a number, its label).
    static func ticks(from start: Double, to target: Double) throws -> [(
        spring: Double, shown: Double, columns: Double, label: String
    )] {
        var board = try board(value: start)
        try board.apply(WidgetBoardTests.patch(#"{"rings":{"big":{"value":\#(target)}}}"#), at: 0)
        return try (0...300).map { tick in
            let time = Double(tick) / fps
            let frame = FrameComposer.frame(of: board, at: time, seq: UInt64(tick), wallClockMilliseconds: 0)
            guard case .counter(let value, _, let digits) = frame.rings[0].widget else {
                throw BinaryFrame.DecodingError(description: "not a counter")
            }
            let spring = try #require(board.rings["big"]?.progress?.value(at: time))
            let columns = digits.reduce(0.0) { $0 * 10 + Double($1.digit) }
            return (spring, try #require(value), columns, frame.rings[0].label)
        }
    }

    @Test(arguments: [(0.0, 1e12), (0.0, -1e12), (-1e12, 1e12)])
    func aSpringPastTheCountersRange_showsItsEnd_atEveryTick(from start: Double, to target: Double) throws {
        let ticks = try Self.ticks(from: start, to: target)
        // The spring does overshoot: without the bound these ticks showed 1,000,000,000,00x.
        #expect(ticks.contains { $0.spring.magnitude > 1e12 })
        for (tick, entry) in ticks.enumerated() {
            #expect(Limits.counterValues.contains(entry.shown), "tick \(tick): \(entry.shown)")
            #expect(entry.columns <= 1e12, "tick \(tick): the wheels read \(entry.columns)")
            #expect(!entry.label.hasPrefix("1,000,000,000,00") || entry.label == "1,000,000,000,000", "tick \(tick)")
            #expect(!entry.label.hasPrefix("-1,000,000,000,00") || entry.label == "-1,000,000,000,000", "tick \(tick)")
        }
        #expect(ticks.last?.shown == target)
        #expect(ticks.contains { $0.shown == target && $0.spring != target }, "held at the end while the spring overshoots")
    }

    /// Within the range the seed's bounce stays: the wheels roll a little past 100 and back.
    @Test func aSpringWithinTheRange_stillOvershootsItsTarget() throws {
        let ticks = try Self.ticks(from: 0, to: 100)
        #expect(ticks.contains { $0.shown > 100 })
        #expect(ticks.allSatisfy { $0.shown == $0.spring })
        #expect(ticks.last?.label == "100")
    }
}
