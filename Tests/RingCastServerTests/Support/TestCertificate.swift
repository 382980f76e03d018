import Foundation

/// A self-signed certificate for 127.0.0.1 and localhost, its key, and a second key that does not
/// match it, made with the `openssl` command in a temporary directory; `remove()` deletes them.
struct TestCertificate: Sendable {
    static let openssl = URL(fileURLWithPath: "/usr/bin/openssl")

    let directory: URL
    var certificate: String { directory.appendingPathComponent("cert.pem").path }
    var key: String { directory.appendingPathComponent("key.pem").path }
    var otherKey: String { directory.appendingPathComponent("other-key.pem").path }

    /// P-256 keys: as good as RSA here, and made in milliseconds. `rsa`: an RSA 2048 certificate
    /// instead, the kind with which a server can offer static-RSA key exchange (the other key stays
    /// P-256).
    static func make(rsa: Bool = false) async throws -> TestCertificate {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ringcast-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let made = TestCertificate(directory: directory)
        let newKey = rsa ? ["rsa:2048"] : ["ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
        try await run(
            ["req", "-x509", "-newkey"] + newKey + [
                "-nodes", "-keyout", made.key, "-out", made.certificate, "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            ])
        try await run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", made.otherKey])
        return made
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func run(_ arguments: [String]) async throws {
        let process = try await TestProcess(arguments, executable: openssl)
        let status = try await process.waitForExit()
        guard status == 0 else {
            throw ViewerError.failed("openssl \(arguments.joined(separator: " ")) exited with \(status): \(process.stderr)")
        }
    }
}
