import Synchronization

/// Where the transport's few log lines go (and libwebsockets' own errors and warnings).
/// The default drops them; the server sets this once at start-up, before creating a server.
public enum TransportLog {
    private static let storage = Mutex<@Sendable (String) -> Void>({ _ in })

    public static var handler: @Sendable (String) -> Void {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    static func emit(_ line: String) {
        handler(line)
    }
}
