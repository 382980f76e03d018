import Foundation
import RingCastTransport
import Testing

/// Issue 30, defect 1: a viewer that stopped reading for 5–8 s got hundreds of old frames queued in the server's
/// kernel, then seconds of silence behind the zero-window probe timer, then frames 1.4–8 s old. Frames are now
/// written only where the viewer's window has room (`SendPacing`), so once it reads again, the frames already in
/// its own receive buffer are the only old ones it sees: the next one is the newest the server has.
///
/// "Newest" is checked against a second viewer that never pauses, not against the clock: the first frame past what
/// the paused viewer held when it resumed must be at most 100 ms older than the last frame the reading viewer had by
/// then. Old
/// frames queued in the server (the defect) fail that on any machine, loaded or not.
@Suite("Paused viewers")
struct PausedViewerTests {
    @Test(arguments: ["json", "binary"])
    func aViewerThatPausesFiveSeconds_getsTheNewestFrameOnceItsOwnBufferIsRead(format: String) async throws {
        // A stall timeout far beyond the pause, so that a starved test pausing longer than it meant is neither
        // evicted nor pushed past the long hold after which pacing lets a paused viewer's reserve go.
        let server = try TestServer { $0.stallTimeoutSeconds = 60 }
        defer { server.shutdown() }
        // A linear animation repeated forever: a frame every tick for the whole test, however long a loaded run makes
        // it (a minute-long one could end before a starved run resumed, and the viewer then rightly got nothing new).
        let push = try server.http.send(
            "PATCH", "/api/v1/boards/main",
            body: #"{"rings":{"move":0.95},"animation":{"curve":"linear","duration":60,"repeat":"forever","autoreverse":true}}"#)
        #expect(push.status == 200, "\(push.text)")
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let reading = TestViewer(client: client, port: server.port)
        try await reading.waitForGreeting()

        // The pause and the reads that follow on a thread of their own: two cases blocked in reads for seconds
        // would hold both of a 2-core run's cooperative threads, and every other test's waits with them.
        let port = server.port
        let resumed = try await onOwnThread { try Self.pauseAndResume(port: port, format: format, reading: reading) }
        let newest = format == "binary" ? UInt64(UInt32(truncatingIfNeeded: resumed.newest)) : resumed.newest
        // Fresh: at most 100 ms (6 ticks) older than the newest when it resumed. A frame written just before (in
        // flight when the test looked at what it held) is; the frames queued in the server before were seconds old.
        let first = try #require(resumed.firstPastHeld, "the paused viewer was closed after \(resumed.oldFrames) frames")
        #expect(
            first + 6 >= newest,
            "after the \(resumed.oldFrames) frames it held (\(resumed.held) bytes), frame \(first) is older than \(newest), the newest when it resumed"
        )
        let metrics = try server.http.get("/metrics").text
        let heldLine = metrics.split(separator: "\n").first { $0.hasPrefix("ringcast_viewers_held_total") }
        #expect(heldLine.map { !$0.hasSuffix(" 0") } == true, "the server held the paused viewer back: \(heldLine ?? "no line")")
    }

    /// What the paused viewer saw once it read again.
    struct Resumed: Sendable {
        /// The newest seq the reading viewer had when the paused one resumed.
        var newest: UInt64
        /// Bytes the paused viewer held (its own receive buffer) when it resumed.
        var held: Int
        /// Frames among those bytes.
        var oldFrames: Int
        /// The first frame past them (nil when the connection ended first).
        var firstPastHeld: UInt64?
    }

    /// Connects a viewer with a small receive buffer (4 KiB, so its window closes within the pause), reads 30
    /// frames, stops reading for 5 s, then reads what it held and the first frame past it. Blocking: run it on a
    /// thread of its own. Reads wait up to 45 s: a kernel that shrank this small buffer's window to just above the
    /// pacing reserve gets its next message only after most of the stall timeout (`SendPacing.settle`).
    static func pauseAndResume(port: Int, format: String, reading: TestViewer) throws -> Resumed {
        let paused = try RawWebSocket(
            port: port, path: "/ws?board=main&format=\(format)", timeoutSeconds: 45, receiveBufferBytes: 4096)
        var frames = 0
        while frames < 30 {
            guard let message = try paused.readFrameCountingBytes() else { throw ViewerError.failed("closed before the pause") }
            if seq(of: message.payload, format: format) != nil { frames += 1 }
        }

        Thread.sleep(forTimeInterval: 5)  // the viewer does not read: the scenario, not a wait for an event
        guard let newest = reading.frames.last?.seq else { throw ViewerError.failed("the reading viewer has no frame") }
        var resumed = Resumed(newest: newest, held: paused.bytesWaiting(), oldFrames: 0)

        // What it held itself may be old; the first frame past it must be the newest or newer.
        var offset = 0
        while let message = try paused.readFrameCountingBytes() {
            let start = offset
            offset += message.wireBytes
            guard let seq = seq(of: message.payload, format: format) else { continue }
            if start < resumed.held {
                resumed.oldFrames += 1
                continue
            }
            resumed.firstPastHeld = seq
            break
        }
        return resumed
    }

    /// The seq of a frame message (its low 32 bits in binary); nil for a layout or an event.
    static func seq(of payload: [UInt8], format: String) -> UInt64? {
        if format == "binary" {
            // 'R' | version | kind (2 keyframe, 3 delta) | flags | seq u32 little-endian
            guard payload.count >= 8, payload[0] == 0x52, payload[2] == 2 || payload[2] == 3 else { return nil }
            return payload[4..<8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard let frame = try? JSONDecoder().decode(TestFrame.self, from: Data(payload)), frame.type == "frame" else {
            return nil
        }
        return frame.seq
    }
}
