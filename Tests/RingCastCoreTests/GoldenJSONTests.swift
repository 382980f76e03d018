import Foundation
import RingCastCore
import Testing

/// The produced messages against hand-written JSON in the shape of /work/contract/protocol-json.md.
/// Both sides are decoded into trees, so key order does not matter but every key, `null` and value does.
@Suite struct GoldenJSONTests {
    static let spec = BoardSpec(
        name: "main",
        width: 1280,
        height: 720,
        background: RGBAColor(red: 0, green: 0, blue: 0),
        rings: [
            Fixtures.ring("move"),
            Fixtures.ring("stand", cx: 900, cy: 330, r: 100, colors: [Palette.lightBlue, Palette.darkBlue]),
        ]
    )

    func expectSame(_ produced: [UInt8], _ golden: String) throws {
        let actual = try JSONValue(decoding: produced)
        let expected = try JSONValue(decoding: Array(golden.utf8))
        let differences = actual.differences(from: expected, tolerance: 1e-9)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test func frame_matchesTheContract() throws {
        var board = Board(spec: Self.spec)
        board.restore(targets: ["move": 0.5], colors: [:])
        let frame = FrameComposer.frame(of: board, at: 100, seq: 812, wallClockMilliseconds: 1_763_700_000_123.4)
        try expectSame(
            try FrameEncoder.json(frame),
            """
            {"type":"frame","board":"main","seq":812,"t":1763700000123.4,
             "rings":[
              {"id":"move","p":0.5,"a0":-1.5707963267948966,"a1":1.5707963267948966,
               "gradient":{"start":-1.5707963267948966,
                           "stops":[[0,"#e74c3cff"],[0.5,"#c0392bff"],[0.75,"#c0392bff"],[0.75,"#e74c3cff"],[1,"#e74c3cff"]]},
               "cap":{"x":0,"y":-220,"color":"#e74c3cff","visible":true},
               "tip":{"x":0,"y":220,"color":"#c0392bff","visible":false,
                      "shadow":{"dx":-13.813914296448957,"dy":-0.4341197457802082,"blur":2,"alpha":0.15}},
               "label":"50%","labelColor":"#ffffffff"},
              {"id":"stand","p":null,"a0":-1.5707963267948966,"a1":-1.5707963267948966,
               "gradient":{"start":-1.5707963267948966,
                           "stops":[[0,"#3498dbff"],[0,"#2980b9ff"],[0.5,"#2980b9ff"],[0.5,"#3498dbff"],[1,"#3498dbff"]]},
               "cap":{"x":0,"y":-100,"color":"#3498dbff","visible":false},
               "tip":{"x":0,"y":-100,"color":"#2980b9ff","visible":false,
                      "shadow":{"dx":6.279051952931346,"dy":0.19732715717285032,"blur":2,"alpha":0.15}},
               "label":"—","labelColor":"#ffffffff"}],
             "background":{"color":"#000000ff","text":"#f2f2f7ff","splash":[]}}
            """
        )
    }

    @Test func layout_matchesTheContract() throws {
        try expectSame(
            try FrameEncoder.json(FrameComposer.layout(of: Self.spec)),
            """
            {"type":"layout","board":"main","title":"main","background":"#000000ff",
             "rings":[
              {"id":"move","title":"Move","kind":"plain","r":220,"thickness":38,
               "track":"#2c2c2eff","titleColor":"#8e8e93ff"},
              {"id":"stand","title":"Stand","kind":"plain","r":100,"thickness":38,
               "track":"#2c2c2eff","titleColor":"#8e8e93ff"}],
             "arrangements":[
              {"name":"landscape","width":1280,"height":720,
               "rings":[
                {"id":"move","cx":300,"cy":330,"r":220,"thickness":38,
                 "titleText":{"x":140,"y":615,"size":20,"align":"center"},
                 "labelText":{"x":140,"y":660,"size":34,"align":"center"}},
                {"id":"stand","cx":900,"cy":330,"r":100,"thickness":38,
                 "titleText":{"x":140,"y":615,"size":20,"align":"center"},
                 "labelText":{"x":140,"y":660,"size":34,"align":"center"}}]}]}
            """
        )
    }

    @Test func automaticTextColours_matchTheContract() throws {
        var automatic = Fixtures.ring("move")
        automatic.titleColor = nil
        automatic.labelColor = nil
        let spec = BoardSpec(name: "main", width: 1280, height: 720, background: Palette.purpleBg, rings: [automatic])
        try expectSame(
            try FrameEncoder.json(FrameComposer.layout(of: spec)),
            """
            {"type":"layout","board":"main","title":"main","background":"#4533c9ff",
             "rings":[
              {"id":"move","title":"Move","kind":"plain","r":220,"thickness":38,
               "track":"#2c2c2eff","titleColor":null}],
             "arrangements":[
              {"name":"landscape","width":1280,"height":720,
               "rings":[
                {"id":"move","cx":300,"cy":330,"r":220,"thickness":38,
                 "titleText":{"x":140,"y":615,"size":20,"align":"center"},
                 "labelText":{"x":140,"y":660,"size":34,"align":"center"}}]}]}
            """
        )
        // On a white background the automatic label and the text colour turn dark.
        var board = Board(spec: spec)
        try board.apply(BackgroundUpdate(color: RGBAColor(red: 1, green: 1, blue: 1), animation: Animation.none), at: 1)
        let frame = FrameComposer.frame(of: board, at: 2, seq: 1, wallClockMilliseconds: 0)
        try expectSame(encoded(frame.background), ##"{"color":"#ffffffff","text":"#1c1c1eff","splash":[]}"##)
        #expect(frame.rings[0].labelColor.hex == "#1c1c1eff")
    }

    @Test func encoding_isDeterministic() throws {
        var board = Board(spec: Self.spec)
        board.restore(targets: ["move": 0.73], colors: [:])
        let frame = FrameComposer.frame(of: board, at: 0, seq: 1, wallClockMilliseconds: 0)
        #expect(try FrameEncoder.json(frame) == FrameEncoder.json(frame))
        #expect(try FrameEncoder.json(frame).starts(with: Array(#"{"background":"#.utf8)))
    }

    @Test func backgroundWithASplashLayer_matchesTheContract() throws {
        var board = Board(spec: Self.spec)
        try board.apply(
            BackgroundUpdate(color: Palette.purpleBg, transition: .angle(45), animation: .timing(.linear, duration: 1)), at: 10)
        let frame = FrameComposer.frame(of: board, at: 10.25, seq: 3, wallClockMilliseconds: 0)
        // 1280 × 720, swept across its reach: the board extended by 1280 on every side, 3840 × 3280 from
        // (−1280, −1280). At 45°: b = H + W = 7120, legs 7120·p = 1780 at p = 0.25 from the reach's top-left.
        try expectSame(
            encoded(frame.background),
            """
            {"color":"#000000ff","text":"#f2f2f7ff",
             "splash":[{"style":"angle","angle":45,"color":"#4533c9ff","progress":0.25,
                        "shapes":[{"polygon":[[-1280,-1280],[500,-1280],[-1280,500]]}]}]}
            """
        )
    }

    /// A board the server laid out: a portrait arrangement next to its own, with text widths.
    static let shaped: BoardSpec = {
        var spec = BoardSpec(
            name: "ci", title: "CI builds", width: 1280, height: 720, background: RGBAColor(red: 0, green: 0, blue: 0),
            rings: [Fixtures.ring("move")])
        spec.alternates = [
            Arrangement(
                name: "portrait", width: 720, height: 1280,
                placements: [
                    RingPlacement(
                        id: "move", cx: 360, cy: 400,
                        titleText: TextSpec(x: 360, y: 680, size: 20, align: "center", width: 600),
                        labelText: TextSpec(x: 360, y: 720, size: 34, align: "center", width: 600))
                ])
        ]
        return spec
    }()

    @Test func layoutWithTwoArrangements_matchesTheContract() throws {
        try expectSame(
            try FrameEncoder.json(FrameComposer.layout(of: Self.shaped)),
            """
            {"type":"layout","board":"ci","title":"CI builds","background":"#000000ff",
             "rings":[
              {"id":"move","title":"Move","kind":"plain","r":220,"thickness":38,
               "track":"#2c2c2eff","titleColor":"#8e8e93ff"}],
             "arrangements":[
              {"name":"landscape","width":1280,"height":720,
               "rings":[
                {"id":"move","cx":300,"cy":330,"r":220,"thickness":38,
                 "titleText":{"x":140,"y":615,"size":20,"align":"center"},
                 "labelText":{"x":140,"y":660,"size":34,"align":"center"}}]},
              {"name":"portrait","width":720,"height":1280,
               "rings":[
                {"id":"move","cx":360,"cy":400,"r":220,"thickness":38,
                 "titleText":{"x":360,"y":680,"size":20,"align":"center","width":600},
                 "labelText":{"x":360,"y":720,"size":34,"align":"center","width":600}}]}]}
            """
        )
    }

    @Test func splashOnABoardWithTwoArrangements_hasOneShapePerArrangement() throws {
        var board = Board(spec: Self.shaped)
        try board.apply(
            BackgroundUpdate(color: Palette.purpleBg, transition: .leftToRight, animation: .timing(.linear, duration: 1)),
            at: 10)
        let frame = FrameComposer.frame(of: board, at: 10.5, seq: 3, wallClockMilliseconds: 0)
        // Each swept across its own reach: 1280 × 720 extended by 1280 (3840 wide from −1280), and
        // 720 × 1280 extended by 1280 (3280 wide from −1280, 3840 high); halfway, x reaches −1280 + W/2.
        try expectSame(
            encoded(frame.background),
            """
            {"color":"#000000ff","text":"#f2f2f7ff",
             "splash":[{"style":"leftToRight","color":"#4533c9ff","progress":0.5,
                        "shapes":[{"polygon":[[-1280,-1280],[640,-1280],[640,2000],[-1280,2000]]},
                                  {"polygon":[[-1280,-1280],[360,-1280],[360,2560],[-1280,2560]]}]}]}
            """
        )
    }

    @Test func countdownRing_matchesTheContract() throws {
        let spec = BoardSpec(
            name: "main", width: 1280, height: 720, background: RGBAColor(red: 0, green: 0, blue: 0),
            rings: [Fixtures.ring("countdown", kind: .countdown, cx: 900, cy: 330, r: 100)])
        var board = Board(spec: spec)
        try board.startCountdown(seconds: 3, at: 100)
        let frame = FrameComposer.frame(of: board, at: 101.5, seq: 9, wallClockMilliseconds: 0)
        try expectSame(
            encoded(frame.rings[0]),
            """
            {"id":"countdown","p":0.5,"a0":-1.5707963267948966,"a1":1.5707963267948966,
             "gradient":{"start":-1.5707963267948966,
                         "stops":[[0,"#e74c3cff"],[0.5,"#c0392bff"],[0.75,"#c0392bff"],[0.75,"#e74c3cff"],[1,"#e74c3cff"]]},
             "cap":{"x":0,"y":-100,"color":"#e74c3cff","visible":true},
             "tip":{"x":0,"y":100,"color":"#c0392bff","visible":false,
                    "shadow":{"dx":-6.279051952931354,"dy":-0.1973271571728219,"blur":2,"alpha":0.15}},
             "label":"2s","labelColor":"#ffffffff"}
            """
        )
    }

    func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(value))
    }
}
