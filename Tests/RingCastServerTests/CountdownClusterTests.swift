import Foundation
import RingCastTransport
import Testing

/// Countdown ends in cluster mode: every node tells its own viewers on the same tick, and one node POSTs
/// the webhook.
@Suite("Countdown on a cluster", .serialized)
struct CountdownClusterTests {
    @Test func twoNodes_eachViewerGetsTheEndOnce_onTheSameTick_andTheWebhookOnePostPerEnd() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let nodes = try await cluster.start(["a", "b"])
        let board = #"{"rings":[{"id":"c","kind":"countdown","webhook":"http://127.0.0.1:\#(receiver.port)/h"}]}"#
        let created = try nodes[0].http.send("PUT", "/api/v1/boards/launch", body: board)
        try #require(created.status == 201, "\(created.text)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewers = nodes.map { TestViewer(client: client, port: $0.port, path: "/ws?board=launch&format=json") }
        for viewer in viewers { try await viewer.waitUntil(timeout: 10, "greeting") { $0.count >= 2 } }

        #expect(try nodes[1].http.send("POST", "/api/v1/boards/launch/countdown", body: #"{"seconds":0.5}"#).status < 300)
        for viewer in viewers {
            try await viewer.waitUntil(timeout: 10, "the end") { $0.contains { $0.event != nil } }
        }
        let first = try await receiver.waitForRequests(1, timeout: 10)
        // A second countdown, and its end: by then a second POST of the first end would have come.
        // Over a second: a ring's webhook fires at most once a second, so a second end sooner would not be POSTed.
        #expect(try nodes[0].http.send("POST", "/api/v1/boards/launch/countdown", body: #"{"seconds":1.2}"#).status < 300)
        for viewer in viewers {
            try await viewer.waitUntil(timeout: 10, "the second end") { $0.filter { $0.event != nil }.count >= 2 }
        }
        let requests = try await receiver.waitForRequests(2, timeout: 10)
        #expect(requests.count == 2, "\(requests.map(\.body))")
        #expect(first[0].body != requests[1].body)
        let ticks = viewers.map { $0.events.map(\.seq) }
        #expect(ticks[0].count == 2 && ticks[0] == ticks[1], "both nodes' viewers got each end once, on the same tick")
        #expect(requests.allSatisfy { request in ticks[0].contains { request.body.contains(#""tick":\#($0)"#) } })
    }
}
