import Foundation
import RingCastTLS
import RingCastTransport

extension RingCastConfiguration {
    /// The certificate and key to serve with, both read and checked against each other first, so
    /// a wrong file is reported by its key (`tls.key: /etc/ringcast/key.pem does not match the
    /// certificate /etc/ringcast/cert.pem`) rather than as a vague libwebsockets failure; nil
    /// when TLS is off.
    func tlsFiles() throws(ConfigurationError) -> TLSFiles? {
        guard let tlsCertificate, let tlsKey else { return nil }
        let files = TLSFiles(
            certificatePath: Self.absolute(tlsCertificate), privateKeyPath: Self.absolute(tlsKey),
            strictTransportSecurityMaxAge: hstsMaxAgeSeconds)
        do {
            try TLSFileCheck.check(certificatePath: files.certificatePath, privateKeyPath: files.privateKeyPath)
        } catch {
            let key = error.file == .certificate ? "tls.cert" : "tls.key"
            throw self.error(key: key, error.message)
        }
        return files
    }

    /// Paths in messages as the operator can find them from anywhere.
    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
