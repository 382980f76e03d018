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

    /// A value that is a decimal of at most six places is written from its digits, not through `description`: the
    /// two agree over every edge and 200,000 seeded decimals of one to six places, up to 10⁹, of either sign.
    @Test func decimalsOfSixPlaces_areTheirDescription() {
        var generator = ArrangerTests.SeededGenerator(state: 33)
        var values: [Double] = [
            0.001, 0.000999, 0.0011, 0.1, 0.5, 0.999999, 1.000001, 12.5, 0.123456, 0.1234567, 0.3, 0.7, 1e9 - 0.5,
            999_999_999.999999, 999_999_999.5, 1e9 + 0.5, 123_456.789012, 0.1 + 0.2, 2.675, 1.005,
        ]
        for _ in 0..<200_000 {
            let places = Int.random(in: 1...6, using: &generator)
            let scale = [1e1, 1e2, 1e3, 1e4, 1e5, 1e6][places - 1]
            let whole = Double(Int64.random(in: 0...Int64(1e9 * scale), using: &generator))
            let value = whole / scale
            values.append(Bool.random(using: &generator) ? value : -value)
        }
        for value in values {
            let written = ByteText.make(capacity: ByteText.longestNumber) { $0.number(value) }
            let expected = HistoryAnswer.number(value)
            #expect(String(decoding: written, as: UTF8.self) == expected, "\(expected)")
            if String(decoding: written, as: UTF8.self) != expected { return }
        }
    }
}
