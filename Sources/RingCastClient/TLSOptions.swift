/// How `HTTPClient` speaks https: which certificates it trusts. The server's certificate must
/// always chain to one of them and name the host the client was given (a DNS name or an IP
/// address in its subjectAltName).
public struct TLSOptions: Sendable, Equatable {
    /// PEM file of CA certificates to trust (a self-signed server's own certificate, say); nil =
    /// OpenSSL's default store, the system's (/etc/ssl/certs).
    public var caFile: String?

    public init(caFile: String? = nil) {
        self.caFile = caFile
    }
}
