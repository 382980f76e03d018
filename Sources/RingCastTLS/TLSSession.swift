internal import COpenSSL

#if canImport(Glibc)
    import Glibc
#endif

/// One client TLS session over a connected blocking socket, the socket's timeouts bounding every
/// call. Owns its `SSL_CTX` and `SSL` and frees both in `deinit`; the socket stays the caller's.
///
/// Used from one thread at a time.
public final class TLSSession {
    private let context: OpaquePointer
    private let ssl: OpaquePointer

    /// Handshakes as a client of `serverName` (a DNS name or a numeric IP address): verifies the
    /// chain against the PEM certificates in `caFile` (nil: the system's store) and the
    /// certificate's names against `serverName`.
    public init(socket: Int32, serverName: String, caFile: String?) throws(TLSFailure) {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .setup("SSL_CTX_new: \(Self.openSSLError())")
        }
        // Set before SSL_new, which copies the verify mode and protocol versions.
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = copenssl_require_tls12(context)
        let loaded =
            if let caFile {
                SSL_CTX_load_verify_locations(context, caFile, nil)
            } else {
                SSL_CTX_set_default_verify_paths(context)
            }
        guard loaded == 1, let ssl = SSL_new(context) else {
            let reason = Self.openSSLError()
            SSL_CTX_free(context)
            let what = caFile.map { "cannot read CA certificates from \($0)" } ?? "cannot load the system's CA store"
            throw .setup(loaded == 1 ? "SSL_new: \(reason)" : "\(what): \(reason)")
        }
        self.context = context
        self.ssl = ssl
        // The host check: an IP address must be an IP entry of subjectAltName, a name a DNS entry;
        // SNI carries names only (RFC 6066 §3).
        if Self.isNumeric(serverName) {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName)
        } else {
            SSL_set1_host(ssl, serverName)
            _ = copenssl_set_server_name(ssl, serverName)
        }
        SSL_set_fd(ssl, socket)
        let result = SSL_connect(ssl)
        guard result == 1 else {
            let verification = SSL_get_verify_result(ssl)
            if verification != X509_V_OK {
                ERR_clear_error()
                throw .certificateRejected(String(cString: X509_verify_cert_error_string(verification)))
            }
            throw failure(result, call: "TLS handshake")
        }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Writes all of `bytes`.
    public func send(_ bytes: [UInt8]) throws(TLSFailure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + sent, Int32($0.count - sent)) }
            guard count > 0 else { throw failure(count, call: "SSL_write") }
            sent += Int(count)
        }
    }

    /// Appends what has arrived (at least one byte, at most 16 KiB) to `buffer`.
    public func receive(appendingTo buffer: inout [UInt8]) throws(TLSFailure) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
        guard count > 0 else { throw failure(count, call: "SSL_read") }
        buffer.append(contentsOf: chunk[0..<Int(count)])
    }

    /// The `TLSFailure` for a failed SSL call that returned `result`.
    private func failure(_ result: Int32, call: String) -> TLSFailure {
        let code = errno
        let kind = SSL_get_error(ssl, result)
        defer { ERR_clear_error() }
        switch kind {
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            // A blocking socket's SO_RCVTIMEO or SO_SNDTIMEO ran out.
            return .timedOut
        case SSL_ERROR_SYSCALL:
            switch code {
            case EAGAIN: return .timedOut
            case 0, EPIPE, ECONNRESET: return .closed
            default: return .system("\(call): \(String(cString: strerror(code)))")
            }
        default:
            return .protocolFailure("\(call): \(Self.openSSLError())")
        }
    }

    /// OpenSSL's queued error as text (the oldest), or a placeholder when there is none.
    static func openSSLError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown error" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isNumeric(_ host: String) -> Bool {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        return inet_pton(AF_INET, host, &ipv4) == 1 || inet_pton(AF_INET6, host, &ipv6) == 1
    }
}

@available(*, unavailable)
extension TLSSession: Sendable {}
