import RingCastClient
import RingCastTransport

/// The viewers on RingCastTransport's `WebSocketClient`: one libwebsockets client context and its
/// service thread, which delivers every message to the recorder.
final class BenchLWSClient: BenchViewerClient {
    private let client: WebSocketClient
    private let address: ServerAddress
    private let recorder: BenchRecorder

    init(address: ServerAddress, recorder: BenchRecorder) throws(BenchFailure) {
        do {
            client = try WebSocketClient()
        } catch {
            throw BenchFailure("cannot start the libwebsockets client: \(error)")
        }
        self.address = address
        self.recorder = recorder
    }

    func connect(viewer: Int, path: String) {
        let recorder = recorder
        client.connect(host: address.host, port: address.port, path: path) { _, event in
            recorder.handle(viewer: viewer, event)
        }
    }

    func shutdown() {
        client.shutdown()
    }
}

@available(*, unavailable)
extension BenchLWSClient: Sendable {}
