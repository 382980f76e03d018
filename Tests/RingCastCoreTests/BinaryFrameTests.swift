import Foundation
import Testing

@testable import RingCastCore

@Suite("Binary frames")
struct BinaryFrameTests {
    static let red = RGBAColor(hex: "#ff0000")!
    static let blue = RGBAColor(hex: "#0000ff")!

    static let spec = RingSpec(
        id: "r", title: "R", cx: 100, cy: 100, r: 50, thickness: 10,
        track: RGBAColor(hex: "#2c2c2e")!, colors: [red, blue], kind: .plain,
        titleText: TextSpec(x: 100, y: 170, size: 12, align: "center"),
        labelText: TextSpec(x: 100, y: 100, size: 20, align: "center"),
        titleColor: RGBAColor(hex: "#8e8e93")!, labelColor: RGBAColor(hex: "#ffffff")!
    )

    static func frame(_ p: Double?, seq: UInt64 = 7) -> Frame {
        Frame(
            board: "b", seq: seq, t: 1000.5,
            rings: [FrameComposer.ring(spec, progress: p, colors: [red, blue], labelColor: RGBAColor(hex: "#ffffff")!)],
            background: BackgroundFrame(color: RGBAColor(red: 0, green: 0, blue: 0))
        )
    }

    @Test func keyframe_matchesTheGoldenBytes() {
        let bytes = BinaryFrame.encode(Self.frame(0.5), previous: nil)
        let golden: [UInt8] = [
            0x52, 0x03, 0x02, 0x01,  // 'R', version 3, keyframe, background follows
            0x07, 0x00, 0x00, 0x00,  // seq 7
            0x00, 0x00, 0x00, 0x00, 0x00, 0x44, 0x8f, 0x40,  // t 1000.5
            0x00, 0x00, 0x00, 0xff,  // background black
            0xf2, 0xf2, 0xf7, 0xff,  // its text colour, the light grey
            0x00,  // no splash layers
            0x01,  // one ring
            0x00, 0xff,  // ring 0, every field
            0x07,  // has data, arc, cap visible
            0x00, 0x00, 0x00, 0x3f, 0xdb, 0x0f, 0xc9, 0x3f,  // p 0.5, a1 π/2
            0x00, 0x00, 0x20, 0x03,  // tip (0, 50) from the centre, in 1/16
            0xdc, 0xfc, 0xe7, 0xff,  // shadow (−3.1395, −0.0987) in 1/256: −804, −25
            0x00, 0x80, 0xff, 0xbf,  // offsets 0.5, 0.75 in 1/65535
            0xff, 0x00, 0x00, 0xff,  // start colour
            0x00, 0x00, 0xff, 0xff,  // end colour
            0x03, 0x35, 0x30, 0x25,  // "50%"
            0xff, 0xff, 0xff, 0xff,  // label colour
        ]
        #expect(bytes == golden)
    }

    /// The board of `spec` with a portrait arrangement too: (100, 100) moves to (180, 300) there.
    static let shaped: BoardSpec = {
        var board = BoardSpec(name: "b", title: "Builds", width: 640, height: 360, background: blue, rings: [spec])
        board.alternates = [
            Arrangement(
                name: "portrait", width: 360, height: 640,
                placements: [
                    RingPlacement(
                        id: "r", cx: 180, cy: 300,
                        titleText: TextSpec(x: 180, y: 370, size: 12, align: "center", width: 300),
                        labelText: TextSpec(x: 180, y: 300, size: 20, align: "center"))
                ])
        ]
        return board
    }()

    @Test func layout_roundTripsItsRingIDsAndArrangements() throws {
        let bytes = BinaryFrame.encode(FrameComposer.layout(of: Self.shaped))
        #expect(bytes.prefix(4) == [0x52, 0x03, 0x01, 0x00])
        guard case .layout(let decoded) = try BinaryFrame.decode(bytes) else {
            Issue.record("not a layout")
            return
        }
        #expect(
            decoded
                == BinaryFrame.DecodedLayout(
                    board: "b", title: "Builds", ringIDs: ["r"], titleColors: [[0x8e, 0x8e, 0x93, 0xff]],
                    seedStyle: [false],
                    arrangements: [
                        .init(name: "landscape", width: 640, height: 360, centres: [[100, 100]], caps: [[0, -50]]),
                        .init(name: "portrait", width: 360, height: 640, centres: [[180, 300]], caps: [[0, -50]]),
                    ]))
    }

    @Test func layoutWithAnAutomaticTitleColour_matchesTheGoldenBytes() throws {
        var spec = Self.spec
        spec.titleColor = nil
        let bytes = BinaryFrame.encode(
            FrameComposer.layout(of: BoardSpec(name: "b", width: 640, height: 360, background: Self.blue, rings: [spec])))
        let golden: [UInt8] = [
            0x52, 0x03, 0x01, 0x00,  // 'R', version 3, layout
            0x01, 0x62,  // board "b"
            0x01, 0x62,  // title "b" (the name: none was given)
            0x00, 0x00, 0xff, 0xff,  // background blue
            0x01,  // one ring
            0x01, 0x72, 0x01, 0x52,  // id "r", title "R"
            0x00,  // plain
            0x01,  // ringFlags: automatic title colour
            0x00, 0x00, 0x48, 0x42, 0x00, 0x00, 0x20, 0x41,  // r 50, thickness 10
            0x2c, 0x2c, 0x2e, 0xff,  // track
            0x00, 0x00, 0x00, 0x00,  // titleColor: none, automatic
            0x01,  // one arrangement (hand-placed)
            0x09, 0x6c, 0x61, 0x6e, 0x64, 0x73, 0x63, 0x61, 0x70, 0x65,  // "landscape"
            0x00, 0x00, 0x20, 0x44, 0x00, 0x00, 0xb4, 0x43,  // 640 × 360
            0x00, 0x00, 0xc8, 0x42, 0x00, 0x00, 0xc8, 0x42,  // ring r: centre (100, 100)
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x48, 0xc2,  // cap (0, −50) from the centre
            0x00, 0x00, 0xc8, 0x42, 0x00, 0x00, 0x2a, 0x43, 0x00, 0x00, 0x40, 0x41, 0x01,  // title (100, 170) 12 center
            0x00, 0x00, 0x00, 0x00,  // no width
            0x00, 0x00, 0xc8, 0x42, 0x00, 0x00, 0xc8, 0x42, 0x00, 0x00, 0xa0, 0x41, 0x01,  // label (100, 100) 20 center
            0x00, 0x00, 0x00, 0x00,  // no width
        ]
        #expect(bytes == golden)
        guard case .layout(let decoded) = try BinaryFrame.decode(bytes) else {
            Issue.record("not a layout")
            return
        }
        #expect(decoded.titleColors == [nil])
    }

    @Test func textWidth_isEncodedAfterTheAlign() {
        let bytes = BinaryFrame.encode(FrameComposer.layout(of: Self.shaped))
        // The portrait title: x 180 | y 370 | size 12 | center | width 300.
        let title: [UInt8] = [
            0x00, 0x00, 0x34, 0x43, 0x00, 0x00, 0xb9, 0x43, 0x00, 0x00, 0x40, 0x41, 0x01, 0x00, 0x00, 0x96, 0x43,
        ]
        #expect(bytes.count >= title.count && bytes.indices.contains { Array(bytes[$0...].prefix(title.count)) == title })
    }

    @Test func splashLayer_carriesOneShapePerArrangement() throws {
        var board = Board(spec: Self.shaped)
        try board.apply(
            BackgroundUpdate(color: Self.red, transition: .circle, animation: .timing(.linear, duration: 1)), at: 0)
        let frame = FrameComposer.frame(of: board, at: 0.5, seq: 1, wallClockMilliseconds: 0)
        #expect(frame.background.splash.first?.shapes.count == 2)
        guard case .frame(let decoded) = try BinaryFrame.decode(BinaryFrame.encode(frame, previous: nil)) else {
            Issue.record("not a frame")
            return
        }
        #expect(decoded.splash.map(\.style) == ["circle"])
        #expect(decoded.splash.map(\.shapes) == [2])
    }

    @Test(arguments: [0, 0.125, 0.5, 0.8, 1.3] as [Double])
    func ringRelativeCoordinates_decodeAlikeInJSONAndBinary(_ p: Double) throws {
        let frame = Self.frame(p)
        let json = try JSONDecoder().decode(JSONRing.self, from: JSONEncoder().encode(frame.rings[0]))
        guard case .frame(let decoded) = try BinaryFrame.decode(BinaryFrame.encode(frame, previous: nil)),
            case .layout(let layout) = try BinaryFrame.decode(BinaryFrame.encode(FrameComposer.layout(of: Self.shaped)))
        else {
            Issue.record("not decodable")
            return
        }
        let values = try #require(decoded.rings.first?.values)
        // The tip to within the binary's 1/16 unit, around the centre whatever the arrangement.
        #expect(abs(Double(values.tipX) / 16 - json.tip.x) <= 1.0 / 32)
        #expect(abs(Double(values.tipY) / 16 - json.tip.y) <= 1.0 / 32)
        #expect(abs(json.tip.x * json.tip.x + json.tip.y * json.tip.y - 50 * 50) < 1e-9)
        // The cap exactly, in every arrangement.
        for arrangement in layout.arrangements {
            #expect(arrangement.caps == [[Float(json.cap.x), Float(json.cap.y)]])
        }
    }

    struct JSONRing: Decodable {
        struct Point: Decodable {
            var x: Double
            var y: Double
        }
        var cap: Point
        var tip: Point
    }

    @Test func backgroundChange_sendsItsNewTextColourInTheDelta() throws {
        let before = Self.frame(0.5)
        var after = Self.frame(0.5, seq: 8)
        after.background = BackgroundFrame(color: RGBAColor(red: 1, green: 1, blue: 1))
        guard case .frame(let delta) = try BinaryFrame.decode(BinaryFrame.encode(after, previous: before)) else {
            Issue.record("not a frame")
            return
        }
        #expect(delta.background == [0xff, 0xff, 0xff, 0xff])
        #expect(delta.text == [0x1c, 0x1c, 0x1e, 0xff])
    }

    @Test(arguments: [nil, 0, 0.25, 0.97, 1, 1.55, 10] as [Double?])
    func keyframe_decodesToTheWireValuesOfTheRing(_ p: Double?) throws {
        let frame = Self.frame(p)
        guard case .frame(let decoded) = try BinaryFrame.decode(BinaryFrame.encode(frame, previous: nil)) else {
            Issue.record("not a frame")
            return
        }
        #expect(decoded.kind == .keyframe)
        #expect(decoded.seq == 7)
        #expect(decoded.t == 1000.5)
        #expect(decoded.rings.count == 1)
        #expect(decoded.rings.first?.values == BinaryFrame.values(of: frame.rings[0]))
    }

    @Test func deltas_reconstructTheSamePictureAsKeyframes() throws {
        // A ring animating across a full turn and beyond, with a colour change on the way.
        var board = Board(spec: BoardSpec(name: "b", width: 640, height: 360, background: Self.blue, rings: [Self.spec]))
        try board.apply(BoardPatch(rings: ["r": RingPatch(progress: 1.4)], animation: .timing(.easeInOut, duration: 1)), at: 0)
        try board.apply(
            BoardPatch(rings: ["r": RingPatch(colors: [Self.blue, Self.red])], animation: .timing(.linear, duration: 0.5)),
            at: 0.3
        )
        var previous: Frame?
        var state: [Int: BinaryFrame.RingValues] = [:]
        for tick in 0...70 {
            let frame = FrameComposer.frame(of: board, at: Double(tick) / 60, seq: UInt64(tick), wallClockMilliseconds: 0)
            guard case .frame(let delta) = try BinaryFrame.decode(BinaryFrame.encode(frame, previous: previous)),
                case .frame(let key) = try BinaryFrame.decode(BinaryFrame.encode(frame, previous: nil))
            else {
                Issue.record("not frames")
                return
            }
            BinaryFrame.apply(delta, to: &state)
            var fromKey: [Int: BinaryFrame.RingValues] = [:]
            BinaryFrame.apply(key, to: &fromKey)
            #expect(state == fromKey, "tick \(tick)")
            previous = frame
        }
    }

    @Test func frameAfterTheBoardWasReshaped_isAKeyframeInBothFormats() throws {
        // The board gained a ring in front: index 0 is another ring now, so nothing can be a delta.
        var reshaped = Self.frame(0.5, seq: 8)
        var other = reshaped.rings[0]
        other.id = "s"
        reshaped.rings.insert(other, at: 0)
        guard case .frame(let decoded) = try BinaryFrame.decode(BinaryFrame.encode(reshaped, previous: Self.frame(0.5)))
        else {
            Issue.record("not a frame")
            return
        }
        #expect(decoded.kind == .keyframe && decoded.rings.count == 2 && decoded.background != nil)
        struct Message: Decodable { var keyframe: Bool }
        let json = try JSONDecoder().decode(Message.self, from: Data(FrameEncoder.json(reshaped, previous: Self.frame(0.5))))
        #expect(json.keyframe)
    }

    @Test func movingRing_costsAtMost24BytesPlusItsLabel() {
        for (from, to) in [(0.40, 0.41), (0.97, 0.98), (1.40, 1.41)] {
            let delta = BinaryFrame.encode(Self.frame(to, seq: 8), previous: Self.frame(from))
            let header = 4 + 4 + 8 + 1  // no background section: it did not change
            let label = 1 + PercentLabel.string(for: to).utf8.count
            #expect(delta.count - header - label <= 24, "p \(from) → \(to): \(delta.count - header - label) bytes")
        }
        // Nothing changed: an empty delta.
        #expect(BinaryFrame.encode(Self.frame(0.5, seq: 8), previous: Self.frame(0.5)).count == 4 + 4 + 8 + 1)
    }

    @Test(arguments: [[], [0x52], [0x52, 0x03, 0x02, 0x00], [0x52, 0x02, 0x01, 0x00], [0x00, 0x01, 0x02, 0x00]] as [[UInt8]])
    func truncatedOrForeignBytes_areRefusedNotTrapped(_ bytes: [UInt8]) {
        #expect(throws: BinaryFrame.DecodingError.self) { try BinaryFrame.decode(bytes) }
    }

    /// `Header`, which ringcast-bench reads for every message of every viewer, agrees with `decode`.
    @Test func header_readsKindAndSeqInPlace() throws {
        let keyframe = BinaryFrame.encode(Self.frame(0.5, seq: 0x1_0000_0007), previous: nil)
        let delta = BinaryFrame.encode(Self.frame(0.6, seq: 8), previous: Self.frame(0.5))
        for (bytes, kind, seq) in [(keyframe, BinaryFrame.Kind.keyframe, UInt32(7)), (delta, .delta, 8)] {
            let header = try #require(bytes.withUnsafeBytes { BinaryFrame.Header($0) })
            #expect(header.kind == kind && header.frameSeq == seq && header.version == BinaryFrame.ringsVersion)
            guard case .frame(let decoded) = try BinaryFrame.decode(bytes) else {
                throw BinaryFrame.DecodingError(description: "")
            }
            #expect(decoded.seq == seq)
        }
    }

    @Test(arguments: [[], [0x52], [0x52, 0x03, 0x02, 0x00], [0x52, 0x02, 0x01, 0x00], [0x00, 0x01, 0x02, 0x00]] as [[UInt8]])
    func header_ofTruncatedOrForeignBytes_isNil(_ bytes: [UInt8]) {
        #expect(bytes.withUnsafeBytes { BinaryFrame.Header($0) } == nil)
    }

    @Test func jsonDelta_carriesOnlyChangedRings_andKeyframesCarryAll() throws {
        struct Message: Decodable {
            struct Ring: Decodable { var id: String }
            var keyframe: Bool
            var rings: [Ring]
        }
        var board = Board(spec: BoardSpec(name: "b", width: 640, height: 360, background: Self.blue, rings: [Self.spec]))
        try board.apply(BoardPatch(rings: ["r": RingPatch(progress: 0.5)], animation: Animation.none), at: 0)
        let first = FrameComposer.frame(of: board, at: 0, seq: 1, wallClockMilliseconds: 0)
        let same = FrameComposer.frame(of: board, at: 1, seq: 2, wallClockMilliseconds: 0)
        let key = try JSONDecoder().decode(Message.self, from: Data(FrameEncoder.json(same, previous: nil)))
        let delta = try JSONDecoder().decode(Message.self, from: Data(FrameEncoder.json(same, previous: first)))
        #expect(key.keyframe && key.rings.map(\.id) == ["r"])
        #expect(!delta.keyframe && delta.rings.isEmpty)
    }
}
