import Foundation
import Logging
import RingCastCore
import RingCastStorage
import RingCastTransport
import Testing

@testable import RingCastServer

/// A write whose change or state cannot be encoded (a non-finite number, which the validated API never lets in,
/// forced here into the prepared write) changes nothing; a message that cannot be encoded is not sent.
@Suite("Unencodable writes and messages")
struct UnencodableWriteTests {
    static let path = "/api/v1/boards/main"

    /// A PATCH of `main` as `Pipeline` prepares it, but logging `logged` as its change (the PATCH's own if nil)
    /// and with `poisoned(state)` as its state.
    static func prepared(
        on api: TestApplication, logging logged: Animator.Change? = nil, poisoned: @escaping (inout BoardState) -> Void = { _ in }
    ) throws -> (PreparedWrite, WriteIntent) {
        let board = try #require(api.boards["main"])
        let body = Array(#"{"rings":{"move":0.9},"animation":"none"}"#.utf8)
        let change = Animator.Change.patch(try RequestDecoder.decode(BoardPatch.self, from: body))
        let clock = TickClock(fps: api.configuration.fps)
        let tick = clock.currentTick()
        var trial = board.animator
        let base = Int64(trial.revision)
        let start = try trial.accept(change, at: max(tick + 1, board.startTick(now: tick)), now: board.now(tick))
        let after = trial
        let written: () -> BoardState = {
            var state = after.state
            poisoned(&state)
            return state
        }
        let prepared = PreparedWrite(
            kind: .change(board, logged ?? change, after: trial), name: "main", base: base, start: start, state: written,
            settled: written, answer: { _ in HTTPResponse(status: 200) }, preview: { HTTPResponse(status: 200) },
            body: body)
        let request = api.request("PATCH", path, body: String(decoding: body, as: UTF8.self))
        let write = WriteIntent(
            request: RouteRequest(http: request, parameters: ["board": "main"]), needsBoard: true,
            decode: { _ throws(APIError) in throw APIError.malformed("decoded already") }, idempotency: nil,
            precondition: .none, createOnly: false, returning: .representation)
        return (prepared, write)
    }

    static func notFinite(_ state: inout BoardState) {
        state.countdown = BoardState.CountdownState(seconds: 60, start: .nan)
    }

    /// The change is what is stored (the change log): one whose bytes cannot be made fails the store as a failed
    /// commit does, so that no later change of the board is logged after a gap. The write is answered 503, nothing
    /// is logged, the board shows what it showed, and writes are taken again once the store's probe commits.
    @Test func aChangeThatCannotBeEncoded_isAnswered503_notLogged_theBoardAsBefore_andWritesResumeAfterAProbe() throws {
        let api = try TestApplication()
        #expect(try api.send("PATCH", Self.path, body: #"{"rings":{"move":0.3},"animation":"none"}"#).status == 200)
        let board = try #require(api.boards["main"])
        let ringsBefore = board.animator.state.rings
        let loggedBefore = try api.store.loadChanges().map(\.revision)
        #expect(loggedBefore.count == 1)

        let (prepared, write) = try Self.prepared(on: api, logging: .startCountdown(seconds: .nan))
        var outcome: CommitOutcome?
        api.writer.commit(prepared, of: write, attempt: 0) { outcome = $0 }
        #expect(api.drain(until: { outcome != nil }))
        guard case .answered(let response) = try #require(outcome) else {
            Issue.record("the write was not answered: \(String(describing: outcome))")
            return
        }
        #expect(response.status == 503)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains("cannot be encoded") && text.contains("was not applied"), "\(text)")

        #expect(try api.store.loadChanges().map(\.revision) == loggedBefore)
        #expect(api.boards["main"]?.animator.state.rings == ringsBefore)
        #expect(!api.writer.isHealthy)
        // The probe, a second later.
        api.advance(seconds: 1.5)
        #expect(api.drain(until: { api.writer.isHealthy }, timeout: 10), "the store's probe commits again")
        #expect(try api.send("PATCH", Self.path, body: #"{"rings":{"move":0.4},"animation":"none"}"#).status == 200)
        #expect(try api.store.loadChanges().count == 2)
    }

    @Test func aClusterWriteThatCannotBeEncoded_hasNothingToPublish() throws {
        let api = try TestApplication()
        let (good, _) = try Self.prepared(on: api)
        #expect(try !ClusterUpdate.Prepared(good).update.update.isEmpty)
        let (bad, _) = try Self.prepared(on: api, poisoned: Self.notFinite)
        let failure = #expect(throws: EncodingFailure.self) { try ClusterUpdate.Prepared(bad) }
        #expect(failure?.type == "BoardState")
    }

    @Test func aFrameThatCannotBeEncoded_throwsInJSON_andBinaryStillCarriesIt() throws {
        let api = try TestApplication()
        var animator = try #require(api.boards["main"]).animator
        var frame = animator.frame(at: animator.composedThrough ?? 0)
        frame.t = .nan
        #expect(throws: EncodingFailure.self) { try WireFormat.json.encode(frame, previous: nil) }
        #expect(try !WireFormat.binary.encode(frame, previous: nil).isEmpty)
        let stream = BoardStream(board: try #require(api.boards["main"]))
        #expect(throws: EncodingFailure.self) { try stream.keyframe(.json, of: frame, at: 1) }
        #expect(try stream.layout(.json).count > 0)
    }
}

/// A webhook body that cannot be built is not POSTed (empty or otherwise): refused, counted and logged.
@Suite("Unencodable webhook bodies")
struct UnencodableWebhookTests {
    @Test func aBodyThatCannotBeEncoded_isNotPosted_andTheNextOneIs() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let sender = WebhookSender(logger: Logger(label: "ringcast-test"), attempts: 1)
        defer { sender.stop() }
        let url = "http://127.0.0.1:\(receiver.port)/h"
        sender.send(CountdownEnd(board: "unencodable-body", ring: "c", tick: 1, webhook: url), t: .nan)
        #expect(sender.statistics.refused == 1)
        #expect(sender.pendingCount == 0)
        // Queued after it: if the first had gone, it would have arrived first.
        sender.send(CountdownEnd(board: "unencodable-body", ring: "c", tick: 2, webhook: url), t: 1000)
        let requests = try await receiver.waitForRequests(1)
        #expect(requests.count == 1)
        #expect(requests.first?.body.contains(#""tick":2"#) == true, "\(requests)")
        #expect(receiver.requests.count == 1)
    }
}
