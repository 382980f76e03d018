import Foundation
import RingCastTransport
import Testing

@testable import RingCastServer

/// The small parts of cluster mode's write path that need no Redis: the first answer kept for replays, and
/// If-Match read against the cluster's ETags.
@Suite("Cluster write pieces")
struct ClusterPiecesTests {
    @Test func aStoredAnswer_comesBackWithItsStatusHeadersAndBody_byteForByte() throws {
        let body: [UInt8] = Array(#"{"a":"line\nbreak"}"#.utf8) + [0, 10, 10, 255]
        let response = HTTPResponse(
            status: 201,
            headers: [
                (name: "Content-Type", value: "application/json"), (name: "ETag", value: #""7-abc""#),
                (name: "Location", value: "/x: y"),
            ],
            body: body)
        let decoded = try #require(ClusterAnswer.decode(ClusterAnswer.encode(response)))
        #expect(decoded.status == 201)
        #expect(decoded.headers.map(\.name) == ["Content-Type", "ETag", "Location"])
        #expect(decoded.headers.map(\.value) == ["application/json", #""7-abc""#, "/x: y"])
        #expect(decoded.body == body)
        let empty = try #require(ClusterAnswer.decode(ClusterAnswer.encode(HTTPResponse(status: 204))))
        #expect(empty.status == 204 && empty.headers.isEmpty && empty.body.isEmpty)
    }

    @Test(arguments: ["", "200", "200\n", "abc\n\n", "200\nno colon\n\n"])
    func bytesThatAreNoStoredAnswer_areRefused(_ text: String) {
        #expect(ClusterAnswer.decode(Array(text.utf8)) == nil)
    }

    @Test func theDigestTravelsAsItsEightBytes() {
        #expect(ClusterAnswer.digestBytes("0123456789abcdef") == [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef])
    }

    @Test func ifMatch_namesARevisionOfThisCluster_orIsStale() {
        #expect(IfMatch(nil, nonce: "k3").revision == nil)
        guard case .any = IfMatch("*", nonce: "k3") else {
            Issue.record("* is any")
            return
        }
        #expect(IfMatch(#""12-k3""#, nonce: "k3").revision == 12)
        for stale in [#""12-other""#, "12-k3", #""x-k3""#, #""""#, #"""#, #""12""#] {
            guard case .stale(let tag) = IfMatch(stale, nonce: "k3") else {
                Issue.record("\(stale) should be stale")
                continue
            }
            #expect(tag == stale)
        }
    }
}
