internal import COpenSSL

/// A SHA-256 digest from the OpenSSL libcrypto that RingCast already links for TLS, so no second
/// cryptography library (swift-crypto brought ~250 BoringSSL compile units) is built for one hash.
public struct SHA256Digest: Hashable, Sendable {
    /// The size of a digest in bytes.
    public static let byteCount = Int(SHA256_DIGEST_LENGTH)

    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// The digest of `message`.
    public init(of message: [UInt8]) {
        var digest = [UInt8](repeating: 0, count: Self.byteCount)
        message.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = COpenSSL.SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        bytes = digest
    }
}
