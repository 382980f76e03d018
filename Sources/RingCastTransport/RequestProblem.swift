/// Why the transport answers a request with an error instead of serving it: the status, a message
/// a user can act on, and any header the status needs (`Allow` for 405, `Sec-WebSocket-Version`
/// for 426). The body comes from `TransportDelegate.errorResponse`.
struct RequestProblem {
    var status: Int
    var message: String
    var headers: [(name: String, value: String)] = []
}
