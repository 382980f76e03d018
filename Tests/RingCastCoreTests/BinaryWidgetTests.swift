import Foundation
import Testing

@testable import RingCastCore

/// Binary version 4: widgets in the layout and in frames (docs/PROTOCOL.md), against the JSON of the same
/// messages; boards of rings only keep version 3's bytes.
@Suite("Binary widgets")
struct BinaryWidgetTests {
    /// WidgetBoardTests' board of every kind, each widget mid-animation at 0.5 s: the counter rolling from 99
    /// to 100, a wave over the new text, the indicator filling and the gradient's colours mixing.
    static func animatedBoard() throws -> Board {
        var board = Board(spec: try WidgetBoardTests.spec())
        try board.apply(
            WidgetBoardTests.patch(
                ##"""
                {"rings":{"tests":{"value":100},"status":{"text":"Deployed"},"load":0.73,"move":0.4,
                 "mood":{"colors":["#000000","#ffffff","#123456"]}},"animation":{"curve":"linear","duration":1}}
                """##),
            at: 0)
        return board
    }

    static func frame(of board: Board, at time: Double, seq: UInt64) -> Frame {
        FrameComposer.frame(of: board, at: time, seq: seq, wallClockMilliseconds: time * 1000)
    }

    static func layout(of board: Board) throws -> BinaryFrame.DecodedLayout {
        guard case .layout(let layout) = try BinaryFrame.decode(BinaryFrame.encode(FrameComposer.layout(of: board.spec)))
        else { throw BinaryFrame.DecodingError(description: "not a layout") }
        return layout
    }

    static func decodedFrame(_ bytes: [UInt8], layout: BinaryFrame.DecodedLayout) throws -> BinaryFrame.DecodedFrame {
        guard case .frame(let frame) = try BinaryFrame.decode(bytes, layout: layout) else {
            throw BinaryFrame.DecodingError(description: "not a frame")
        }
        return frame
    }

    /// The JSON value of `value` as the page parses it.
    static func json(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(JSONBytes.encode(value)), options: [.fragmentsAllowed])
    }

    /// Whether two parsed JSON values agree: the same keys, strings and booleans, numbers within `tolerance`.
    static func agree(_ a: Any, _ b: Any, tolerance: Double, at path: String = "") -> [String] {
        switch (a, b) {
        case (let a as [String: Any], let b as [String: Any]):
            guard Set(a.keys) == Set(b.keys) else { return ["\(path): keys \(a.keys.sorted()) ≠ \(b.keys.sorted())"] }
            return a.keys.flatMap { agree(a[$0]!, b[$0]!, tolerance: tolerance, at: path + "." + $0) }
        case (let a as [Any], let b as [Any]):
            guard a.count == b.count else { return ["\(path): \(a.count) ≠ \(b.count) items"] }
            return zip(a, b).enumerated().flatMap { agree($1.0, $1.1, tolerance: tolerance, at: path + "[\($0)]") }
        case (let a as String, let b as String):
            return a == b ? [] : ["\(path): \(a) ≠ \(b)"]
        case (let a as NSNumber, let b as NSNumber):
            return abs(a.doubleValue - b.doubleValue) <= tolerance ? [] : ["\(path): \(a) ≠ \(b)"]
        case (is NSNull, is NSNull):
            return []
        default:
            return ["\(path): \(a) ≠ \(b)"]
        }
    }

    /// The largest quantisation step of version 4's numbers: a wave scale's 1/4096 halved, well above f32's.
    static let tolerance = 1.0 / 8_192

    @Test func layout_carriesEveryWidgetsSizesAndFormat_inVersion4() throws {
        let board = try Self.animatedBoard()
        let layout = FrameComposer.layout(of: board.spec)
        let bytes = BinaryFrame.encode(layout)
        #expect(bytes.prefix(4) == [0x52, 0x04, 0x01, 0x00])
        let decoded = try Self.layout(of: board)
        #expect(decoded.ringIDs == ["move", "tests", "status", "load", "mood"])
        #expect(decoded.widgets.keys.sorted() == [1, 2, 3, 4])
        for (index, ring) in layout.rings.enumerated() {
            guard let widget = ring.widget else { continue }
            // Through JSON, as the page sees both: equal within float32.
            let problems = Self.agree(
                try Self.json(
                    Layout.Ring(
                        id: ring.id, title: ring.title, kind: ring.kind, r: ring.r, thickness: ring.thickness,
                        track: ring.track, titleColor: ring.titleColor, widget: decoded.widgets[index])),
                try Self.json(ring), tolerance: 1e-4 * max(1, ring.r))
            #expect(problems.isEmpty, "\(ring.id): \(problems)")
            if case .counter(let format) = widget {
                #expect(decoded.widgets[index] == .counter(format))
            }
        }
    }

    @Test(arguments: [0, 0.25, 0.5, 0.75, 1, 2] as [Double])
    func keyframe_decodesToTheJSONEntries(_ time: Double) throws {
        let board = try Self.animatedBoard()
        let layout = try Self.layout(of: board)
        let frame = Self.frame(of: board, at: time, seq: 1)
        let bytes = BinaryFrame.encode(frame, previous: nil)
        #expect(bytes.prefix(3) == [0x52, 0x04, 0x02])
        let decoded = try Self.decodedFrame(bytes, layout: layout)
        #expect(decoded.rings.map(\.index) == [0, 1, 2, 3, 4])
        for ring in decoded.rings {
            let original = frame.rings[ring.index]
            guard original.widget != nil else {
                #expect(layout.widgets[ring.index] == nil)
                #expect(ring.values == BinaryFrame.values(of: original))
                continue
            }
            #expect(ring.fields == .allOfAWidget)
            let entry = try BinaryFrame.widgetEntry(
                id: original.id, layout: try #require(layout.widgets[ring.index]), values: ring.values)
            let problems = Self.agree(try Self.json(entry), try Self.json(original), tolerance: Self.tolerance)
            #expect(problems.isEmpty, "\(original.id) at \(time): \(problems)")
        }
    }

    @Test func deltas_carryOnlyChangedWidgets_andRebuildTheKeyframesPicture() throws {
        let board = try Self.animatedBoard()
        let layout = try Self.layout(of: board)
        var state: [Int: BinaryFrame.RingValues] = [:]
        var previous: Frame?
        var sentWidgets = Set<Int>()
        // 0.4 s to 1.2 s at 30 fps: every widget moves, then rests after 1 s.
        for tick in 12...36 {
            let frame = Self.frame(of: board, at: Double(tick) / 30, seq: UInt64(tick))
            let decoded = try Self.decodedFrame(BinaryFrame.encode(frame, previous: previous), layout: layout)
            BinaryFrame.apply(decoded, to: &state)
            let expected = frame.rings.indices.filter { index in
                previous.map { BinaryFrame.values(of: $0.rings[index]) != BinaryFrame.values(of: frame.rings[index]) }
                    ?? true
            }
            #expect(decoded.rings.map(\.index) == expected, "tick \(tick)")
            if previous != nil { sentWidgets.formUnion(decoded.rings.map(\.index).filter { $0 > 0 }) }
            for (index, ring) in frame.rings.enumerated() {
                #expect(state[index] == BinaryFrame.values(of: ring), "tick \(tick), \(ring.id)")
            }
            if tick > 31 { #expect(decoded.rings.isEmpty, "tick \(tick): everything rests") }
            previous = frame
        }
        #expect(sentWidgets == [1, 2, 3, 4])
    }

    @Test func deltaOfAChangedLabelOnly_carriesTheLabelAlone() throws {
        let board = try Self.animatedBoard()
        let layout = try Self.layout(of: board)
        let before = Self.frame(of: board, at: 2, seq: 1)
        var after = Self.frame(of: board, at: 2, seq: 2)
        after.rings[3].label = "74 %"
        let bytes = BinaryFrame.encode(after, previous: before)
        let decoded = try Self.decodedFrame(bytes, layout: layout)
        #expect(decoded.rings.map(\.index) == [3])
        #expect(decoded.rings.first?.fields == .label)
        // Header, seq, t, ring count, then index, fields and "74 %".
        #expect(bytes.count == 4 + 4 + 8 + 1 + 2 + 1 + 4)
    }

    @Test func framesWithoutWidgetEntries_areVersion3_andDecodeWithoutALayout() throws {
        let board = try Self.animatedBoard()
        // At rest, a delta of the widget board where only the ring moved.
        let before = Self.frame(of: board, at: 2, seq: 1)
        var after = Self.frame(of: board, at: 2, seq: 2)
        after.rings[0] = FrameComposer.ring(
            board.spec.rings[0], progress: 0.41, colors: board.spec.rings[0].colors, labelColor: after.rings[0].labelColor)
        let bytes = BinaryFrame.encode(after, previous: before)
        #expect(bytes.prefix(3) == [0x52, 0x03, 0x03])
        guard case .frame(let decoded) = try BinaryFrame.decode(bytes) else {
            Issue.record("not a frame")
            return
        }
        #expect(decoded.rings.map(\.index) == [0])
    }

    @Test func ringOnlyBoard_isVersion3ByteForByte() throws {
        var spec = try WidgetBoardTests.spec()
        spec.rings = [spec.rings[0]]
        var board = Board(spec: spec)
        try board.apply(WidgetBoardTests.patch(#"{"rings":{"move":0.4},"animation":{"curve":"linear","duration":1}}"#), at: 0)
        let layout = BinaryFrame.encode(FrameComposer.layout(of: spec))
        #expect(layout.prefix(2) == [0x52, 0x03])
        let first = Self.frame(of: board, at: 0.5, seq: 1)
        let second = Self.frame(of: board, at: 0.6, seq: 2)
        for bytes in [BinaryFrame.encode(first, previous: nil), BinaryFrame.encode(second, previous: first)] {
            #expect(bytes[1] == 0x03)
            // No byte of version 4: the entry is a ring's, read by a decoder without a layout.
            guard case .frame(let decoded) = try BinaryFrame.decode(bytes) else {
                Issue.record("not a frame")
                continue
            }
            #expect(decoded.rings.allSatisfy { $0.values.widget.isEmpty })
        }
    }

    @Test func version4Frame_withoutItsLayout_isRefused() throws {
        let board = try Self.animatedBoard()
        let bytes = BinaryFrame.encode(Self.frame(of: board, at: 0.5, seq: 1), previous: nil)
        #expect(throws: BinaryFrame.DecodingError.self) { try BinaryFrame.decode(bytes) }
        // Cut anywhere, it is refused, not trapped.
        let layout = try Self.layout(of: board)
        for end in stride(from: 0, to: bytes.count, by: 3) {
            #expect(throws: BinaryFrame.DecodingError.self) { try BinaryFrame.decode(Array(bytes.prefix(end)), layout: layout) }
        }
    }

    /// The page's node test decodes these bytes (Tests/web/fixtures/widgets.json); regenerate them with
    /// `RINGCAST_WRITE_FIXTURES=1 swift test --filter BinaryWidgetTests` when the encoding changes.
    @Test func webFixture_matchesTheEncoder() throws {
        let board = try Self.animatedBoard()
        let first = Self.frame(of: board, at: 0.5, seq: 1)
        let second = Self.frame(of: board, at: 0.55, seq: 2)
        let fixture = WebFixture(
            layout: BinaryFrame.encode(FrameComposer.layout(of: board.spec)),
            keyframe: BinaryFrame.encode(first, previous: nil),
            delta: BinaryFrame.encode(second, previous: first),
            jsonLayout: String(decoding: try FrameEncoder.json(FrameComposer.layout(of: board.spec)), as: UTF8.self),
            jsonKeyframe: String(decoding: try FrameEncoder.json(first, previous: nil), as: UTF8.self),
            jsonSecond: String(decoding: try FrameEncoder.json(second, previous: nil), as: UTF8.self))
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("web/fixtures/widgets.json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        if ProcessInfo.processInfo.environment["RINGCAST_WRITE_FIXTURES"] != nil {
            try encoder.encode(fixture).write(to: url)
        }
        let stored = try JSONDecoder().decode(WebFixture.self, from: Data(contentsOf: url))
        #expect(stored == fixture)
    }

    struct WebFixture: Codable, Equatable {
        var layout: [UInt8]
        var keyframe: [UInt8]
        var delta: [UInt8]
        var jsonLayout: String
        var jsonKeyframe: String
        var jsonSecond: String
    }
}
