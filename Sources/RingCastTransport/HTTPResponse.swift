/// A response the transport writes back. `Content-Length` is always set by the transport from
/// `body`; do not add it (nor `Connection`) yourself.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Written in order, e.g. `("Content-Type", "application/json")`.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header named `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
