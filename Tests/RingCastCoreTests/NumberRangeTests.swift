import Testing

@testable import RingCastCore

/// Issue 30, problem 8: `0.1e-400` was refused as "too large for a 64-bit float". A number too close to zero for
/// a Double (not 0, yet it would read as 0) is refused saying so; one too large says that; every number a Double
/// holds, subnormal ones included, reads as written. The first pass of request bodies and the config file says it
/// (`StrictJSON.rangeProblem(ofNumber:)`), with the value's path.
@Suite("Number range")
struct NumberRangeTests {
    /// A literal and the words of its refusal; nil: it reads.
    static let literals: [(String, String?)] = [
        ("0.1e-400", "too close to zero"),
        ("-0.1e-400", "too close to zero"),
        ("1e-400", "too close to zero"),
        ("123e-500", "too close to zero"),
        // Below half the smallest subnormal, 4.9e-324: rounds to 0.
        ("2e-324", "too close to zero"),
        ("0." + String(repeating: "0", count: 400) + "1", "too close to zero"),
        ("1e400", "too large"),
        ("-1.5E+309", "too large"),
        ("1" + String(repeating: "0", count: 400), "too large"),
        // Zero however written is 0.
        ("0", nil), ("0e-999", nil), ("-0.000e-500", nil), ("0E+400", nil),
        // Subnormal and ordinary numbers read as written.
        ("4.9e-324", nil), ("1e-320", nil), ("2.2250738585072014e-308", nil), ("1.7976931348623157e308", nil),
        ("0.5", nil), ("1e12", nil), ("-3", nil),
    ]

    @Test(arguments: literals)
    func aNumberADoubleCannotHold_isRefusedSayingWhichWay(literal: String, words: String?) {
        let problem = StrictJSON.rangeProblem(ofNumber: Array(literal.utf8))
        if let words {
            #expect(problem?.contains(words) == true, "\(literal): \(problem ?? "read")")
        } else {
            #expect(problem == nil, "\(literal): \(problem ?? "")")
            #expect(Double(literal)?.isFinite == true)
        }
        // In a body, at the value's line, column and path.
        let body = "{\"rings\":{\"move\":\(literal)}}"
        let found = StrictJSON.firstProblem(in: Array(body.utf8))
        #expect(found?.message == problem)
        if problem != nil {
            #expect(found?.path == "rings.move")
            #expect(found?.column == 18)
        }
    }

    @Test func theUnderflowMessage_saysWhatToWrite() {
        #expect(
            StrictJSON.rangeProblem(ofNumber: Array("0.1e-400".utf8))
                == "the number 0.1e-400 is too close to zero for a 64-bit float (the smallest is ±5e-324), so it would "
                + "read as 0; write 0 if you mean 0")
    }
}
