import Foundation
import RingCastTransport
import Testing

/// A viewer that joins just as a push is made must see the push animate: the frames of a change
/// accepted while its greeting is being composed or sent may not be lost.
@Suite("Viewers joining as a push is made")
struct JoinRaceTests {
    @Test(arguments: 0..<3, ["json", "binary"])
    func viewerJoiningAsAPushIsMade_getsThePushsFrames(_ index: Int, format: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let created = try server.http.send(
            "PUT", "/api/v1/boards/race",
            body: #"{"rings":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"},{"id":"e"}]}"#)
        #expect((200..<300).contains(created.status))
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port, path: "/ws?board=race&format=\(format)")
        let patched = try server.http.send(
            "PATCH", "/api/v1/boards/race",
            body: #"{"rings":{"a":{"progress":0.5}},"animation":{"curve":"linear","duration":0.2}}"#)
        #expect(patched.status == 200)
        do {
            if format == "binary" {
                let deadline = Date().addingTimeInterval(20)
                while viewer.binaryMessages.count < 3 {
                    guard Date() < deadline else { throw ViewerError.timeout("\(viewer.binaryMessages.count) binary messages") }
                    try await Task.sleep(for: .milliseconds(5))
                }
            } else {
                try await viewer.waitUntil(timeout: 20, "a frame after the greeting") { messages in
                    messages.filter { $0.frame != nil }.count >= 2
                }
            }
        } catch {
            let seqs = viewer.frames.map { "\($0.seq)\($0.keyframe == true ? "k" : "")" }
            Issue.record("case \(index): \(error); frames \(seqs)")
        }
    }
}
