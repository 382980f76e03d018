import Foundation
import RingCastCore
import RingCastTransport
import Testing

/// A binary viewer of a board of every widget kind, through a real server: version 4 messages whose
/// widget entries decode to what was pushed.
@Suite("Binary widget viewers")
struct BinaryWidgetViewerTests {
    @Test func binaryViewer_ofAWidgetBoard_decodesEveryKindAndFollowsAPush() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let created = try server.http.send(
            "PUT", "/api/v1/boards/wall",
            body: ##"""
                {"rings":[{"id":"move"},{"id":"tests","kind":"counter","value":99},{"id":"status","kind":"text","text":"Hi"},
                 {"id":"load","kind":"indicator"},{"id":"mood","kind":"gradient","colors":["#ff0000","#00ff00","#0000ff"]}]}
                """##)
        #expect((200..<300).contains(created.status))
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let viewer = TestViewer(client: client, port: server.port, path: "/ws?board=wall&format=binary")
        // Greeted before the push, so the push arrives as deltas (a viewer that joins after it would see only
        // its keyframe).
        try await viewer.waitForGreeting(binary: true)
        let patched = try server.http.send(
            "PATCH", "/api/v1/boards/wall",
            body: #"{"rings":{"tests":{"value":120}},"animation":{"curve":"linear","duration":0.2}}"#)
        #expect(patched.status == 200)

        // Decode everything received so far until the counter has arrived at 120.
        var entries: [String: RingFrame] = [:]
        var versions: [UInt8] = []
        // Generous: a loaded box may take long to start the server and send the frames; a pass is quick.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            var layout: BinaryFrame.DecodedLayout?
            var state: [Int: BinaryFrame.RingValues] = [:]
            entries = [:]
            versions = []
            for bytes in viewer.binaryMessages {
                versions.append(bytes[1])
                switch try BinaryFrame.decode(bytes, layout: layout) {
                case .layout(let decoded): layout = decoded
                case .frame(let frame): BinaryFrame.apply(frame, to: &state)
                case .event: break
                }
            }
            if let layout {
                for (index, widget) in layout.widgets {
                    guard let values = state[index] else { continue }
                    entries[layout.ringIDs[index]] = try BinaryFrame.widgetEntry(
                        id: layout.ringIDs[index], layout: widget, values: values)
                }
            }
            if case .counter(let value, _, _) = entries["tests"]?.widget, value == 120 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(versions.first == 4)
        guard case .counter(120, "", let digits) = entries["tests"]?.widget else {
            let frames = viewer.binaryFrames.map { "\($0.frame.seq)\($0.frame.kind == .keyframe ? "k" : "")" }
            let board = try? server.http.get("/api/v1/boards/wall").text
            let seen = "\(viewer.binaryMessages.count) messages, frames \(frames)"
            let ending = "failure \(viewer.failure ?? "none"), close \(String(describing: viewer.closeCode))"
            Issue.record(
                "the counter did not arrive at 120: \(String(describing: entries["tests"]?.widget)); \(seen), \(ending); the board: \(board ?? "?")"
            )
            return
        }
        #expect(digits.map(\.digit) == [1, 2, 0])
        #expect(entries["tests"]?.label == "120")
        #expect(entries["status"]?.widget == .text(text: "Hi", scales: [1, 1]))
        #expect(entries["load"]?.widget.map { if case .indicator = $0 { true } else { false } } == true)
        guard case .gradient(let stops) = entries["mood"]?.widget else {
            Issue.record("no gradient")
            return
        }
        #expect(stops.map(\.color.hex) == ["#ff0000ff", "#00ff00ff", "#0000ffff"])
    }
}
