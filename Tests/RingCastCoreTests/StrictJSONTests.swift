import RingCastCore
import Testing

/// A text the strict reader refuses, and what it must say.
struct StrictJSONCase: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    /// Part of the message.
    var says: String
    var path: String?
    var line = 1
    var column: Int

    var testDescription: String { name }

    init(_ name: String, _ text: String, says: String, path: String? = nil, line: Int = 1, column: Int) {
        self.init(name, Array(text.utf8), says: says, path: path, column: column)
        self.line = line
    }

    init(_ name: String, _ bytes: [UInt8], says: String, path: String? = nil, column: Int) {
        self.name = name
        self.bytes = bytes
        self.says = says
        self.path = path
        self.column = column
    }
}

/// The one strict JSON reader of request bodies and the config file (issue 20, defect 5).
@Suite("Strict JSON")
struct StrictJSONTests {
    static let refused: [StrictJSONCase] = [
        StrictJSONCase(
            "a key twice, the second escaped", #"{"rings":{"move":0.11},"ring\u0073":{"move":0.99}}"#,
            says: #"the key "rings" (written "ring\u0073") appears twice in this object (first at 1:2)"#, path: "rings",
            column: 24),
        StrictJSONCase(
            "a key twice, nested", #"{"rings":{"move":0.1,"move":0.2}}"#, says: #"the key "move" appears twice"#,
            path: "rings.move", column: 22),
        StrictJSONCase(
            "a surrogate pair and its character", #"{"\ud83d\ude00":1,"😀":2}"#, says: "appears twice", path: "😀",
            column: 19),
        StrictJSONCase(
            "canonically equivalent keys", "{\"\u{E9}\":1,\"e\\u0301\":2}", says: "appears twice", path: "\u{E9}",
            column: 8),
        StrictJSONCase("an escaped slash", #"{"a/b":1,"a\/b":2}"#, says: "appears twice", path: "a/b", column: 10),
        StrictJSONCase(
            "a comma before }", #"{"rings":{"move":0.5,}}"#,
            says: #"a comma after the last member; JSON allows none before "}""#, path: "rings", column: 21),
        StrictJSONCase(
            "a comma before ]", ##"{"colors":["#ffffff","#000000",]}"##, says: "a comma after the last element",
            path: "colors", column: 31),
        StrictJSONCase(
            "a byte order mark", [0xEF, 0xBB, 0xBF] + Array(#"{"rings":{"move":0.5}}"#.utf8),
            says: "byte order mark", column: 1),
        StrictJSONCase(
            "UTF-16 with its mark", [0xFF, 0xFE] + Array(#"{}"#.utf8).flatMap { [$0, 0] }, says: "UTF-16", column: 1),
        StrictJSONCase(
            "UTF-16 without a mark", Array(#"{"a":1}"#.utf8).flatMap { [$0, 0] }, says: "a NUL byte: UTF-16 text?",
            column: 2),
        StrictJSONCase("not UTF-8", [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D], says: "not UTF-8", column: 3),
        StrictJSONCase("a comment", "{\n  // no\n}", says: "JSON allows no comments", line: 2, column: 3),
        StrictJSONCase(
            "too deep", String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
            says: "nests deeper than 32 levels", path: Array(repeating: "0", count: 32).joined(separator: "."),
            column: 33),
    ]

    @Test(arguments: refused)
    func aTextThatIsNotStrictJSON_isRefusedSayingWhereAndWhy(_ refused: StrictJSONCase) throws {
        let problem = try #require(StrictJSON.firstProblem(in: refused.bytes, maximumDepth: 32))
        #expect(problem.message.contains(refused.says), "\(problem)")
        #expect(problem.path == refused.path, "\(problem)")
        #expect(problem.line == refused.line && problem.column == refused.column, "\(problem)")
    }

    @Test(arguments: [
        ##"{"rings":{"move":0.5,"exercise":{"progress":1e2,"colors":["#ffffff","#000000"]}},"animation":"none"}"##,
        #"{"a\u0062":1,"ac":2,"\ud83d\ude00":3,"😁":4,"e\u0301":5}"#,
        " [ 1 , -0.5e-3 , true , false , null , \"\\\"\\\\\\/\\b\\f\\n\\r\\t\" ] ",
        "{\"\u{E9}t\u{E9}\":1,\"ete\":2}",
    ])
    func strictJSON_passes(_ text: String) {
        #expect(StrictJSON.firstProblem(in: Array(text.utf8)) == nil)
    }
}
