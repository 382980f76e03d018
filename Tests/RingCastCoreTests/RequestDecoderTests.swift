import Foundation
import RingCastCore
import Testing

/// A body the API must refuse, and how.
struct RefusedBody: Sendable, CustomTestStringConvertible {
    let body: String
    let status: Int
    let code: String
    let field: String?

    init(_ body: String, _ status: Int, _ code: String, _ field: String?) {
        self.body = body
        self.status = status
        self.code = code
        self.field = field
    }

    var testDescription: String { body.isEmpty ? "(empty body)" : body }
}

@Suite struct RequestDecoderTests {
    func decodePatch(_ body: String) throws(APIError) -> BoardPatch {
        try RequestDecoder.decode(BoardPatch.self, from: Array(body.utf8))
    }

    @Test func bareNumber_isAProgressWithTheRequestsAnimation() throws {
        let patch = try decodePatch(#"{"rings":{"move":0.8}}"#)
        #expect(patch == BoardPatch(rings: ["move": RingPatch(progress: 0.8)], animation: nil))
    }

    @Test func designExample_decodesEveryForm() throws {
        let patch = try decodePatch(
            #"""
            {"rings":{"move":0.8, "task2":{"progress":0.4,"animation":"easeIn"},
             "stand":{"colors":["#2ecc71","#3498DBcc"]}}, "animation":{"curve":"easeOut","duration":0.6}}
            """#
        )
        #expect(patch.rings["move"] == RingPatch(progress: 0.8))
        #expect(patch.rings["task2"] == RingPatch(progress: 0.4, animation: .timing(.easeIn, duration: 1)))
        #expect(patch.rings["stand"] == RingPatch(colors: [RGBAColor(hex: "#2ecc71")!, RGBAColor(hex: "#3498dbcc")!]))
        #expect(patch.animation == .timing(.easeOut, duration: 0.6))
    }

    @Test(arguments: [
        (#""none""#, Animation.none),
        (#""linear""#, .timing(.linear, duration: 1)),
        (#""easeInOut""#, .timing(.easeInOut, duration: 1)),
        (#"{}"#, .timing(.easeInOut, duration: 1)),
        (#"{"curve":"easeOut"}"#, .timing(.easeOut, duration: 1)),
        (#"{"duration":60}"#, .timing(.easeInOut, duration: 60)),
        (#"{"curve":"linear","duration":0.001}"#, .timing(.linear, duration: 0.001)),
        (#""smooth""#, .spring(.smooth)),
        (#""snappy""#, .spring(.snappy)),
        (#""bouncy""#, .spring(.bouncy)),
        (#"{"spring":{}}"#, .spring(Spring())),
        (#"{"spring":{"response":0.3}}"#, .spring(Spring(response: 0.3, dampingFraction: 0.825))),
        (#"{"spring":{"dampingFraction":0.5}}"#, .spring(Spring(response: 0.5, dampingFraction: 0.5))),
        (#"{"spring":{"response":60,"dampingFraction":10}}"#, .spring(Spring(response: 60, dampingFraction: 10))),
        (#"{"spring":{"response":0.5,"dampingFraction":0.825}}"#, .spring(Spring())),
        (#"{"spring":{"duration":0.5,"bounce":0.2}}"#, .spring(Spring(duration: 0.5, bounce: 0.2))),
        (#"{"spring":{"duration":0.8}}"#, .spring(Spring(response: 0.8, dampingFraction: 1))),
        (#"{"spring":{"bounce":-0.5}}"#, .spring(Spring(response: 0.5, dampingFraction: 2))),
        (#"{"spring":{"bounce":0.3}}"#, .spring(.bouncy)),
    ])
    func animationForms_decode(json: String, expected: Animation) throws {
        let patch = try decodePatch(#"{"rings":{"move":1},"animation":"# + json + "}")
        #expect(patch.animation == expected)
    }

    @Test(arguments: [0.0, 10.0, 1.5])
    func progressLimits_areInclusive(progress: Double) throws {
        let patch = try decodePatch(#"{"rings":{"move":{"progress":"# + String(progress) + "}}}")
        #expect(patch.rings["move"]?.progress == progress)
    }

    static let refused: [RefusedBody] = [
        .init("", 400, "malformed", nil),
        .init("not json", 400, "malformed", nil),
        .init(#"{"rings":{"move":0.5}"#, 400, "malformed", nil),
        .init("[1]", 400, "malformed", nil),
        .init("5", 400, "malformed", nil),
        .init("{}", 400, "malformed", "rings"),
        .init(#"{"rings":[0.5]}"#, 400, "malformed", "rings"),
        .init(#"{"rings":{}}"#, 422, "invalid_value", "rings"),
        .init(#"{"ring":{"move":0.5}}"#, 400, "unknown_field", "ring"),
        .init(#"{"rings":{"move":0.5},"extra":1}"#, 400, "unknown_field", "extra"),
        .init(#"{"rings":{"move":"0.5"}}"#, 400, "malformed", "rings.move"),
        .init(#"{"rings":{"move":true}}"#, 400, "malformed", "rings.move"),
        .init(#"{"rings":{"move":-0.1}}"#, 422, "out_of_range", "rings.move"),
        .init(#"{"rings":{"move":10.01}}"#, 422, "out_of_range", "rings.move"),
        .init(#"{"rings":{"move":1e400}}"#, 400, "malformed", "rings.move"),
        .init(#"{"rings":{"move":{"progress":"x"}}}"#, 400, "malformed", "rings.move.progress"),
        .init(#"{"rings":{"move":{"progress":11}}}"#, 422, "out_of_range", "rings.move.progress"),
        .init(#"{"rings":{"move":{"progress":-1e400}}}"#, 400, "malformed", "rings.move.progress"),
        .init(#"{"rings":{"move":{"progres":0.5}}}"#, 400, "unknown_field", "rings.move.progres"),
        .init(##"{"rings":{"move":0.5,"stand":{"colors":["#2ecc71"]}}}"##, 422, "invalid_value", "rings.stand.colors"),
        // Three colours decode (a gradient widget takes 2 to 8); the board refuses them for a ring (WidgetBoardTests).
        .init(
            ##"{"rings":{"stand":{"colors":["#000000","#000000","#000000","#000000","#000000","#000000","#000000","#000000","#000000"]}}}"##,
            422, "invalid_value", "rings.stand.colors"),
        .init(#"{"rings":{"stand":{"colors":[]}}}"#, 422, "invalid_value", "rings.stand.colors"),
        .init(##"{"rings":{"stand":{"colors":["#2ecc71","blue"]}}}"##, 422, "invalid_value", "rings.stand.colors.1"),
        .init(##"{"rings":{"stand":{"colors":["#2ecc7","#3498db"]}}}"##, 422, "invalid_value", "rings.stand.colors.0"),
        .init(##"{"rings":{"stand":{"colors":["#2ecc71",5]}}}"##, 400, "malformed", "rings.stand.colors.1"),
        .init(##"{"rings":{"stand":{"colors":"#2ecc71"}}}"##, 400, "malformed", "rings.stand.colors"),
        .init(#"{"rings":{"move":0.5},"animation":"wobble"}"#, 422, "invalid_value", "animation"),
        .init(#"{"rings":{"move":0.5},"animation":5}"#, 400, "malformed", "animation"),
        .init(#"{"rings":{"move":0.5},"animation":null}"#, 400, "malformed", "animation"),
        .init(#"{"rings":{"move":0.5},"animation":{"curve":"bounce"}}"#, 422, "invalid_value", "animation.curve"),
        .init(#"{"rings":{"move":0.5},"animation":{"curve":1}}"#, 400, "malformed", "animation.curve"),
        .init(#"{"rings":{"move":0.5},"animation":{"duration":0}}"#, 422, "out_of_range", "animation.duration"),
        .init(#"{"rings":{"move":0.5},"animation":{"duration":-1}}"#, 422, "out_of_range", "animation.duration"),
        .init(#"{"rings":{"move":0.5},"animation":{"duration":60.5}}"#, 422, "out_of_range", "animation.duration"),
        .init(#"{"rings":{"move":0.5},"animation":{"duration":"1"}}"#, 400, "malformed", "animation.duration"),
        .init(#"{"rings":{"move":0.5},"animation":{"curve":"easeIn","speed":2}}"#, 400, "unknown_field", "animation.speed"),
        .init(#"{"rings":{"move":0.5},"animation":"spring"}"#, 422, "invalid_value", "animation"),
        .init(#"{"rings":{"move":0.5},"animation":"Bouncy"}"#, 422, "invalid_value", "animation"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":0.5}}"#, 400, "malformed", "animation.spring"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":null}}"#, 400, "malformed", "animation.spring"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":"bouncy"}}"#, 400, "malformed", "animation.spring"),
        .init(
            #"{"rings":{"move":0.5},"animation":{"spring":{"stiffness":100}}}"#, 400, "unknown_field",
            "animation.spring.stiffness"),
        .init(
            #"{"rings":{"move":0.5},"animation":{"spring":{"response":0.5,"bounce":0.2}}}"#, 422, "invalid_value",
            "animation.spring"),
        .init(
            #"{"rings":{"move":0.5},"animation":{"spring":{"duration":0.5,"dampingFraction":1}}}"#, 422, "invalid_value",
            "animation.spring"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":{},"duration":1}}"#, 422, "invalid_value", "animation"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":{},"curve":"linear"}}"#, 422, "invalid_value", "animation"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":{"response":0}}}"#, 422, "out_of_range", "animation.spring.response"),
        .init(
            #"{"rings":{"move":0.5},"animation":{"spring":{"response":60.1}}}"#, 422, "out_of_range", "animation.spring.response"),
        .init(
            #"{"rings":{"move":0.5},"animation":{"spring":{"response":-1}}}"#, 422, "out_of_range", "animation.spring.response"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":{"response":"1"}}}"#, 400, "malformed", "animation.spring.response"),
        .init(
            #"{"rings":{"move":0.5},"animation":{"spring":{"response":1e400}}}"#, 400, "malformed", "animation.spring.response"),
        .init(
            #"{"rings":{"move":0.5},"animation":{"spring":{"dampingFraction":0}}}"#, 422, "out_of_range",
            "animation.spring.dampingFraction"),
        .init(
            #"{"rings":{"move":0.5},"animation":{"spring":{"dampingFraction":10.5}}}"#, 422, "out_of_range",
            "animation.spring.dampingFraction"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":{"duration":0}}}"#, 422, "out_of_range", "animation.spring.duration"),
        .init(
            #"{"rings":{"move":0.5},"animation":{"spring":{"duration":61}}}"#, 422, "out_of_range", "animation.spring.duration"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":{"bounce":1}}}"#, 422, "out_of_range", "animation.spring.bounce"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":{"bounce":-1}}}"#, 422, "out_of_range", "animation.spring.bounce"),
        .init(#"{"rings":{"move":0.5},"animation":{"spring":{"bounce":true}}}"#, 400, "malformed", "animation.spring.bounce"),
        .init(
            #"{"rings":{"move":{"progress":0.5,"animation":{"spring":{"bounce":2}}}}}"#, 422, "out_of_range",
            "rings.move.animation.spring.bounce"),
        .init(
            #"{"rings":{"move":{"progress":0.5,"animation":{"duration":1e400}}}}"#, 400, "malformed",
            "rings.move.animation.duration"),
        .init(#"{"rings":{"move":{"progress":0.5,"animation":"fast"}}}"#, 422, "invalid_value", "rings.move.animation"),
    ]

    @Test(arguments: refused)
    func refusedBody_throwsAPIErrorWithStatusCodeAndField(refused: RefusedBody) {
        let error = #expect(throws: APIError.self) { try decodePatch(refused.body) }
        #expect(error?.status == refused.status)
        #expect(error?.code == refused.code)
        #expect(error?.field == refused.field)
        #expect(error?.message.isEmpty == false)
    }

    @Test func ringUpdate_acceptsTheSameFormsAsAPatchEntry() throws {
        let update = try RequestDecoder.decode(
            RingUpdate.self,
            from: Array(#"{"progress":0.75,"animation":{"curve":"linear","duration":2}}"#.utf8)
        )
        #expect(update == RingUpdate(progress: 0.75, animation: .timing(.linear, duration: 2)))
        #expect(try RequestDecoder.decode(RingUpdate.self, from: Array("0.25".utf8)) == RingUpdate(progress: 0.25))
    }

    @Test(arguments: [
        RefusedBody(#"{"progress":"x"}"#, 400, "malformed", "progress"),
        RefusedBody(#"{"progress":0.5,"foo":1}"#, 400, "unknown_field", "foo"),
        RefusedBody(#"{"progress":12}"#, 422, "out_of_range", "progress"),
        RefusedBody(##"{"colors":["#fff","#000"]}"##, 422, "invalid_value", "colors.0"),
        RefusedBody(#"[]"#, 400, "malformed", nil),
    ])
    func refusedRingUpdate_namesTheFieldOfThePutBody(refused: RefusedBody) {
        let error = #expect(throws: APIError.self) {
            try RequestDecoder.decode(RingUpdate.self, from: Array(refused.body.utf8))
        }
        #expect(error?.status == refused.status)
        #expect(error?.code == refused.code)
        #expect(error?.field == refused.field)
    }

    @Test func unknownKeyError_saysWhichKeysAreAllowed() {
        let error = #expect(throws: APIError.self) { try decodePatch(#"{"rings":{"move":{"progres":0.5}}}"#) }
        #expect(error?.message.contains("\"progres\"") == true)
        #expect(error?.message.contains("\"progress\"") == true)
    }

    @Test func apiError_encodesAsTheDesignsErrorBody() throws {
        struct Body: Decodable, Equatable {
            struct Inner: Decodable, Equatable {
                let code: String
                let message: String
                let field: String?
            }
            let error: Inner
        }
        let withField = APIError.unprocessable("progress must be a number from 0 to 10", field: "rings.move.progress")
        #expect(withField.status == 422 && withField.code == "out_of_range")
        let decoded = try JSONDecoder().decode(Body.self, from: Data(withField.jsonBody))
        #expect(
            decoded
                == Body(
                    error: .init(
                        code: "out_of_range", message: "progress must be a number from 0 to 10", field: "rings.move.progress")))

        let withoutField = APIError.notFound("no board \"x\"")
        #expect(withoutField.status == 404 && withoutField.code == "not_found")
        let keys = try JSONDecoder().decode([String: [String: String]].self, from: Data(withoutField.jsonBody))
        #expect(keys == ["error": ["code": "not_found", "message": "no board \"x\""]])
        #expect(APIError.malformed("x").status == 400)
    }

    // MARK: Background

    static let red = RGBAColor(hex: "#e74c3c")!

    @Test(arguments: [
        (##"{"color":"#e74c3c"}"##, BackgroundUpdate(color: red), Animation.timing(.easeInOut, duration: 0.5)),
        (
            ##"{"color":"#e74c3c","transition":"circle","duration":0.5}"##,
            BackgroundUpdate(color: red, transition: .circle, duration: 0.5), .timing(.easeInOut, duration: 0.5)
        ),
        (
            ##"{"color":"#E74C3CFF","transition":{"angle":45}}"##, BackgroundUpdate(color: red, transition: .angle(45)),
            .timing(.easeInOut, duration: 0.5)
        ),
        (
            ##"{"color":"#e74c3c","transition":{"angle":-90.5}}"##, BackgroundUpdate(color: red, transition: .angle(-90.5)),
            .timing(.easeInOut, duration: 0.5)
        ),
        (
            ##"{"color":"#e74c3c","transition":"bottomToTop","animation":"none"}"##,
            BackgroundUpdate(color: red, transition: .bottomToTop, animation: Animation.none), Animation.none
        ),
        (
            ##"{"color":"#e74c3c","animation":{"curve":"linear","duration":2}}"##,
            BackgroundUpdate(color: red, animation: .timing(.linear, duration: 2)), .timing(.linear, duration: 2)
        ),
        (
            ##"{"color":"#e74c3c","animation":"easeIn","duration":0.3}"##,
            BackgroundUpdate(color: red, duration: 0.3, animation: .timing(.easeIn, duration: 1)), .timing(.easeIn, duration: 0.3)
        ),
        (
            ##"{"color":"#e74c3c","transition":"rightToLeft","animation":"bouncy"}"##,
            BackgroundUpdate(color: red, transition: .rightToLeft, animation: .spring(.bouncy)), .spring(.bouncy)
        ),
        (
            ##"{"color":"#e74c3c","transition":"topToBottom","duration":60}"##,
            BackgroundUpdate(color: red, transition: .topToBottom, duration: 60), .timing(.easeInOut, duration: 60)
        ),
    ])
    func backgroundUpdate_decodes(json: String, expected: BackgroundUpdate, layer: Animation) throws {
        let update = try RequestDecoder.decode(BackgroundUpdate.self, from: Array(json.utf8))
        #expect(update == expected)
        #expect(update.layerAnimation == layer)
    }

    @Test(arguments: [
        RefusedBody("", 400, "malformed", nil),
        RefusedBody("[]", 400, "malformed", nil),
        RefusedBody(##""#e74c3c""##, 400, "malformed", nil),
        RefusedBody("{}", 400, "malformed", "color"),
        RefusedBody(##"{"colour":"#e74c3c"}"##, 400, "unknown_field", "colour"),
        RefusedBody(##"{"color":"#e74c3c","speed":1}"##, 400, "unknown_field", "speed"),
        RefusedBody(#"{"color":5}"#, 400, "malformed", "color"),
        RefusedBody(#"{"color":null}"#, 400, "malformed", "color"),
        RefusedBody(#"{"color":"green"}"#, 422, "invalid_value", "color"),
        RefusedBody(##"{"color":"#e74c3","transition":"circle"}"##, 422, "invalid_value", "color"),
        RefusedBody(##"{"color":"#e74c3c","transition":"diagonal"}"##, 422, "invalid_value", "transition"),
        RefusedBody(##"{"color":"#e74c3c","transition":"none"}"##, 422, "invalid_value", "transition"),
        RefusedBody(##"{"color":"#e74c3c","transition":"Circle"}"##, 422, "invalid_value", "transition"),
        RefusedBody(##"{"color":"#e74c3c","transition":5}"##, 400, "malformed", "transition"),
        RefusedBody(##"{"color":"#e74c3c","transition":null}"##, 400, "malformed", "transition"),
        RefusedBody(##"{"color":"#e74c3c","transition":{"angel":45}}"##, 400, "unknown_field", "transition.angel"),
        RefusedBody(##"{"color":"#e74c3c","transition":{}}"##, 400, "malformed", "transition.angle"),
        RefusedBody(##"{"color":"#e74c3c","transition":{"angle":"45"}}"##, 400, "malformed", "transition.angle"),
        RefusedBody(##"{"color":"#e74c3c","transition":{"angle":1e400}}"##, 400, "malformed", "transition.angle"),
        RefusedBody(##"{"color":"#e74c3c","duration":0}"##, 422, "out_of_range", "duration"),
        RefusedBody(##"{"color":"#e74c3c","duration":-0.5}"##, 422, "out_of_range", "duration"),
        RefusedBody(##"{"color":"#e74c3c","duration":60.5}"##, 422, "out_of_range", "duration"),
        RefusedBody(##"{"color":"#e74c3c","duration":"1"}"##, 400, "malformed", "duration"),
        RefusedBody(##"{"color":"#e74c3c","duration":0.5,"animation":"none"}"##, 422, "invalid_value", "duration"),
        RefusedBody(##"{"color":"#e74c3c","duration":0.5,"animation":"bouncy"}"##, 422, "invalid_value", "duration"),
        RefusedBody(##"{"color":"#e74c3c","animation":"wobble"}"##, 422, "invalid_value", "animation"),
        RefusedBody(##"{"color":"#e74c3c","animation":{"duration":0}}"##, 422, "out_of_range", "animation.duration"),
        RefusedBody(
            ##"{"color":"#e74c3c","animation":{"spring":{"bounce":1}}}"##, 422, "out_of_range", "animation.spring.bounce"),
    ])
    func refusedBackgroundUpdate_namesTheField(refused: RefusedBody) {
        let error = #expect(throws: APIError.self) {
            try RequestDecoder.decode(BackgroundUpdate.self, from: Array(refused.body.utf8))
        }
        #expect(error?.status == refused.status)
        #expect(error?.code == refused.code)
        #expect(error?.field == refused.field)
        #expect(error?.message.isEmpty == false)
    }

    @Test func transitionNone_pointsToAnimationNone() {
        let error = #expect(throws: APIError.self) {
            try RequestDecoder.decode(BackgroundUpdate.self, from: Array(##"{"color":"#000000","transition":"none"}"##.utf8))
        }
        #expect(error?.message.contains("\"animation\":\"none\"") == true)
    }
}
