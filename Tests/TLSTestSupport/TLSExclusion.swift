import Testing

/// Runs the tests that create TLS contexts in this process one at a time.
///
/// libwebsockets 4.1.6 takes a new OpenSSL ex-data index for every context created with
/// `LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT` (every TLS server and TLS client context) and keeps it in one
/// process-wide variable; each TLS connection stores its `wsi` under the index of its day and looks it up
/// under the index of the moment. A TLS context created while another context's handshake is under way
/// therefore breaks that handshake ("connect SSL err 1", "can't get wsi from ssl privdata"). A server
/// process has one context and never meets it; the test process runs many at once, and `TLSTests`
/// failed about one run in five that way. Plain contexts do not take the index (`WebSocketClient` sets
/// up OpenSSL only when given a `caFile`), so only the TLS tests need to take turns.
public actor TLSExclusion {
    public static let shared = TLSExclusion()

    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Runs `body` while no other TLS test runs; every TLS context it creates must be gone when it returns.
    public static func run<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> sending T
    ) async rethrows -> sending T {
        await shared.acquire()
        do {
            let result = try await body()
            await shared.release()
            return result
        } catch {
            await shared.release()
            throw error
        }
    }
}

/// `@Test(.tlsExclusive)`: the test (each of its cases) runs inside `TLSExclusion.run`.
public struct TLSExclusiveTrait: TestTrait, TestScoping {
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TLSExclusion.run { try await function() }
    }
}

extension Trait where Self == TLSExclusiveTrait {
    /// The test creates TLS contexts in this process: it runs while no other such test does.
    public static var tlsExclusive: Self { Self() }
}
