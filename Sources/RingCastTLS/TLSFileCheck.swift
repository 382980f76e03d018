internal import COpenSSL

#if canImport(Glibc)
    import Glibc
#endif

/// Checks the PEM certificate (chain) and private key a server is to present for https and wss.
///
/// libwebsockets reports an unreadable or mismatched file only as a failed `lws_create_vhost` and
/// a log line, so the server reads both files here first and says which file is wrong and why.
public enum TLSFileCheck {
    /// Throws when either file cannot be read or parsed, or the key is not the certificate's.
    public static func check(certificatePath: String, privateKeyPath: String) throws(TLSFileProblem) {
        guard let certificateBIO = Self.open(certificatePath) else {
            throw Self.unreadable(certificatePath, as: .certificate)
        }
        defer { BIO_free(certificateBIO) }
        guard let certificate = PEM_read_bio_X509(certificateBIO, nil, nil, nil) else {
            ERR_clear_error()
            throw TLSFileProblem(file: .certificate, message: "\(certificatePath) holds no PEM certificate")
        }
        defer { X509_free(certificate) }

        guard let keyBIO = Self.open(privateKeyPath) else {
            throw Self.unreadable(privateKeyPath, as: .privateKey)
        }
        defer { BIO_free(keyBIO) }
        // A password callback that gives none: an encrypted key fails here instead of OpenSSL
        // prompting on the terminal.
        guard let key = PEM_read_bio_PrivateKey(keyBIO, nil, { _, _, _, _ in 0 }, nil) else {
            ERR_clear_error()
            throw TLSFileProblem(
                file: .privateKey,
                message: "\(privateKeyPath) holds no unencrypted PEM private key"
            )
        }
        defer { EVP_PKEY_free(key) }
        guard X509_check_private_key(certificate, key) == 1 else {
            ERR_clear_error()
            throw TLSFileProblem(
                file: .privateKey,
                message: "\(privateKeyPath) does not match the certificate \(certificatePath)"
            )
        }
    }

    private static func open(_ path: String) -> OpaquePointer? {
        errno = 0
        return BIO_new_file(path, "r")
    }

    private static func unreadable(_ path: String, as file: TLSFileProblem.File) -> TLSFileProblem {
        let code = errno
        ERR_clear_error()
        let reason = code == 0 ? "cannot open it" : String(cString: strerror(code))
        return TLSFileProblem(file: file, message: "cannot read \(path): \(reason)")
    }
}

/// Which TLS file is unusable and why, e.g. `/etc/ringcast/key.pem does not match the certificate
/// /etc/ringcast/cert.pem`.
public struct TLSFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum File: Sendable, Equatable {
        case certificate, privateKey
    }

    public var file: File
    public var message: String

    public var description: String { message }
}
