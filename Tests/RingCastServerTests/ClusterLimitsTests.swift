import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 20 in cluster mode: what one node accepts, a node joining the cluster loads from Redis and serves.
@Suite("Cluster limits")
struct ClusterLimitsTests {
    /// One board of one row of `LimitsTests.fields`, written with one extreme value through node a.
    struct Written: Sendable {
        var field: NumericField
        var board: String
        var value: Double
        /// Node a's answer to the write, and its GET of the board afterwards.
        var write: TestResponse
        var served: TestSnapshot
        /// The first value beyond on this side of the range, if the field has one: node a's answer, and the
        /// board's ETag before and after it.
        var beyond: (value: Double, write: TestResponse, etagBefore: String?, etagAfter: String?)?
    }

    /// Issue 20, cluster part: for every numeric field of every body (`LimitsTests.fields`), the smallest and
    /// the largest accepted values, written through node a, are stored in Redis; a node b that joins
    /// afterwards loads every board, keeps running and serves the same targets and background as a did. The
    /// first values beyond are refused by a with 422 naming the field, and leave the board's ETag unchanged.
    @Test func extremeValuesWrittenOnOneNode_areServedByANodeThatJoins_andTheFirstBeyondIsRefused() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let a = try await cluster.start("a")

        let written = try await onOwnThread { try Self.writeExtremes(through: a.http) }
        for entry in written {
            let label = "\(entry.field.name), \(entry.board) = \(entry.value)"
            #expect((200...299).contains(entry.write.status), "\(label): \(entry.write.status) \(entry.write.text)")
            if let beyond = entry.beyond {
                let label = "\(entry.field.name), \(entry.board): \(beyond.value)"
                #expect(beyond.write.status == 422, "\(label): \(beyond.write.status) \(beyond.write.text)")
                #expect(beyond.write.error?.field == entry.field.field, "\(label): \(beyond.write.text)")
                #expect(beyond.etagBefore != nil && beyond.etagAfter == beyond.etagBefore, "\(label) changed the board")
            }
        }

        // Node b joins: it reads every board's snapshot from Redis. One that cannot load a state exits.
        let b: TestNode
        do {
            b = try await cluster.start("b")
        } catch {
            Issue.record("node b, joining after the writes, did not become ready: \(error)\n\(cluster.logs)")
            return
        }
        let answers = try await onOwnThread {
            try written.map { try b.http.get("/api/v1/boards/\($0.board)") }
        }
        for (entry, answer) in zip(written, answers) {
            let label = "node b, \(entry.field.name), \(entry.board) = \(entry.value)"
            #expect(answer.status == 200, "\(label): \(answer.status) \(answer.text)")
            guard answer.status == 200 else { continue }
            let snapshot = try answer.decode(TestSnapshot.self)
            #expect(snapshot.rings.map(\.target) == entry.served.rings.map(\.target), "\(label)")
            #expect(snapshot.background == entry.served.background, "\(label)")
        }
        let pid = b.process.pid
        #expect(pid > 0 && kill(pid, 0) == 0, "node b exited:\n\(cluster.logs)")
        #expect(try await onOwnThread { try b.http.get("/readyz").status } == 200, "node b:\n\(cluster.logs)")
        #expect(!b.process.stderr.contains("cannot restore"), "node b:\n\(cluster.logs)")
    }

    /// For every row, boards `f<row>-smallest` and `f<row>-largest` made from the main template on `http`, each
    /// written with its extreme value, then sent the first value beyond on its side. Blocking: run it on its
    /// own thread.
    static func writeExtremes(through http: TestHTTPClient) throws -> [Written] {
        var written: [Written] = []
        for (row, field) in LimitsTests.fields.enumerated() {
            for (side, value, beyond) in [
                ("smallest", field.smallest, field.below), ("largest", field.largest, field.above),
            ] {
                let board = "f\(row)-\(side)"
                let path = "/api/v1/boards/\(board)"
                let created = try http.send("PUT", path, body: #"{"template":"main"}"#)
                guard created.status == 201 else {
                    throw ViewerError.failed("\(field.name): PUT \(path): \(created.status) \(created.text)")
                }
                let write = try http.send(field.method, path + field.path, body: field.body(value))
                let served = try http.get(path).decode(TestSnapshot.self)
                var entry = Written(field: field, board: board, value: value, write: write, served: served)
                if let beyond {
                    let before = try http.get(path).headers["etag"]
                    let refused = try http.send(field.method, path + field.path, body: field.body(beyond))
                    let after = try http.get(path).headers["etag"]
                    entry.beyond = (beyond, refused, before, after)
                }
                written.append(entry)
            }
        }
        return written
    }
}
