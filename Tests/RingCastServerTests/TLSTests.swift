import Foundation
import RingCastTransport
import Testing

/// Live: https and wss on one port with a self-signed certificate for 127.0.0.1 and localhost,
/// reached by curl, the libwebsockets viewer client and `ringcast push` / `get`.
@Suite("TLS")
struct TLSTests {
    private static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    /// `curl --cacert` against `url`: the exit status, and the body followed by a last line with
    /// the HTTP status.
    private func curl(_ arguments: [String], _ url: String, certificate: TestCertificate) async throws -> (Int32, String) {
        let process = try await TestProcess(
            ["-sS", "--max-time", "10", "--cacert", certificate.certificate, "-w", "\n%{http_code}"] + arguments + [url],
            executable: Self.curl
        )
        let status = try await process.waitForExit(timeout: 15)
        return (status, process.stdout + process.stderr)
    }

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-tls-data-\(UUID().uuidString)")
    }

    @Test func serveWithCertificate_saysHTTPS_andServesGETAndPATCHOverHTTPS() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let server = try TestServer { configuration in
            configuration.tlsCertificate = certificate.certificate
            configuration.tlsKey = certificate.key
        }
        defer { server.shutdown() }
        #expect(server.server.url == "https://127.0.0.1:\(server.port)")
        let base = "https://127.0.0.1:\(server.port)"

        let (getStatus, getOutput) = try await curl([], base + "/api/v1/boards/main", certificate: certificate)
        #expect(getStatus == 0, "curl: \(getOutput)")
        #expect(getOutput.hasSuffix("\n200"), "curl: \(getOutput)")
        #expect(getOutput.contains(#""board":"main""#), "curl: \(getOutput)")

        // By name: the certificate's DNS entry.
        let (patchStatus, patchOutput) = try await curl(
            ["-X", "PATCH", "-H", "Content-Type: application/json", "--data", #"{"rings":{"move":{"progress":0.25}}}"#],
            "https://localhost:\(server.port)/api/v1/boards/main",
            certificate: certificate
        )
        #expect(patchStatus == 0, "curl: \(patchOutput)")
        #expect(patchOutput.hasSuffix("\n200"), "curl: \(patchOutput)")
        let (_, after) = try await curl([], base + "/api/v1/boards/main/rings/move", certificate: certificate)
        #expect(after.contains(#""target":0.25"#), "curl: \(after)")
    }

    @Test func wssViewer_receivesTheLayoutAndAKeyframe() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let server = try TestServer { configuration in
            configuration.tlsCertificate = certificate.certificate
            configuration.tlsKey = certificate.key
        }
        defer { server.shutdown() }
        let client = try WebSocketClient(caFile: certificate.certificate)
        defer { client.shutdown() }

        let viewer = TestViewer(client: client, port: server.port, secure: true)
        let messages = try await viewer.waitUntil(timeout: 10, "layout and keyframe over wss") { $0.count >= 2 }
        guard case .layout(let layout, _) = messages[0] else {
            Issue.record("first message is not a layout: \(String(decoding: messages[0].bytes, as: UTF8.self))")
            return
        }
        #expect(layout.board == "main")
        let frame = try #require(messages[1].frame)
        #expect(frame.keyframe == true)
        #expect(frame.rings.count == layout.rings.count)
    }

    @Test func ringcastServe_printsHTTPS_andPushAndGetNeedTheCertificateTrusted() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try await TestProcess([
            "serve", "--port", "0", "--data-dir", data.path,
            "--tls-cert", certificate.certificate, "--tls-key", certificate.key,
        ])
        defer { serve.signal(SIGKILL) }
        let line = try await serve.waitForLine { $0.hasPrefix("listening on ") }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "line: \(line)")
        #expect(line == "listening on https://127.0.0.1:\(port)")
        let url = "https://127.0.0.1:\(port)"

        let push = try await TestProcess([
            "push", "main", "move", "0.42", "--curve", "none", "--server", url, "--cacert", certificate.certificate,
        ])
        #expect(try await push.waitForExit() == 0, "stderr: \(push.stderr)")
        #expect(push.stdout.contains("42%"), "stdout: \(push.stdout)")

        let get = try await TestProcess(
            ["get", "main", "move", "--server", "https://localhost:\(port)"],
            environment: ["RINGCAST_CACERT": certificate.certificate])
        #expect(try await get.waitForExit() == 0, "stderr: \(get.stderr)")
        #expect(get.stdout.contains("42%"), "stdout: \(get.stdout)")

        // Without --cacert the system store does not know a self-signed certificate.
        let untrusted = try await TestProcess(["push", "main", "move", "0.5", "--server", url])
        #expect(try await untrusted.waitForExit() != 0)
        #expect(
            untrusted.stderr.contains("certificate is not trusted: self-signed certificate")
                && untrusted.stderr.contains("--cacert"),
            "stderr: \(untrusted.stderr)"
        )

        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit() == 0, "stderr: \(serve.stderr)")
    }

    @Test func serveWithAKeyOfAnotherCertificate_failsAtStart_namingBothFiles() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let serve = try await TestProcess([
            "serve", "--port", "0", "--data-dir", data.path,
            "--tls-cert", certificate.certificate, "--tls-key", certificate.otherKey,
        ])
        #expect(try await serve.waitForExit() != 0)
        #expect(
            serve.stderr.contains("--tls-key: \(certificate.otherKey) does not match the certificate \(certificate.certificate)"),
            "stderr: \(serve.stderr)"
        )
        #expect(!serve.stdout.contains("listening"))
    }

    @Test func serveWithAMissingOrALoneFile_failsAtStart_sayingWhich() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let missing = certificate.directory.appendingPathComponent("missing.pem").path

        let noCertificate = try await TestProcess([
            "serve", "--port", "0", "--data-dir", data.path, "--tls-cert", missing, "--tls-key", certificate.key,
        ])
        #expect(try await noCertificate.waitForExit() != 0)
        #expect(
            noCertificate.stderr.contains("--tls-cert: cannot read \(missing): No such file or directory"),
            "stderr: \(noCertificate.stderr)"
        )

        let noKey = try await TestProcess(
            ["serve", "--port", "0", "--data-dir", data.path],
            environment: ["RINGCAST_TLS_CERT": certificate.certificate, "RINGCAST_TLS_KEY": missing]
        )
        #expect(try await noKey.waitForExit() != 0)
        #expect(noKey.stderr.contains("RINGCAST_TLS_KEY: cannot read \(missing)"), "stderr: \(noKey.stderr)")

        let alone = try await TestProcess([
            "serve", "--port", "0", "--data-dir", data.path, "--tls-cert", certificate.certificate,
        ])
        #expect(try await alone.waitForExit() != 0)
        #expect(alone.stderr.contains("give both or neither"), "stderr: \(alone.stderr)")
    }
}
