/// The PEM certificate (chain) and private key a server presents for https and wss, handed to
/// libwebsockets as they are (check them first: RingCastTLS's `TLSFileCheck`).
public struct TLSFiles: Sendable, Equatable {
    public var certificatePath: String
    public var privateKeyPath: String

    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }
}
