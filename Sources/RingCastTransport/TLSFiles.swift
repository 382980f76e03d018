/// The PEM certificate (chain) and private key a server presents for https and wss, handed to
/// libwebsockets as they are (check them first: RingCastTLS's `TLSFileCheck`), and what its https
/// answers tell browsers about keeping to https.
public struct TLSFiles: Sendable, Equatable {
    public var certificatePath: String
    public var privateKeyPath: String
    /// Seconds browsers should reach this host over https only: every https answer carries
    /// `Strict-Transport-Security: max-age=` this (RFC 6797). 0 = no header.
    public var strictTransportSecurityMaxAge: Int

    public init(certificatePath: String, privateKeyPath: String, strictTransportSecurityMaxAge: Int = 0) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
        self.strictTransportSecurityMaxAge = strictTransportSecurityMaxAge
    }
}
