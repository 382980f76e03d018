internal import CLibWebSockets

/// How the port speaks TLS (docs/DEPLOYMENT.md, "TLS"): TLS 1.2 with ECDHE key exchange and AEAD
/// ciphers only, TLS 1.3 with OpenSSL's own suites (all of them AEAD), nothing older; and, when
/// asked for, a Strict-Transport-Security header on every https answer.
extension WebServer {
    /// TLS 1.2's ciphers, in OpenSSL's names: forward secrecy (ECDHE) and authenticated encryption
    /// (AES-GCM, ChaCha20-Poly1305), for ECDSA and RSA certificates — Mozilla's "intermediate"
    /// list without its finite-field DHE. No static-RSA key exchange, no CBC, no SHA-1 MACs.
    /// TLS 1.3 does not read this list.
    static let tls12Ciphers = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    /// Sets the policy on the server vhost's creation info. lws 4.1.6 applies the cipher list and
    /// the options to the vhost's SSL_CTX without reading back their result: `TLSTests` checks
    /// with `openssl s_client` that they took.
    static func applyTLSPolicy(_ tls: TLSFiles, to info: inout lws_context_creation_info, _ memory: CAllocations) {
        info.ssl_cipher_list = memory.string(tls12Ciphers)
        info.ssl_options_set = clws_ssl_options_no_tls_before_1_2()
        // lws adds the vhost's `headers` to every answer it starts (`lws_add_http_header_status`):
        // the transport's, the application's and static files. Not to the 101 of a WebSocket.
        if tls.strictTransportSecurityMaxAge > 0 {
            info.headers = UnsafePointer(
                memory.single(
                    lws_protocol_vhost_options(
                        next: nil,
                        options: nil,
                        name: memory.string("strict-transport-security:"),
                        value: memory.string("max-age=\(tls.strictTransportSecurityMaxAge)")
                    )))
        }
    }
}
