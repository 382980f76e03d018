import Foundation
import Testing

/// Issue 30: linking libcurl mapped 27 more shared libraries into every `ringcast` process at start (an idle
/// `serve` went from 30.5 to 37.2 MiB resident, past the bench target). A real `ringcast serve` now maps no
/// libcurl until its first webhook, read from /proc/PID/maps.
@Suite("libcurl loaded on the first webhook, live")
struct WebhookLibcurlLiveTests {
    @Test func libcurl_isNotMappedUntilTheFirstWebhook_thenIsAndThePOSTArrives() async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-libcurl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try await TestProcess(["serve", "--port", "0", "--data-dir", data.path])
        defer { serve.signal(SIGKILL) }
        let line = try await serve.waitForLine { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        #expect(try Self.mapsLibcurl(serve.pid) == false, "libcurl is mapped at start")

        let http = TestHTTPClient(port: port)
        let body = #"{"rings":[{"id":"c","kind":"countdown","webhook":"http://127.0.0.1:\#(receiver.port)/h"}]}"#
        let created = try http.send("PUT", "/api/v1/boards/lazy", body: body)
        #expect(created.status == 201, "\(created.text)")
        let read = try http.get("/api/v1/boards/lazy")
        #expect(read.status == 200, "\(read.text)")
        #expect(try Self.mapsLibcurl(serve.pid) == false, "libcurl is mapped after a board's PUT and GET")

        let started = try http.send("POST", "/api/v1/boards/lazy/countdown", body: #"{"seconds":0.2}"#)
        #expect(started.status < 300, "\(started.text)")
        let requests = try await receiver.waitForRequests(1, timeout: 15)
        #expect(requests.first?.body.contains(#""board":"lazy""#) == true, "\(requests)")
        #expect(try Self.mapsLibcurl(serve.pid), "libcurl is not mapped after the webhook was POSTed")
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit() == 0, "stderr: \(serve.stderr)")
    }

    /// Whether process `pid` has libcurl mapped (any `libcurl` file in /proc/PID/maps).
    private static func mapsLibcurl(_ pid: Int32) throws -> Bool {
        // Read to the end: `String(contentsOfFile:)` stops at the first page of a /proc file.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        // The stack is mapped high, near the end: seen, the file was read whole.
        try #require(maps.contains("[stack]"), "/proc/\(pid)/maps was not read whole")
        return maps.split(separator: "\n").contains { $0.split(separator: "/").last?.hasPrefix("libcurl") == true }
    }
}
