import Foundation

/// `ringcast-bench --scenario pushers`: keep one ring animating, open the viewers, then let
/// `pushers` threads push to the other rings as fast as the server answers while the viewers
/// watch; measure pushes acknowledged, their latency, the viewers' frame gaps and the server's
/// late ticks over the window. Every wait has a deadline.
///
/// Main thread only; the pushers and the viewer client run on threads of their own.
struct BenchPushRun {
    /// The viewers, the animated ring and the window.
    var load: BenchLoadRun
    var pushers: Int
    /// What each push asks for (`--push-animation`).
    var animation: BenchPushAnimation
    /// How many boards the pushes go to (`--push-boards`): the watched board and `bench-2` … `bench-N`, made from
    /// the `main` template before the run (the rings pushed must be its rings too) and deleted after it.
    var boards: Int
    /// The server's data directory (`--data-dir`), to name its filesystem in the result.
    var dataDirectory: String?
    /// What the report calls the server measured (`--label`): nil for this build.
    var label: String?

    /// Different progress values each ring is pushed with (0.01 to 1).
    private static let values = 100
    /// A push without an answer for this long counts as failed.
    private static let timeoutSeconds = 5

    func run() throws(BenchFailure) -> BenchPushResult {
        let settings = load.settings
        let (board, animated) = try load.readBoard()
        // Every plain ring but the animated one: a push would stop or retarget it.
        let pushed = board.rings.filter { $0.kind == "plain" && $0.id != animated.id }
        guard !pushed.isEmpty else {
            throw BenchFailure("board \(settings.board) needs two plain rings (one to push, one to keep animating)")
        }
        let paths = try makeBoards()
        defer { deleteBoards(paths.dropFirst()) }
        let requests = try requests(boards: paths, rings: pushed.map(\.id))
        let outcome = try load.run(
            board: board, animated: animated, restoring: pushed, loadSockets: pushers,
            finishSeconds: Double(Self.timeoutSeconds + 5)
        ) { _, _, window in
            startPushers(requests: requests, targets: paths.count * pushed.count, window: window)
        }
        let tally = outcome.tallies.reduce(into: BenchPusher.Tally()) { $0.merge($1) }
        let dataBytes = dataDirectory.map(Self.bytes(under:))

        return BenchPushResult(
            date: ISO8601DateFormatter().string(from: Date()),
            command: CommandLine.arguments,
            settings: .init(
                server: settings.address.description,
                board: settings.board,
                format: settings.format.rawValue,
                pushers: pushers,
                viewers: load.viewers,
                durationSeconds: settings.duration,
                warmupSeconds: settings.warmup,
                rings: pushed.map(\.id),
                animatedRing: animated.id,
                animation: animation.argument,
                dataDirectory: dataDirectory,
                boards: boards,
                label: label
            ),
            dataFilesystem: dataDirectory.flatMap(BenchFilesystem.init(path:)),
            windowSeconds: BenchRun.round(outcome.seconds, 3),
            dataBytes: dataBytes,
            pushes: .init(
                acknowledged: tally.acknowledged,
                acknowledgedPerSecond: BenchRun.round(Double(tally.acknowledged) / outcome.seconds, 1),
                rejected: Dictionary(uniqueKeysWithValues: tally.rejected.map { (String($0.key), $0.value) }),
                failed: tally.failed,
                latencyMilliseconds: tally.latency.percentiles
            ),
            viewers: outcome.viewers,
            usage: outcome.usage
        )
    }

    /// The paths of the boards pushed to: the watched one, then `bench-2` … `bench-N`, each made (or replaced) from
    /// the `main` template with a `PUT`.
    private func makeBoards() throws(BenchFailure) -> [String] {
        var paths = [load.session.boardPath]
        guard boards > 1 else { return paths }
        let body = try load.session.encode(["template": "main"])
        for index in 2...boards {
            let path = "/api/v1/boards/bench-\(index)"
            do {
                let response = try load.session.http.request("PUT", path, json: body)
                guard (200..<300).contains(response.status) else {
                    throw BenchFailure("PUT \(path) answered \(response.status): \(response.text)")
                }
            } catch let failure as BenchFailure {
                throw failure
            } catch {
                throw BenchFailure("PUT \(path): \(error)")
            }
            paths.append(path)
        }
        return paths
    }

    /// The bytes of the regular files under `path`.
    private static func bytes(under path: String) -> Int {
        let files = FileManager.default.enumerator(atPath: path)
        var total = 0
        while let name = files?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            if attributes?[.type] as? FileAttributeType == .typeRegular { total += (attributes?[.size] as? Int) ?? 0 }
        }
        return total
    }

    /// Best effort: the run's result stands either way.
    private func deleteBoards(_ paths: ArraySlice<String>) {
        for path in paths { _ = try? load.session.http.request("DELETE", path) }
    }

    /// Every request a pusher may send, ready to write: for value v and target t (board b, ring r: t = b × rings
    /// + r), index v × targets + t.
    private func requests(boards: [String], rings: [String]) throws(BenchFailure) -> [[UInt8]] {
        var requests: [[UInt8]] = []
        for value in 1...Self.values {
            let body = try load.session.encode(
                BenchRingBody(progress: Double(value) / Double(Self.values), animation: animation))
            for board in boards {
                for ring in rings {
                    var head = "PUT \(board)/rings/\(BenchBoardSession.escape(ring)) HTTP/1.1\r\n"
                    head += "Host: \(load.settings.address.authority)\r\n"
                    if let token = load.settings.token { head += "Authorization: Bearer \(token)\r\n" }
                    head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                    requests.append(Array(head.utf8) + body)
                }
            }
        }
        return requests
    }

    /// Starts one thread a pusher, each running until the window ends. Pusher p's k-th push goes
    /// to target (p + k) mod targets (a board's ring), so every pusher cycles over every ring of every board, with
    /// value ((k / targets) × 7 + p × 13) mod values + 1, so consecutive pushes to a ring change it.
    private func startPushers(
        requests: [[UInt8]], targets: Int, window: (start: UInt64, end: UInt64)
    ) -> BenchLoadThreads<BenchPusher.Tally> {
        let address = load.settings.address
        return BenchLoadThreads(
            count: pushers,
            lateFailure: "a pusher thread did not finish within \(Self.timeoutSeconds + 5) s of the window's end"
        ) { pusher in
            BenchPusher(address: address, timeoutSeconds: Self.timeoutSeconds).run(window: window) { push in
                let target = (pusher + push) % targets
                let value = ((push / targets) * 7 + pusher * 13) % Self.values
                return requests[value * targets + target]
            }
        }
    }
}

@available(*, unavailable)
extension BenchPushRun: Sendable {}
