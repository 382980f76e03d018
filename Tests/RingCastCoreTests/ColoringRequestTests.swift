import Foundation
import Testing

@testable import RingCastCore

/// `status` and `thresholds` as requests, definitions and boards take them: every form that is accepted, every
/// refusal with its status, code and field, and the kinds that take them (`Board.keysTaken(by:)`).
@Suite("Status and thresholds requests")
struct ColoringRequestTests {
    static let red = RGBAColor(hex: "#e74c3c")!
    static let yellow = RGBAColor(hex: "#f1c40f")!
    static let green = RGBAColor(hex: "#2ecc71")!

    func decodePatch(_ body: String) throws(APIError) -> BoardPatch {
        try RequestDecoder.decode(BoardPatch.self, from: Array(body.utf8))
    }

    @Test func statusAndThresholds_decodeInEveryForm() throws {
        let patch = try decodePatch(
            #"""
            {"rings":{"build":{"status":"running"},"tests":{"status":null},"coverage":{"progress":0.7,
             "thresholds":[[0,"#e74c3c"],[0.5,["#f1c40f","#f39c12"]],[0.9,"#2ecc71"]]},"lint":{"thresholds":null}}}
            """#)
        #expect(patch.rings["build"] == RingPatch(coloring: .status(.running)))
        #expect(patch.rings["tests"] == RingPatch(coloring: .definition(key: "status")))
        #expect(patch.rings["lint"] == RingPatch(coloring: .definition(key: "thresholds")))
        let expected = Thresholds([
            .init(value: 0, color: Self.red), .init(value: 0.5, colors: [Self.yellow, RGBAColor(hex: "#f39c12")!]),
            .init(value: 0.9, color: Self.green),
        ])
        #expect(patch.rings["coverage"] == RingPatch(progress: 0.7, coloring: .thresholds(expected)))
        let update = try RequestDecoder.decode(RingUpdate.self, from: Array(#"{"status":"failure"}"#.utf8))
        #expect(update == RingUpdate(coloring: .status(.failure)))
    }

    static let eight = (0..<8).map { "[\(Double($0) / 10),\"#ffffff\"]" }.joined(separator: ",")

    static let refused: [RefusedBody] = [
        .init(#"{"rings":{"move":{"status":"green"}}}"#, 422, "invalid_value", "rings.move.status"),
        .init(#"{"rings":{"move":{"status":3}}}"#, 400, "malformed", "rings.move.status"),
        .init(#"{"rings":{"move":{"status":["success"]}}}"#, 400, "malformed", "rings.move.status"),
        .init(
            ##"{"rings":{"move":{"colors":["#e74c3c","#c0392b"],"status":"success"}}}"##, 422, "invalid_value",
            "rings.move.status"),
        .init(
            ##"{"rings":{"move":{"status":"success","thresholds":[[0,"#e74c3c"]]}}}"##, 422, "invalid_value",
            "rings.move.thresholds"),
        .init(##"{"rings":{"move":{"status":null,"thresholds":null}}}"##, 422, "invalid_value", "rings.move.thresholds"),
        .init(#"{"rings":{"move":{"thresholds":{}}}}"#, 400, "malformed", "rings.move.thresholds"),
        .init(##"{"rings":{"move":{"thresholds":"#e74c3c"}}}"##, 400, "malformed", "rings.move.thresholds"),
        .init(#"{"rings":{"move":{"thresholds":[]}}}"#, 422, "invalid_value", "rings.move.thresholds"),
        .init(
            ##"{"rings":{"move":{"thresholds":[\##(eight),[0.9,"#000000"]]}}}"##, 422, "invalid_value", "rings.move.thresholds"),
        .init(#"{"rings":{"move":{"thresholds":[0.5]}}}"#, 400, "malformed", "rings.move.thresholds.0"),
        .init(#"{"rings":{"move":{"thresholds":[[0.5]]}}}"#, 400, "malformed", "rings.move.thresholds.0"),
        .init(##"{"rings":{"move":{"thresholds":[[0.5,"#fff000",1]]}}}"##, 400, "malformed", "rings.move.thresholds.0"),
        .init(##"{"rings":{"move":{"thresholds":[["a","#e74c3c"]]}}}"##, 400, "malformed", "rings.move.thresholds.0.0"),
        .init(##"{"rings":{"move":{"thresholds":[[1e400,"#e74c3c"]]}}}"##, 400, "malformed", "rings.move.thresholds.0.0"),
        .init(##"{"rings":{"move":{"thresholds":[[11,"#e74c3c"]]}}}"##, 422, "out_of_range", "rings.move.thresholds.0.0"),
        .init(##"{"rings":{"move":{"thresholds":[[-0.1,"#e74c3c"]]}}}"##, 422, "out_of_range", "rings.move.thresholds.0.0"),
        .init(
            ##"{"rings":{"move":{"thresholds":[[0.5,"#e74c3c"],[0.5,"#2ecc71"]]}}}"##, 422, "invalid_value",
            "rings.move.thresholds.1.0"),
        .init(
            ##"{"rings":{"move":{"thresholds":[[0.5,"#e74c3c"],[0.2,"#2ecc71"]]}}}"##, 422, "invalid_value",
            "rings.move.thresholds.1.0"),
        .init(##"{"rings":{"move":{"thresholds":[[0,"red"]]}}}"##, 422, "invalid_value", "rings.move.thresholds.0.1"),
        .init(##"{"rings":{"move":{"thresholds":[[0,3]]}}}"##, 400, "malformed", "rings.move.thresholds.0.1"),
        .init(##"{"rings":{"move":{"thresholds":[[0,["#e74c3c"]]]}}}"##, 422, "invalid_value", "rings.move.thresholds.0.1"),
        .init(
            ##"{"rings":{"move":{"thresholds":[[0,["#e74c3c","#e74c3c","#e74c3c"]]]}}}"##, 422, "invalid_value",
            "rings.move.thresholds.0.1"),
        .init(
            ##"{"rings":{"move":{"thresholds":[[0,["#e74c3c","#zzz"]]]}}}"##, 422, "invalid_value",
            "rings.move.thresholds.0.1.1"),
    ]

    @Test(arguments: refused)
    func refusedBody_namesTheField(refused: RefusedBody) {
        let error = #expect(throws: APIError.self) { try decodePatch(refused.body) }
        #expect(error?.status == refused.status)
        #expect(error?.code == refused.code)
        #expect(error?.field == refused.field)
        #expect(error?.message.isEmpty == false)
    }

    @Test func messagesSayWhatIsExpected() {
        let status = #expect(throws: APIError.self) { try decodePatch(#"{"rings":{"move":{"status":"green"}}}"#) }
        #expect(
            status?.message
                == #"status must be one of "success", "failure", "running", "warning", "unknown" or null (back to the ring's own colours), got "green""#
        )
        let order = #expect(throws: APIError.self) {
            try decodePatch(##"{"rings":{"move":{"thresholds":[[0.5,"#e74c3c"],[0.2,"#2ecc71"]]}}}"##)
        }
        #expect(order?.message == "threshold values must rise strictly: 0.2 follows 0.5")
    }

    /// What a kind takes is `Board.keysTaken(by:)`: a counter, text or gradient widget refuses both keys, naming
    /// them and what it takes; a derived or countdown ring takes them though its value is the server's.
    @Test(
        arguments: [
            (
                "passed", #"{"status":"success"}"#, "status",
                #"counter widget "passed" takes no "status": give "value", "labelColor", "title""#
            ),
            ("greeting", ##"{"thresholds":[[0,"#e74c3c"]]}"##, "thresholds", nil),
            ("mood", #"{"status":"failure"}"#, "status", nil),
            ("overall", #"{"status":"running"}"#, nil, nil),
            ("countdown", ##"{"thresholds":[[0,"#2ecc71"],[0.8,"#e74c3c"]]}"##, nil, nil),
            ("coverage", #"{"status":"warning"}"#, nil, nil),
            ("overall", ##"{"colors":["#e74c3c","#c0392b"]}"##, "", nil),
        ] as [(String, String, String?, String?)])
    func kindsTakeWhatKeysTakenSays(ring: String, body: String, refusedField: String?, message: String?) throws {
        var board = Board(spec: Self.widgetBoard)
        let update = try RequestDecoder.decode(RingUpdate.self, from: Array(body.utf8))
        let before = board
        if let refusedField {
            let error = #expect(throws: APIError.self) { try board.apply(update, toRing: ring, at: 0) }
            #expect(error?.status == 422)
            if !refusedField.isEmpty { #expect(error?.field == refusedField) }
            if let message { #expect(error?.message == message) }
            #expect(board == before, "a refused push changes nothing")
        } else {
            try board.apply(update, toRing: ring, at: 0)
            #expect(board.revision == 1)
        }
    }

    static let widgetBoard: BoardSpec = {
        var spec = Fixtures.board
        spec.rings += [
            Fixtures.ring("passed", kind: .counter(format: CounterFormat()), r: 50),
            Fixtures.ring("greeting", kind: .text(waveWidth: 6), r: 50),
            Fixtures.ring("mood", kind: .gradient, r: 50),
            Fixtures.ring("coverage", kind: .indicator, r: 50),
        ]
        return spec
    }()

    // MARK: Definitions

    @Test func aDefinition_takesAStatusOrThresholds() throws {
        let status = try RequestDecoder.decode(NewRing.self, from: Array(#"{"id":"build","status":"running"}"#.utf8)).ring
        #expect(status.status == .running)
        #expect(status.placed(at: 0).colors == RingStatus.running.colors && status.placed(at: 0).status == .running)
        let thresholds = try RequestDecoder.decode(
            NewRing.self,
            from: Array(##"{"id":"cov","kind":"indicator","thresholds":[[0,"#e74c3c"],[0.8,"#2ecc71"]]}"##.utf8))
        #expect(thresholds.ring.placed(at: 0).thresholds?.entries.count == 2)
        let board = try RequestDecoder.decode(
            BoardDefinition.self, from: Array(#"{"rings":[{"id":"build","status":"success"},{"id":"tests"}]}"#.utf8)
        ).spec(named: "ci", maximumRings: 32)
        let live = Board(spec: board)
        #expect(live.status(ofRing: "build") == .success && live.colors(ofRing: "build", at: 0) == RingStatus.success.colors)
        #expect(live.snapshot(at: 0).rings[0].status == .success)
    }

    @Test(arguments: [
        RefusedBody(#"{"id":"b","status":null}"#, 400, "malformed", "status"),
        RefusedBody(#"{"id":"b","thresholds":null}"#, 400, "malformed", "thresholds"),
        RefusedBody(#"{"id":"b","status":"green"}"#, 422, "invalid_value", "status"),
        RefusedBody(#"{"id":"b","kind":"counter","status":"success"}"#, 422, "invalid_value", "status"),
        RefusedBody(##"{"id":"b","kind":"gradient","thresholds":[[0,"#ffffff"]]}"##, 422, "invalid_value", "thresholds"),
        RefusedBody(##"{"id":"b","colors":["#ffffff","#000000"],"status":"success"}"##, 422, "invalid_value", "status"),
        RefusedBody(##"{"id":"b","thresholds":[[0.4,"#ffffff"],[0.1,"#000000"]]}"##, 422, "invalid_value", "thresholds.1.0"),
    ])
    func aRefusedDefinition_namesTheField(refused: RefusedBody) {
        let error = #expect(throws: APIError.self) {
            try RequestDecoder.decode(NewRing.self, from: Array(refused.body.utf8))
        }
        #expect(error?.status == refused.status)
        #expect(error?.code == refused.code)
        #expect(error?.field == refused.field)
    }

    @Test func aBoardsGET_showsStatusThresholdsAndTheBandOfTheTarget() throws {
        var board = Board(spec: Fixtures.board)
        let thresholds = Thresholds([.init(value: 0, color: Self.red), .init(value: 0.5, color: Self.green)])
        try board.apply(
            BoardPatch(
                rings: [
                    "move": RingPatch(progress: 0.6, coloring: .thresholds(thresholds)),
                    "stand": RingPatch(coloring: .status(.warning)),
                ]), at: 0)
        let json = try String(decoding: board.snapshot(at: 0).jsonBody(), as: UTF8.self)
        #expect(json.contains(#""status":"warning""#))
        #expect(json.contains(##""thresholds":[[0,"#e74c3cff"],[0.5,"#2ecc71ff"]]"##))
        let move = board.snapshot(at: 0).rings[0]
        #expect(move.colors == [Self.green, Self.green] && move.thresholds == thresholds && move.status == nil)
        #expect(!json.contains(#""status":null"#), "no status key on rings without one")
    }
}
