import Dispatch
import RingCastCore
import RingCastTLS

/// The SVG documents `SVGHandler` answers with, composed off the service thread and kept by what they depend on.
///
/// A 255-ring board's document is over a megabyte and takes tens of milliseconds to compose: on the service thread
/// that would stall every viewer. Here the service thread only looks the document up, or takes a copy of the board's
/// animator (a value; its storage is shared, not copied) and hands it to `rendering`, which composes the frame, draws
/// it and digests its ETag; the answer comes back through the service queue.
///
/// A document depends on the board (its revision, ETag and spec), the tick or `at=end`, and the request's ring, badge
/// and arrangement. It is kept with the ticks it holds for: from the tick it was composed at until the board's next
/// tick whose frame differs (`Animator.nextTick`), which for a board at rest is never. So a flood of GETs of a resting
/// board is a flood of lookups, and GETs of a moving one compose at most one document per request kind and tick.
///
/// At most `concurrentRenders` documents are composed at once. A request whose document is not kept waits in line;
/// requests for the same document while it waits share one composition. Kept documents are bounded by count and by
/// bytes, the least recently used going first.
///
/// Touched only on the service thread.
final class SVGDocuments {
    /// What a GET asks for, besides the tick.
    struct Request: Hashable, Sendable {
        var board: String
        /// nil for the whole board.
        var ring: String?
        var badge = false
        var atEnd = false
        var arrangement: String?
    }

    /// A document as answered: its bytes, their ETag, and the frame it draws.
    struct Document: Sendable {
        let body: [UInt8]
        let etag: String
        /// The `seq` of the frame drawn: the tick composed, or for `at=end` the last pending change's if later.
        let seq: UInt64
        /// The tick it was composed at, and the first tick whose frame may differ (nil: none does, until the board
        /// changes).
        let from: Int64
        let until: Int64?

        /// Whether the document is the picture at `tick` too.
        func holds(at tick: Int64) -> Bool {
            from <= tick && until.map { tick < $0 } ?? true
        }
    }

    /// The documents kept, and their bytes: at most `maximumEntries` and `maximumBytes`.
    let maximumEntries: Int
    let maximumBytes: Int
    /// How many documents may be composed at once.
    let concurrentRenders: Int

    private let boards: Boards
    private let clock: TickClock
    private let rendering = DispatchQueue(label: "ringcast-svg", attributes: .concurrent)
    /// Where composed documents come back to; nil until `attach`, and until then every document is composed where it
    /// is asked for (the in-process tests).
    private var queue: (any ServiceQueue)?

    /// What identifies the board a document was composed from: a write raises the revision, a reverted one changes the
    /// ETag, a reload may change the spec alone. (Comparing specs is cheap: an unchanged one shares its storage.)
    private struct Source {
        let revision: Int
        let boardETag: String
        let spec: BoardSpec

        init(_ board: LiveBoard) {
            revision = board.animator.revision
            boardETag = board.etag
            spec = board.animator.spec
        }

        func isStill(_ board: LiveBoard) -> Bool {
            revision == board.animator.revision && boardETag == board.etag && spec == board.animator.spec
        }
    }

    /// A kept document and the board it was composed from.
    private struct Entry {
        let source: Source
        let document: Document
        var lastUsed: UInt64
    }

    private var kept: [Request: Entry] = [:]
    private var keptBytes = 0
    private var uses: UInt64 = 0
    /// The requests waiting for a composition, in order, with whoever waits for each.
    private var line: [Request] = []
    private var waiting: [Request: [(Result<(Document, seq: UInt64), APIError>) -> Void]] = [:]
    private var composing = 0

    init(
        boards: Boards, clock: TickClock, maximumEntries: Int = 64, maximumBytes: Int = 32 << 20, concurrentRenders: Int = 1
    ) {
        self.boards = boards
        self.clock = clock
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
        self.concurrentRenders = concurrentRenders
    }

    /// Composes documents on `rendering` from now on, handing them back through `queue`.
    func attach(queue: any ServiceQueue) {
        self.queue = queue
    }

    /// The documents kept now, their bytes, and how many were composed since start (for tests).
    var keptCount: Int { kept.count }
    var keptByteCount: Int { keptBytes }
    private(set) var compositions = 0

    /// Calls `deliver` exactly once with the document of `request` as the board is now and the `seq` of the frame it
    /// draws, or the refusal (404 for an unknown board or ring, 400 for an unknown arrangement): at once when the
    /// document is kept or the board unknown, else once composed.
    func fetch(_ request: Request, _ deliver: @escaping (Result<(Document, seq: UInt64), APIError>) -> Void) {
        let board: LiveBoard
        do throws(APIError) {
            board = try boards.board(named: request.board)
        } catch {
            return deliver(.failure(error))
        }
        let now = board.now(clock.currentTick())
        if let document = lookUp(request, of: board, at: now) {
            return deliver(.success((document, max(UInt64(clamping: now), document.seq))))
        }
        if waiting[request] == nil { line.append(request) }
        waiting[request, default: []].append(deliver)
        composeNext()
    }

    /// The kept document of `request` if it is the picture of `board` at `tick`.
    private func lookUp(_ request: Request, of board: LiveBoard, at tick: Int64) -> Document? {
        guard var entry = kept[request], entry.document.holds(at: tick), entry.source.isStill(board) else { return nil }
        uses += 1
        entry.lastUsed = uses
        kept[request] = entry
        return entry.document
    }

    /// Starts the next compositions in line while fewer than `concurrentRenders` run; those whose board went, or
    /// whose document was kept meanwhile, are answered at once.
    private func composeNext() {
        while composing < concurrentRenders, !line.isEmpty {
            let request = line.removeFirst()
            let waiters = waiting.removeValue(forKey: request) ?? []
            guard let board = boards[request.board] else {
                let missing = APIError.notFound("no board named \"\(request.board)\"", field: "board")
                for deliver in waiters { deliver(.failure(missing)) }
                continue
            }
            let now = board.now(clock.currentTick())
            if let document = lookUp(request, of: board, at: now) {
                for deliver in waiters { deliver(.success((document, max(UInt64(clamping: now), document.seq)))) }
                continue
            }
            let job = Composition(request: request, animator: board.animator, tick: now)
            compositions += 1
            let source = Source(board)
            guard let queue else {
                finish(request, source: source, job.run(), waiters: waiters)
                continue
            }
            composing += 1
            let back = ServiceThreadBound(value: (self, source, waiters))
            rendering.async {
                let result = job.run()
                queue.async {
                    let (documents, source, waiters) = back.value
                    documents.composing -= 1
                    documents.finish(request, source: source, result, waiters: waiters)
                    documents.composeNext()
                }
            }
        }
    }

    /// A composition is done: its document is kept, and everyone who waited for it answered (they asked before it
    /// began, so its tick is no older than theirs).
    private func finish(
        _ request: Request, source: Source, _ result: Result<Document, APIError>,
        waiters: [(Result<(Document, seq: UInt64), APIError>) -> Void]
    ) {
        if case .success(let document) = result {
            keep(Entry(source: source, document: document, lastUsed: 0), for: request)
        }
        let answer = result.map { ($0, seq: $0.seq) }
        for deliver in waiters { deliver(answer) }
    }

    /// Keeps `entry`, dropping the least recently used ones while over a bound; one larger than `maximumBytes` alone
    /// is not kept.
    private func keep(_ entry: Entry, for request: Request) {
        if let old = kept.removeValue(forKey: request) { keptBytes -= old.document.body.count }
        guard entry.document.body.count <= maximumBytes, maximumEntries > 0 else { return }
        while !kept.isEmpty, kept.count >= maximumEntries || keptBytes + entry.document.body.count > maximumBytes {
            guard let oldest = kept.min(by: { $0.value.lastUsed < $1.value.lastUsed }) else { break }
            kept.removeValue(forKey: oldest.key)
            keptBytes -= oldest.value.document.body.count
        }
        uses += 1
        var entry = entry
        entry.lastUsed = uses
        kept[request] = entry
        keptBytes += entry.document.body.count
    }

    /// One document to compose: what it asks, the board's animator as it was when it began, and the tick. Runs on any
    /// thread; the animator is a copy, so the served one (which composes the viewers' ticks, only forward) is not moved.
    struct Composition: Sendable {
        let request: Request
        let animator: Animator
        let tick: Int64

        func run() -> Result<Document, APIError> {
            var animator = animator
            let frame: Frame
            let until: Int64?
            if request.atEnd {
                // Before composing: the copy has applied no change beyond `tick`, so the next tick whose frame differs
                // is the first pending change's or the next animated one (conservative for a picture at rest).
                until = animator.nextTick(after: tick)
                frame = animator.restingFrameOnceStarted(from: tick)
            } else {
                frame = animator.frame(at: tick)
                until = animator.nextTick(after: tick)
            }
            let layout = FrameComposer.layout(of: request.atEnd ? animator.projected.spec : animator.spec)
            guard let arrangement = SVGRenderer.arrangementIndex(named: request.arrangement, in: layout) else {
                let names = layout.arrangements.map(\.name).joined(separator: ", ")
                return .failure(
                    .malformed(
                        "board \(layout.board) has no arrangement \"\(request.arrangement ?? "")\"; it has \(names)",
                        field: "arrangement"))
            }
            let text: String?
            if let ring = request.ring {
                text =
                    request.badge
                    ? SVGRenderer.badge(ring, layout, frame: frame)
                    : SVGRenderer.ring(ring, layout, frame: frame, arrangement: arrangement)
            } else {
                text = SVGRenderer.board(layout, frame: frame, arrangement: arrangement)
            }
            guard let text else {
                return .failure(.notFound("board \(request.board) has no ring \"\(request.ring ?? "")\"", field: "ring"))
            }
            let body = Array(text.utf8)
            return .success(Document(body: body, etag: Self.etag(of: body), seq: frame.seq, from: tick, until: until))
        }

        /// `"svg-` and the first 12 bytes of the SHA-256 of `body` in hex: a digest of the bytes, which do not hold the
        /// frame's `seq`, so a picture that does not change keeps its ETag.
        static func etag(of body: [UInt8]) -> String {
            EntityTag.digest(of: body, prefix: "svg")
        }
    }
}

@available(*, unavailable)
extension SVGDocuments: Sendable {}
