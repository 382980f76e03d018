import Foundation

/// A fixed self-signed P-256 certificate for 127.0.0.1 and localhost, valid until 2126, and its
/// key, written to a temporary directory for a TLS test (`remove()` deletes them). Fixed bytes:
/// the transport tests have no process runner for `openssl`. Made with
/// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
/// -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1,DNS:localhost`.
struct SelfSignedCertificate {
    let directory: URL
    var certificate: String { directory.appendingPathComponent("cert.pem").path }
    var key: String { directory.appendingPathComponent("key.pem").path }

    static func write() throws -> SelfSignedCertificate {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ringcast-transport-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = SelfSignedCertificate(directory: directory)
        try Data(certificatePEM.utf8).write(to: URL(fileURLWithPath: files.certificate))
        try Data(keyPEM.utf8).write(to: URL(fileURLWithPath: files.key))
        return files
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBmzCCAUGgAwIBAgIUctMuBTu88cun1ILM11oweuXJsHcwCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMzAyNDExMloYDzIxMjYxMDMw
        MDI0MTEyWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAATzLrZdOcfGMJY1jjViBcYcGk0hscCvaS/oy+QQWyFmw5i18LuM5Lnn
        VNcY0lhm/jR4NzXbxM3E6c6i12zUdvqXo28wbTAdBgNVHQ4EFgQUMZnnIgFlp8uR
        rS0G1SFI8NYDZr8wHwYDVR0jBBgwFoAUMZnnIgFlp8uRrS0G1SFI8NYDZr8wDwYD
        VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
        zj0EAwIDSAAwRQIhAPb4OhEdK1njo9KMkIX/YBKZNMmv7f3UMH85hb0tywCAAiBl
        bmivtVl+rS3ufWFNvGTEsDPns1luoZk+Mtrf/L1sMg==
        -----END CERTIFICATE-----

        """

    private static let keyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgmn/iv4KKH78LYFqv
        3Cm2qui0COBRhO/I5X/ncjH4w5ShRANCAATzLrZdOcfGMJY1jjViBcYcGk0hscCv
        aS/oy+QQWyFmw5i18LuM5LnnVNcY0lhm/jR4NzXbxM3E6c6i12zUdvqX
        -----END PRIVATE KEY-----

        """
}
