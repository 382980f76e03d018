import Foundation
import RingCastCore
import Testing

@testable import RingCastServer

/// `GET …svg` composed off the service thread and kept while it is the picture (`SVGDocuments`), in process: the same
/// pipeline the server runs, its compositions handed back through the queue the test drains.
@Suite("SVG documents kept and composed off the loop")
struct SVGDocumentsTests {
    private static let resting = "/api/v1/boards/main.svg?at=end"

    @Test func aRestingBoardsSVG_isComposedOnce_andLaterGETsAreLookups_ofTheSameBytesAsTheRenderer() throws {
        let api = try TestApplication()
        let documents = api.pipeline.svgDocuments
        let first = try api.send("GET", Self.resting)
        #expect(first.status == 200, "\(first.text)")
        #expect(documents.compositions == 1)

        // The bytes the renderer gives for the board at rest, composed here on a copy as the handler once did.
        let board = try #require(api.boards["main"])
        let frame = board.animator.restingFrameOnceStarted(from: board.now(TickClock(fps: api.configuration.fps).currentTick()))
        let expected = SVGRenderer.board(FrameComposer.layout(of: board.animator.projected.spec), frame: frame, arrangement: 0)
        #expect(first.body == Array(expected.utf8))

        var seqs: [UInt64] = []
        for _ in 0..<20 {
            let again = try api.send("GET", Self.resting)
            #expect(again.status == 200)
            #expect(again.body == first.body)
            #expect(again.headers["etag"] == first.headers["etag"])
            seqs.append(try #require(again.headers["x-ringcast-seq"].flatMap(UInt64.init)))
        }
        #expect(documents.compositions == 1, "every later GET of the board at rest is a lookup")
        let firstSeq = try #require(first.headers["x-ringcast-seq"].flatMap(UInt64.init))
        #expect(seqs.allSatisfy { $0 >= firstSeq } && seqs == seqs.sorted(), "X-RingCast-Seq is the tick of each GET")

        let revalidated = try api.send("GET", Self.resting, headers: ["If-None-Match": first.headers["etag"] ?? ""])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        #expect(documents.compositions == 1)
    }

    @Test func aWrite_makesTheNextGETComposeTheNewPicture_withAnotherETag() throws {
        let api = try TestApplication()
        let before = try api.send("GET", Self.resting)
        let push = try api.send("PUT", "/api/v1/boards/main/rings/move", body: #"{"progress":0.42,"animation":"none"}"#)
        #expect(push.status == 200, "\(push.text)")
        let after = try api.send("GET", Self.resting)
        #expect(after.status == 200)
        #expect(after.headers["etag"] != before.headers["etag"])
        #expect(after.text.contains(">42%<"), "\(after.text.prefix(400))")
        #expect(api.pipeline.svgDocuments.compositions == 2)
        let stale = try api.send("GET", Self.resting, headers: ["If-None-Match": before.headers["etag"] ?? ""])
        #expect(stale.status == 200, "the old picture's ETag no longer matches")
    }

    @Test func requestsForTheSameDocument_whileItWaits_shareOneComposition() throws {
        let api = try TestApplication()
        let queue = DrainedQueue()
        let documents = SVGDocuments(boards: api.boards, clock: TickClock(fps: api.configuration.fps))
        documents.attach(queue: queue)
        let wanted = SVGDocuments.Request(board: "main", atEnd: true)
        var answers: [Result<(SVGDocuments.Document, seq: UInt64), APIError>] = []
        for _ in 0..<5 { documents.fetch(wanted) { answers.append($0) } }
        documents.fetch(SVGDocuments.Request(board: "nope")) { answers.append($0) }
        #expect(answers.count == 1, "an unknown board is answered at once, the others once composed")
        #expect(queue.run(until: { answers.count == 6 }, timeout: 30))
        #expect(documents.compositions == 1)
        let bodies = answers.compactMap { try? $0.get().0.body }
        #expect(bodies.count == 5 && Set(bodies).count == 1)
    }

    @Test func keptDocuments_stayWithinTheirCountAndBytes_theLeastRecentlyUsedGoingFirst() throws {
        let api = try TestApplication()
        let clock = TickClock(fps: api.configuration.fps)
        let rings = try #require(api.boards["main"]).spec.rings.map(\.id)
        #expect(rings.count >= 3)
        func fetch(_ documents: SVGDocuments, _ ring: String) -> Int {
            var size = 0
            documents.fetch(SVGDocuments.Request(board: "main", ring: ring, atEnd: true)) {
                size = (try? $0.get().0.body.count) ?? -1
            }
            return size
        }
        let byCount = SVGDocuments(boards: api.boards, clock: clock, maximumEntries: 2)
        for ring in rings { #expect(fetch(byCount, ring) > 0) }
        #expect(byCount.keptCount == 2)
        let composed = byCount.compositions
        _ = fetch(byCount, rings[rings.count - 1])
        #expect(byCount.compositions == composed, "the newest is kept")
        _ = fetch(byCount, rings[0])
        #expect(byCount.compositions == composed + 1, "the oldest went")

        let oneDocument = fetch(SVGDocuments(boards: api.boards, clock: clock), rings[0])
        let byBytes = SVGDocuments(boards: api.boards, clock: clock, maximumBytes: oneDocument * 2 + oneDocument / 2)
        for ring in rings { _ = fetch(byBytes, ring) }
        #expect(byBytes.keptCount <= 2 && byBytes.keptByteCount <= byBytes.maximumBytes)
        let none = SVGDocuments(boards: api.boards, clock: clock, maximumBytes: oneDocument - 1)
        for ring in rings { _ = fetch(none, ring) }
        #expect(none.keptCount == 0, "a document larger than the bound alone is not kept")
    }

    // MARK: - Boolean query flags

    @Test(arguments: [
        ("1", true), ("true", true), ("0", false), ("false", false),
    ])
    func aBooleanFlag_takesOneOfFourSpellings(value: String, expected: Bool) throws {
        #expect(try QueryFlag.value(of: "badge", in: ["badge": value]) == expected)
        #expect(try QueryFlag.value(of: "badge", in: [:]) == nil)
    }

    @Test(arguments: ["2", "yes", "no", "TRUE", "True", "", "on", " 1", "1 "])
    func anyOtherValueOfABooleanFlag_is400NamingIt(value: String) throws {
        #expect(throws: APIError.self) { try QueryFlag.value(of: "badge", in: ["badge": value]) }
        do {
            _ = try QueryFlag.value(of: "badge", in: ["badge": value])
        } catch {
            #expect(error.status == 400 && error.field == "badge", "\(error)")
        }
    }

    @Test(arguments: [
        ("badge=1", 200, true), ("badge=true", 200, true), ("badge=0", 200, false), ("badge=false", 200, false),
        ("badge=2", 400, false), ("badge=yes", 400, false),
    ])
    func theRingSVGsBadgeFlag_readsTheSameSpellings(query: String, status: Int, badge: Bool) throws {
        let api = try TestApplication()
        let response = try api.send("GET", "/api/v1/boards/main/rings/move.svg?at=end&" + query)
        #expect(response.status == status, "\(response.text)")
        if status == 400 { #expect(response.error?.field == "badge") }
        if status == 200 {
            #expect(response.text.contains("data-badge=\"1\"") == badge, "\(response.text.prefix(300))")
        }
    }

    @Test(arguments: ["badge=0", "badge=false"])
    func aBoardSVG_takesTheFlagOff_andRefusesItOn(query: String) throws {
        let api = try TestApplication()
        #expect(try api.send("GET", "/api/v1/boards/main.svg?" + query).status == 200)
        let on = try api.send("GET", "/api/v1/boards/main.svg?badge=true")
        #expect(on.status == 400 && on.error?.field == "badge")
    }
}
