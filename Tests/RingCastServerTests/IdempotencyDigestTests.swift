import RingCastTLS
import Testing

@testable import RingCastServer

@Suite("Idempotency digest")
struct IdempotencyDigestTests {
    private func hex(_ digest: SHA256Digest) -> String {
        digest.bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// FIPS 180-2's test vectors: libcrypto's SHA-256 replaced swift-crypto's, so the digests are checked.
    @Test func sha256_matchesTheStandardsVectors() {
        #expect(hex(SHA256Digest(of: Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256Digest(of: [])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.byteCount == 32)
    }

    @Test func requestDigest_coversMethodPathAndBody() {
        let base = IdempotencyCache.digest(method: "PATCH", path: "/api/v1/boards/main", body: Array("{}".utf8))
        #expect(base == SHA256Digest(of: Array("PATCH /api/v1/boards/main\n{}".utf8)))
        #expect(base != IdempotencyCache.digest(method: "PUT", path: "/api/v1/boards/main", body: Array("{}".utf8)))
        #expect(base != IdempotencyCache.digest(method: "PATCH", path: "/api/v1/boards/other", body: Array("{}".utf8)))
        #expect(base != IdempotencyCache.digest(method: "PATCH", path: "/api/v1/boards/main", body: Array("{ }".utf8)))
    }
}
