import RingCastTransport

/// `X-RingCast-Node` on every answer in cluster mode (docs/CLUSTER.md): REST answers get it in
/// `handleHTTP`; a viewer's `101`, a refused upgrade, the page's static files and the errors the
/// transport answers itself get it here. Nothing when serving alone. Service thread only.
extension Application {
    /// The header naming this node, or none.
    var nodeHeaders: [(name: String, value: String)] {
        nodeName.map { [(name: "X-RingCast-Node", value: $0)] } ?? []
    }

    /// The `101 Switching Protocols` of an admitted viewer (and of one refused in-band).
    func upgradeHeaders(for viewer: ViewerID) -> [(name: String, value: String)] {
        nodeHeaders
    }

    /// The page's static files.
    func fileHeaders() -> [(name: String, value: String)] {
        nodeHeaders
    }

    /// `admission` with the node's header on its answer when it is a refusal.
    func namingNode(_ admission: ViewerAdmission) -> ViewerAdmission {
        guard case .reject(var response) = admission else { return admission }
        response.headers += nodeHeaders
        return .reject(response)
    }
}
