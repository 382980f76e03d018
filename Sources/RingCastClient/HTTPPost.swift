import Foundation

/// One POST for `HTTPPoster`, with the bounds of its one try: a deadline for the whole of it and a cap on the
/// answer read.
public struct HTTPPost: Sendable, Equatable {
    /// An `http://` or `https://` URL; any other scheme is refused (`PostFailure.unsupportedScheme`).
    public var url: String
    public var body: [UInt8]
    public var contentType: String
    /// From the start of the try (name lookup and connection included) to the answer's last byte: past it
    /// the transfer is cut, however steadily the receiver trickles.
    public var deadlineMilliseconds: Int
    /// The most answer bytes (status line, headers and body) read: past it, or a `Content-Length` beyond it,
    /// the connection is dropped (`PostFailure.answerTooLarge`).
    public var answerLimit: Int

    public init(
        url: String, body: [UInt8], contentType: String = "application/json", deadlineMilliseconds: Int = 5000,
        answerLimit: Int = 64 * 1024
    ) {
        self.url = url
        self.body = body
        self.contentType = contentType
        self.deadlineMilliseconds = max(1, deadlineMilliseconds)
        self.answerLimit = max(1, answerLimit)
    }

    /// What `HTTPPoster.maximumPerReceiver` counts against: scheme, host and port (`https://a.example:443`);
    /// the URL itself when it has no host (curl then refuses it).
    public var receiver: String {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(), let host = parts.host
        else { return url }
        let port = parts.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host.lowercased()):\(port)"
    }
}

/// A POST's 2xx answer.
public struct PostAnswer: Sendable, Equatable {
    public var status: Int
    /// Answer bytes read: the status line, headers and body.
    public var answerBytes: Int

    public init(status: Int, answerBytes: Int) {
        self.status = status
        self.answerBytes = answerBytes
    }
}
