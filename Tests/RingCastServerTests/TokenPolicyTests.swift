import Testing

@testable import RingCastServer

/// The token comparison on its own: what the pipeline's token step relies on.
@Suite("Token comparison")
struct TokenPolicyTests {
    @Test(arguments: [
        ("write-secret-1", "write-secret-1", true),
        ("", "", true),
        ("write-secret-1", "write-secret-2", false),
        ("write-secret-1", "write-secret-12", false),
        ("write-secret-1", "", false),
        ("a", "b", false),
    ])
    func equalTokens_match_andOthersDoNot(a: String, b: String, equal: Bool) {
        #expect(TokenPolicy.constantTimeEquals(a, b) == equal)
        #expect(TokenPolicy.constantTimeEquals(b, a) == equal)
    }

    /// Issue 21: the length difference was kept in a byte, so a token with 256 (or 512, …) NULs added
    /// compared equal to the token: the padding bytes are zeros and 1 ^ 257 = 256 became 0.
    @Test(arguments: [256, 512, 65_536])
    func tokensWhoseLengthsDifferByAMultipleOf256_neverMatch(padding: Int) {
        let token = "write-secret-1"
        let padded = token + String(repeating: "\u{0}", count: padding)
        #expect(!TokenPolicy.constantTimeEquals(token, padded))
        #expect(!TokenPolicy.constantTimeEquals(padded, token))
        #expect(!TokenPolicy.constantTimeEquals("", String(repeating: "\u{0}", count: padding)))
    }
}
