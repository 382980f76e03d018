import Foundation
import RingCastTransport
import TLSTestSupport
import Testing

/// Issue 21: a connection that never sends a ClientHello held the TLS port for `requestTimeout`
/// plus lws's own timeout (25 s with the server's defaults, against 10 s on plain HTTP): lws shut
/// it down politely and waited, and over a TLS session not yet set up nothing of that reaches the
/// client. Both kinds of port now close a silent connection at `requestTimeout`.
@Suite("Silent connections")
struct HandshakeTimeoutTests {
    @Test(.tlsExclusive, arguments: [false, true])
    func silentConnection_isClosedAtTheRequestTimeout_onPlainAndTLSPorts(secure: Bool) async throws {
        let certificate = secure ? try SelfSignedCertificate.write() : nil
        defer { certificate?.remove() }
        let server = try TestServer { configuration in
            configuration.requestTimeout = 2
            configuration.tls = certificate.map { TLSFiles(certificatePath: $0.certificate, privateKeyPath: $0.key) }
        }
        defer { server.stop() }
        let port = server.port
        let (closed, seconds) = try await onOwnThread {
            let connection = try RawHTTPConnection(port: port, timeout: 15)
            let start = Date()
            let closed = connection.isClosedByServer()
            return (closed, Date().timeIntervalSince(start))
        }
        #expect(closed)
        // The deadline, and at most a poll's lateness after it (lws's would be 7 s later).
        #expect(seconds > 1.5 && seconds < 3.5, "closed after \(seconds) s")
    }
}
