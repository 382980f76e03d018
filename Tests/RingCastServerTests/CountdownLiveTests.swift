import Foundation
import RingCastCore
import RingCastTransport
import Testing

/// Seed 004's countdown through the real server: the end event once per viewer and once at the webhook.
@Suite("Countdown, live")
struct CountdownLiveTests {
    private struct WebhookBody: Decodable, Equatable {
        var board: String
        var ring: String
        var event: String
        var tick: Int64
        var t: Double
    }

    @Test func theEndEvent_arrivesOncePerViewer_andOnceAtTheWebhook() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let server = try TestServer()
        defer { server.shutdown() }
        let board =
            #"{"rings":[{"id":"c","kind":"countdown","style":"seed","tenths":true,"then":"cancel","#
            + #""webhook":"http://127.0.0.1:\#(receiver.port)/hooks/ringcast?k=1"}]}"#
        let created = try server.http.send("PUT", "/api/v1/boards/launch", body: board)
        #expect(created.status == 201, "\(created.text)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let json = TestViewer(client: client, port: server.port, path: "/ws?board=launch&format=json")
        let binary = TestViewer(client: client, port: server.port, path: "/ws?board=launch&format=binary")
        try await json.waitUntil("greeting") { $0.count >= 2 }
        let layout = String(decoding: json.messages[0].bytes, as: UTF8.self)
        #expect(layout.contains(#""style":"seed""#))

        let started = try server.http.send("POST", "/api/v1/boards/launch/countdown", body: #"{"seconds":1}"#)
        #expect(started.status == 200 || started.status == 202, "\(started.text)")
        try await json.waitUntil(timeout: 5, "the end") { $0.last?.frame?[ring: "c"]?.label == "—" }
        let requests = try await receiver.waitForRequests(1)

        let events = json.events
        #expect(events.count == 1, "\(events)")
        let event = try #require(events.first)
        #expect(event.event == "countdownEnded" && event.board == "launch" && event.ring == "c")
        // The event comes just before the first frame that shows the end: the frame of its tick, or a later one
        // when a loaded server's timer fired late and skipped ticks (the latest frame wins).
        let index = try #require(json.messages.firstIndex { $0.event != nil })
        let next = try #require(json.messages[(index + 1)...].first { $0.frame != nil }?.frame)
        #expect(next.seq >= event.seq && next[ring: "c"]?.label == "—")
        let before = try #require(json.messages[..<index].last { $0.frame != nil }?.frame)
        #expect(before.seq < event.seq && before[ring: "c"]?.label.hasSuffix("s") == true, "\(before)")

        // The binary viewer got the same event once (its seq is the tick's low 32 bits).
        let decoded = try await Self.binaryEvents(of: binary, atLeast: 1)
        let low = UInt64(UInt32(truncatingIfNeeded: event.seq))
        #expect(decoded == [BoardEvent(event: .countdownEnded, board: "launch", ring: "c", seq: low, t: event.t)])

        // One POST, with the board, the ring and the tick.
        let request = try #require(requests.first)
        #expect(request.head.hasPrefix("POST /hooks/ringcast?k=1 HTTP/1.1"))
        #expect(request.head.lowercased().contains("content-type: application/json"))
        let body = try JSONDecoder().decode(WebhookBody.self, from: Data(request.body.utf8))
        #expect(body == WebhookBody(board: "launch", ring: "c", event: "countdownEnded", tick: Int64(event.seq), t: event.t))

        // Nothing more: a viewer joining after the end gets no event for it, and the webhook no second POST.
        // Shown by the next end rather than a sleep: a second countdown ends, and each count grows by one.
        let late = TestViewer(client: client, port: server.port, path: "/ws?board=launch&format=json")
        try await late.waitUntil("greeting") { $0.count >= 2 }
        // Over a second: a ring's webhook fires at most once a second, so a second end sooner would not be POSTed.
        let restart = try server.http.send("POST", "/api/v1/boards/launch/countdown", body: #"{"seconds":1.2}"#)
        #expect(restart.status == 200 || restart.status == 202)
        try await late.waitUntil(timeout: 5, "the second end") { $0.contains { $0.event != nil } }
        try await json.waitUntil(timeout: 5, "the second end") { $0.filter { $0.event != nil }.count == 2 }
        _ = try await receiver.waitForRequests(2)
        #expect(late.events.count == 1 && json.events.count == 2)
        #expect(receiver.requests.count == 2)
        #expect(try await Self.binaryEvents(of: binary, atLeast: 2).count == 2)
    }

    @Test func aWebhookIsPosted_evenWhenNobodyWatches_andRetriedAfterAFailure() async throws {
        let receiver = try WebhookReceiver(status: 500)
        defer { receiver.stop() }
        let server = try TestServer()
        defer { server.shutdown() }
        let board = #"{"rings":[{"id":"c","kind":"countdown","webhook":"http://127.0.0.1:\#(receiver.port)/h"}]}"#
        #expect(try server.http.send("PUT", "/api/v1/boards/quiet", body: board).status == 201)
        #expect(try server.http.send("POST", "/api/v1/boards/quiet/countdown", body: #"{"seconds":0.2}"#).status < 300)
        // 500 twice: the first try and the retry 0.5 s later, with the same body.
        let requests = try await receiver.waitForRequests(2, timeout: 5)
        #expect(requests[0].body == requests[1].body && requests[0].body.contains(#""board":"quiet""#))
    }

    @Test func aBadWebhook_is422NamingTheField_andCreatesNothing() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.http.send(
            "PUT", "/api/v1/boards/bad", body: #"{"rings":[{"id":"c","kind":"countdown","webhook":"file:///etc/passwd"}]}"#)
        #expect(response.status == 422)
        #expect(response.text.contains(#""field":"rings.0.webhook""#), "\(response.text)")
        #expect(try server.http.get("/api/v1/boards/bad").status == 404)
    }

    @Test func webhookHosts_limitTheHostsAWebhookMayName() throws {
        let server = try TestServer { $0.webhookHosts = ["Hooks.Example.com"] }
        defer { server.shutdown() }
        let refused = try server.http.send(
            "PUT", "/api/v1/boards/a",
            body: #"{"rings":[{"id":"p"},{"id":"c","kind":"countdown","webhook":"http://127.0.0.1:9/h"}]}"#)
        #expect(refused.status == 422 && refused.text.contains(#""field":"rings.1.webhook""#), "\(refused.text)")
        let allowed = try server.http.send(
            "PUT", "/api/v1/boards/a", body: #"{"rings":[{"id":"c","kind":"countdown","webhook":"https://hooks.example.com/h"}]}"#
        )
        #expect(allowed.status == 201, "\(allowed.text)")
        let added = try server.http.send(
            "POST", "/api/v1/boards/a/rings", body: #"{"id":"d","kind":"countdown","webhook":"http://10.0.0.1/h"}"#)
        #expect(added.status == 422 && added.text.contains(#""field":"webhook""#), "\(added.text)")
        #expect(try server.http.get("/api/v1/boards/a").text.contains("hooks.example.com"))
    }

    /// The events among a binary viewer's messages, once at least `count` arrived.
    private static func binaryEvents(of viewer: TestViewer, atLeast count: Int) async throws -> [BoardEvent] {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let events = viewer.binaryMessages.compactMap { bytes -> BoardEvent? in
                guard case .event(let event) = try? BinaryFrame.decode(bytes) else { return nil }
                return event
            }
            if events.count >= count || Date() > deadline { return events }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
