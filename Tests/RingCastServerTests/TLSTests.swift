import Foundation
import RingCastServer
import RingCastTransport
import TLSTestSupport
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

    @Test(.tlsExclusive) func serveWithCertificate_saysHTTPS_andServesGETAndPATCHOverHTTPS() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let server = try Self.httpsServer(certificate)
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

    @Test(.tlsExclusive) func wssViewer_receivesTheLayoutAndAKeyframe() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let server = try Self.httpsServer(certificate)
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

    /// A server of `certificate` (https and wss on its port), adjusted further by `adjust`.
    private static func httpsServer(
        _ certificate: TestCertificate, adjust: (inout RingCastConfiguration) -> Void = { _ in }
    ) throws -> TestServer {
        try TestServer { configuration in
            configuration.tlsCertificate = certificate.certificate
            configuration.tlsKey = certificate.key
            adjust(&configuration)
        }
    }

    /// `openssl s_client` with `arguments` against 127.0.0.1:`port`, its input closed (so it
    /// ends once the handshake is done): whether the handshake succeeded, and the protocol and
    /// cipher it reports ("(NONE)" when refused).
    private func handshake(port: Int, _ arguments: [String]) async throws -> (succeeded: Bool, summary: String) {
        let process = try await TestProcess(
            ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"] + arguments,
            executable: TestCertificate.openssl)
        let status = try await process.waitForExit(timeout: 15)
        let lines = (process.stdout + process.stderr).split(separator: "\n").map(String.init)
        let summary = lines.filter { $0.hasPrefix("New, ") || $0.contains("alert") }.joined(separator: " | ")
        // s_client exits 0 after a handshake whose input ended; 1 when the handshake failed.
        let cipher = lines.first { $0.hasPrefix("New, ") }
        return (status == 0 && cipher?.contains("Cipher is (NONE)") == false, summary)
    }

    /// Issue 21: TLS 1.2 with ECDHE and AEAD suites only, TLS 1.3, nothing older. An RSA
    /// certificate, with which OpenSSL's defaults would also offer static-RSA key exchange (main
    /// accepted AES128-SHA and AES128-GCM-SHA256, and the CBC suites with ECDHE).
    @Test(.tlsExclusive) func tlsPolicy_refusesStaticRSACBCAndOldProtocols_acceptsECDHEWithAEADAndTLS13() async throws {
        let certificate = try await TestCertificate.make(rsa: true)
        defer { certificate.remove() }
        let server = try Self.httpsServer(certificate)
        defer { server.shutdown() }
        let cases: [(arguments: [String], accepted: Bool)] = [
            (["-tls1_2", "-cipher", "AES128-SHA"], false),  // static RSA, CBC, SHA-1
            (["-tls1_2", "-cipher", "AES128-GCM-SHA256"], false),  // static RSA
            (["-tls1_2", "-cipher", "ECDHE-RSA-AES128-SHA"], false),  // CBC, SHA-1
            (["-tls1_2", "-cipher", "ECDHE-RSA-AES256-SHA384"], false),  // CBC
            // The client allows what its own defaults forbid, so the refusal is the server's.
            (["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"], false),
            (["-tls1", "-cipher", "DEFAULT@SECLEVEL=0"], false),
            (["-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256"], true),
            (["-tls1_2", "-cipher", "ECDHE-RSA-AES256-GCM-SHA384"], true),
            (["-tls1_2", "-cipher", "ECDHE-RSA-CHACHA20-POLY1305"], true),
            (["-tls1_3"], true),
        ]
        for (arguments, accepted) in cases {
            let (succeeded, summary) = try await handshake(port: server.port, arguments)
            #expect(succeeded == accepted, "s_client \(arguments.joined(separator: " ")): \(summary)")
        }
    }

    /// A client that asks to renegotiate a TLS 1.2 session (each renegotiation costs the server a
    /// full handshake, a known way to load it) is refused: s_client's `R` command gets the
    /// server's `no_renegotiation` alert.
    @Test(.tlsExclusive) func tlsPolicy_refusesClientInitiatedRenegotiation() async throws {
        let certificate = try await TestCertificate.make(rsa: true)
        defer { certificate.remove() }
        let server = try Self.httpsServer(certificate)
        defer { server.shutdown() }
        // `R` on its own line, once the handshake is surely done, asks s_client to renegotiate.
        let command =
            "(sleep 1; echo R; sleep 2) | \(TestCertificate.openssl.path) s_client -tls1_2 "
            + "-connect 127.0.0.1:\(server.port) -servername localhost"
        let process = try await TestProcess(["-c", command], executable: URL(fileURLWithPath: "/bin/sh"))
        _ = try await process.waitForExit(timeout: 20)
        let output = process.stdout + process.stderr
        #expect(output.contains("RENEGOTIATING"), "s_client did not ask: \(output)")
        #expect(output.contains("no renegotiation"), "the server did not refuse: \(output)")
    }

    /// With a P-256 certificate the ECDSA suites are the ones offered, AEAD only.
    @Test(.tlsExclusive) func tlsPolicy_withAnECDSACertificate_acceptsECDHEECDSAWithAEADOnly() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let server = try Self.httpsServer(certificate)
        defer { server.shutdown() }
        for (arguments, accepted) in [
            (["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA"], false),
            (["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"], true),
            (["-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305"], true),
        ] {
            let (succeeded, summary) = try await handshake(port: server.port, arguments)
            #expect(succeeded == accepted, "s_client \(arguments.joined(separator: " ")): \(summary)")
        }
    }

    /// Opt-in: `tls.hstsMaxAgeSeconds` puts Strict-Transport-Security on every https answer —
    /// the page, the API, the transport's own errors; without it there is none.
    @Test(.tlsExclusive) func hsts_isOnEveryHTTPSAnswerWhenConfigured_andAbsentByDefault() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        for maxAge in [31_536_000, 0] {
            let server = try Self.httpsServer(certificate) { $0.hstsMaxAgeSeconds = maxAge }
            defer { server.shutdown() }
            for path in ["/", "/api/v1/boards/main", "/nothing-here"] {
                let (status, output) = try await curl(
                    ["-D", "-", "-o", "/dev/null"], "https://127.0.0.1:\(server.port)\(path)", certificate: certificate)
                #expect(status == 0, "curl: \(output)")
                let header = output.split(separator: "\r\n").first { $0.lowercased().hasPrefix("strict-transport-security:") }
                #expect(
                    header.map(String.init) == (maxAge > 0 ? "strict-transport-security: max-age=\(maxAge)" : nil),
                    "\(path) with max-age \(maxAge): \(output)")
            }
        }
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
