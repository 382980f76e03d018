import Foundation
import RingCastCore
import Testing

/// Boards holding every widget kind (DESIGN §12) through the same definition, push, store and frame paths as
/// rings.
@Suite struct WidgetBoardTests {
    static let definition = """
        {"title":"Wall","rings":[
          {"id":"move"},
          {"id":"tests","kind":"counter","value":99,"unit":"tests","grouping":","},
          {"id":"status","kind":"text","text":"Deploying"},
          {"id":"load","kind":"indicator"},
          {"id":"mood","kind":"gradient","colors":["#ff0000","#00ff00","#0000ff"]}
        ]}
        """

    static func spec() throws -> BoardSpec {
        try RequestDecoder.decode(BoardDefinition.self, from: Array(definition.utf8)).spec(named: "wall", maximumRings: 255)
    }

    static func patch(_ json: String) throws -> BoardPatch {
        try RequestDecoder.decode(BoardPatch.self, from: Array(json.utf8))
    }

    @Test func definition_givesEveryKind() throws {
        let spec = try Self.spec()
        #expect(spec.rings.map(\.kind.name) == ["plain", "counter", "text", "indicator", "gradient"])
        #expect(spec.rings[1].value == 99)
        #expect(spec.rings[4].colors.count == 3)
    }

    @Test func counter_rollsFrom99To100AndRests() throws {
        var board = Board(spec: try Self.spec())
        #expect(board.label(ofRing: "tests", at: 0) == "99 tests")
        #expect(board.target(ofRing: "tests") == 99, "a GET reads the defined number as the target")
        try board.apply(Self.patch(#"{"rings":{"tests":{"value":100}},"animation":{"curve":"linear","duration":1}}"#), at: 0)
        let frame = FrameComposer.frame(of: board, at: 0.5, seq: 1, wallClockMilliseconds: 0)
        guard case .counter(let value, _, let digits) = frame.rings[1].widget else {
            Issue.record("not a counter frame")
            return
        }
        #expect(value == 99.5)
        #expect(digits == [.init(digit: 0, fraction: 0.5), .init(digit: 9, fraction: 0.5), .init(digit: 9, fraction: 0.5)])
        #expect(board.label(ofRing: "tests", at: 1) == "100 tests")
    }

    @Test func pushes_ofKeysAKindDoesNotTake_areRefused() throws {
        var board = Board(spec: try Self.spec())
        #expect(throws: APIError.self) { try board.apply(Self.patch(#"{"rings":{"tests":{"progress":0.5}}}"#), at: 0) }
        #expect(throws: APIError.self) { try board.apply(Self.patch(#"{"rings":{"move":{"text":"hi"}}}"#), at: 0) }
        #expect(throws: APIError.self) {
            try board.apply(Self.patch(##"{"rings":{"mood":{"colors":["#000000","#ffffff"]}}}"##), at: 0)
        }
        // An indicator shows the seed's fixed label: it refuses a label format, and does not offer one.
        let indicator = #expect(throws: APIError.self) {
            try board.apply(Self.patch(#"{"rings":{"load":{"label":"value"}}}"#), at: 0)
        }
        #expect(indicator?.field == "rings.load.label")
        #expect(indicator?.message.components(separatedBy: "give ").last?.contains("\"label\"") == false)
        #expect(board.revision == 0)
    }

    @Test func json_carriesTheFieldsOfDesign12() throws {
        var board = Board(spec: try Self.spec())
        try board.apply(Self.patch(#"{"rings":{"status":{"text":"Deployed"},"load":0.999}}"#), at: 0)
        let frame = FrameComposer.frame(of: board, at: 0.5, seq: 1, wallClockMilliseconds: 0)
        let text = try String(decoding: FrameEncoder.json(frame), as: UTF8.self)
        for key in ["\"digits\":[[", "\"scales\":[", "\"stops\":[[0,", "\"kind\":\"indicator\""] {
            #expect(text.contains(key) || key.contains("0.5"), "\(key) in \(text)")
        }
        #expect(board.label(ofRing: "load", at: 5) == "99 %")
        print(text)
        print(try String(decoding: FrameEncoder.json(FrameComposer.layout(of: board.spec)), as: UTF8.self))
    }
}
