import Foundation
import Testing

@testable import RingCastCore

/// The history answer's JSON is written into one buffer sized beforehand (`ByteText`): the widest numbers and statuses
/// fit, and the bytes are those the plain way of writing them (string interpolation, the reference here) gives.
@Suite struct HistoryAnswerBytesTests {
    /// The answer's JSON written the plain way.
    static func reference(_ answer: HistoryAnswer) -> [UInt8] {
        var text = "{\"board\":\"\(answer.board)\",\"ring\":\"\(answer.ring)\",\"field\":\"\(answer.field)\","
        if answer.request.since != .min { text += "\"since\":\(answer.request.since)," }
        if answer.request.until != .max { text += "\"until\":\(answer.request.until)," }
        text += "\"method\":\"m4\",\"kept\":\(answer.kept),\"points\":["
        text += answer.points.map { point in
            "{\"t\":\(point.tick),\"\(answer.field)\":\(HistoryAnswer.number(point.value))"
                + (point.status.map { ",\"status\":\"\($0)\"" } ?? "") + "}"
        }.joined(separator: ",")
        return Array((text + "]}\n").utf8)
    }

    @Test func theWidestValues_fit() throws {
        let values: [Double] = [
            -1.7976931348623157e+308, 1.7976931348623157e+308, -0.0, .leastNonzeroMagnitude, 0.1 + 0.2, 1e15, -1e15 + 1,
            123_456_789.125, -2.2250738585072014e-308,
        ]
        let points = values.enumerated().map { index, value in
            HistoryPoint(
                tick: index == 0 ? .max : index == 1 ? .min : Int64(index), value: value,
                status: index % 2 == 0 ? "warning" : nil)
        }
        let answer = HistoryAnswer(
            board: "b", ring: "r", kind: .counter(CounterWidget()),
            request: HistoryRequest(since: .min + 1, until: .max - 1, points: 100), points: points)
        #expect(answer.json == Self.reference(answer))
        #expect(try JSONSerialization.jsonObject(with: Data(answer.json)) is [String: Any])
    }

    @Test func tenThousandPoints_areThePlainBytes() {
        var generator = ArrangerTests.SeededGenerator(state: 7)
        let points = (0..<10_000).map { index in
            HistoryPoint(
                tick: 1_796_000_000_000 + Int64(index) * 300, value: Double.random(in: 0...1, using: &generator),
                status: index % 7 == 0 ? "running" : nil)
        }
        let answer = HistoryAnswer(
            board: "main", ring: "move", kind: .plain, request: HistoryRequest(since: .min, until: .max, points: 10_000),
            points: points)
        let json = answer.json
        #expect(json.count == Self.reference(answer).count && json == Self.reference(answer))
    }
}
