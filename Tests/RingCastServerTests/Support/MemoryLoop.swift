import Dispatch
import Foundation
import Synchronization

@testable import RingCastServer
@testable import RingCastTransport

/// The loop `TestApplication` attaches the real `Application` to: the server's `ServiceLoop` in memory, on the test's
/// thread, which plays the service thread. Its viewers are the transport's own `Channel` and `Viewer` (latest wins,
/// delta or keyframe by the base a viewer holds, the layout preamble, notices), each read at once by a
/// `MemoryViewer` that records what it was sent; its timers run when the test moves the time (`advance`); what other
/// threads hand back (the store's answers) waits in its queue until the test drains it. No sockets, no sleeps.
/// Not Sendable: one test, one thread.
final class MemoryLoop: ServiceLoop {
    private let time: ManualTime
    /// Admits viewers and hears of those that leave, as the transport's delegate.
    private weak var delegate: (any TransportDelegate)?
    let inbox = Inbox()
    private var timers: [(due: Double, order: Int, body: () -> Void)] = []
    private var timersMade = 0
    private var channels: [AnyHashable: Channel] = [:]
    private var viewers: [ViewerID: MemoryViewer] = [:]
    private var lastID: UInt64 = 0
    private(set) var statistics = TransportStatistics()
    /// Every `publish`, for tests that count what the broadcaster did: the channel and the sequence.
    private(set) var published: [(channel: AnyHashable, sequence: UInt64?)] = []

    /// Never handed to libwebsockets: the `Viewer`s here are only asked what to send next.
    private static var noConnection: OpaquePointer { OpaquePointer(bitPattern: 0x5eed)! }

    init(time: ManualTime, delegate: any TransportDelegate) {
        self.time = time
        self.delegate = delegate
    }

    // MARK: - ServiceLoop

    var viewerCount: Int { viewers.count }

    func viewerCount(of channel: some ChannelKey) -> Int {
        channels[AnyHashable(channel)]?.viewers.count ?? 0
    }

    func publish(
        _ message: OutgoingMessage, keyframe: OutgoingMessage?, to channel: some ChannelKey, sequence: UInt64?,
        base: ClosedRange<UInt64>?, preamble: OutgoingMessage?
    ) {
        published.append((AnyHashable(channel), sequence))
        guard let target = channels[AnyHashable(channel)] else { return }
        target.publish(message, keyframe: keyframe, sequence: sequence, base: base, preamble: preamble)
        for id in target.viewers.keys { read(id) }
    }

    func notify(_ message: OutgoingMessage, viewersOf channel: some ChannelKey) {
        guard let target = channels[AnyHashable(channel)] else { return }
        for (id, viewer) in target.viewers where self.viewers[id]?.closing == nil {
            if !viewer.addNotice(message) { statistics.messagesSkipped += 1 }
            read(id)
        }
    }

    func schedule(after seconds: Double, _ body: @escaping () -> Void) {
        // As lws_sul does: rounded up to a whole millisecond, a negative delay counting as zero.
        let delay = seconds.isFinite ? (max(0, seconds) * 1000).rounded(.up) / 1000 : .infinity
        timersMade += 1
        timers.append((time.now + delay, timersMade, body))
    }

    func close(_ viewer: ViewerID, code: Int, reason: String) {
        guard let target = viewers[viewer], target.closing == nil else { return }
        target.closing = (code, reason)
        // The connection ends later, as a real one does once its close frame is written.
        inbox.async { [loop = Bound(self)] in loop.value?.disconnect(viewer) }
    }

    func closeViewers(of channel: some ChannelKey, code: Int, reason: String) {
        guard let target = channels[AnyHashable(channel)] else { return }
        for id in target.viewers.keys { close(id, code: code, reason: reason) }
    }

    var queue: any ServiceQueue { inbox.bound(to: self) }

    // MARK: - Viewers

    /// Asks the delegate to admit `request` (a WebSocket upgrade), as the transport does; the viewer reads its greeting
    /// at once. A refused upgrade gives a viewer that holds the refusal and nothing else.
    func connect(_ request: HTTPRequest) -> MemoryViewer {
        lastID += 1
        let id = ViewerID(rawValue: lastID)
        let memory = MemoryViewer(id: id, loop: self)
        guard let delegate else { preconditionFailure("the application is gone") }
        switch delegate.admitViewer(request, id: id) {
        case .reject(let response):
            memory.refusal = TestApplication.testResponse(response)
        case .accept(let key, let greeting, let sequence):
            let channel = channels[AnyHashable(key)] ?? Channel(key: key)
            channels[AnyHashable(key)] = channel
            let viewer = Viewer(id: id, wsi: Self.noConnection, channel: channel, greeting: greeting, sequence: sequence)
            statistics.viewersAdmitted += 1
            memory.viewer = viewer
            channel.viewers[id] = viewer
            viewers[id] = memory
            read(id)
        case .refuseAfterUpgrade(let message, let code, let reason):
            memory.record(message)
            memory.closed = (code, reason)
        }
        return memory
    }

    /// The viewer reads what it has not been sent yet, unless it is paused.
    func read(_ id: ViewerID) {
        guard let memory = viewers[id], let viewer = memory.viewer, !memory.isPaused, memory.closing == nil else { return }
        while let (message, skipped) = viewer.nextMessage() {
            memory.record(message)
            statistics.messagesSent += 1
            statistics.bytesSent += UInt64(message.count)
            statistics.messagesSkipped += skipped
        }
    }

    /// The viewer's connection ended (closed by the server, or by the viewer): the delegate hears of it.
    func disconnect(_ id: ViewerID) {
        guard let memory = viewers.removeValue(forKey: id), let viewer = memory.viewer else { return }
        memory.closed = memory.closing ?? (1000, "")
        viewer.channel.viewers[id] = nil
        if viewer.channel.viewers.isEmpty, channels[viewer.channel.key.hashed] === viewer.channel {
            channels[viewer.channel.key.hashed] = nil
        }
        delegate?.viewerDidDisconnect(id, channel: viewer.channel.key)
    }

    // MARK: - Time and the queue

    /// Runs what is ready now — jobs handed back, timers due — until nothing is; never waits.
    func runReady() {
        while true {
            for job in inbox.take() { job() }
            guard let next = nextTimer(dueBy: time.now) else {
                if inbox.isEmpty { return }
                continue
            }
            next()
        }
    }

    /// Moves the time to `seconds`, running each timer due by then at its own time, in order, and what the
    /// jobs it makes make.
    func advance(to seconds: Double) {
        runReady()
        while let due = timers.filter({ $0.due <= seconds }).map(\.due).min() {
            time.now = max(time.now, due)
            runReady()
        }
        time.now = max(time.now, seconds)
        runReady()
    }

    /// Runs jobs and due timers until `done()` holds, waiting (at most `timeout` seconds of real time) for other
    /// threads to hand work back; false when the time ran out first.
    func run(until done: () -> Bool, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            runReady()
            if done() { return true }
            guard Date() < deadline else { return false }
            inbox.waitForWork(until: deadline)
        }
    }

    /// The earliest timer due by `now`, taken off the list.
    private func nextTimer(dueBy now: Double) -> (() -> Void)? {
        guard
            let index = timers.indices.filter({ timers[$0].due <= now }).min(by: {
                (timers[$0].due, timers[$0].order) < (timers[$1].due, timers[$1].order)
            })
        else { return nil }
        return timers.remove(at: index).body
    }

    /// When the earliest pending timer is due, if any.
    var nextDue: Double? { timers.map(\.due).min() }

    /// Jobs other threads hand to the service thread; they run when the test drains the loop. Any thread.
    final class Inbox: Sendable {
        private let jobs = Mutex<[@Sendable () -> Void]>([])
        private let arrived = DispatchSemaphore(value: 0)

        func async(_ work: @escaping @Sendable () -> Void) {
            jobs.withLock { $0.append(work) }
            arrived.signal()
        }

        func take() -> [@Sendable () -> Void] {
            jobs.withLock { jobs in
                defer { jobs = [] }
                return jobs
            }
        }

        var isEmpty: Bool { jobs.withLock { $0.isEmpty } }

        func waitForWork(until deadline: Date) {
            _ = arrived.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow))
        }

        /// The `ServiceQueue` of `loop`: a delayed job becomes one of its timers, set on the service thread.
        func bound(to loop: MemoryLoop) -> Queue {
            Queue(inbox: self, loop: Bound(loop))
        }
    }

    struct Queue: ServiceQueue {
        let inbox: Inbox
        let loop: Bound<MemoryLoop>

        func async(_ work: @escaping @Sendable () -> Void) {
            inbox.async(work)
        }

        func async(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
            inbox.async { [loop] in loop.value?.schedule(after: seconds, work) }
        }
    }

    /// A value only touched on the test's thread, carried through the inbox (as `ServiceThreadBound` is).
    struct Bound<Value: AnyObject>: @unchecked Sendable {
        weak var value: Value!

        init(_ value: Value) {
            self.value = value
        }
    }
}

@available(*, unavailable)
extension MemoryLoop: Sendable {}

/// One viewer of a `MemoryLoop`: everything it was sent, decoded as a browser's page would read it, and how its
/// connection ended. It reads each message as soon as it is sent, unless paused.
final class MemoryViewer: ReceivedMessages {
    let id: ViewerID
    private weak var loop: MemoryLoop?
    fileprivate(set) var viewer: Viewer?
    /// The answer to a refused upgrade (`ViewerAdmission.reject`); nil once admitted.
    fileprivate(set) var refusal: TestResponse?
    /// Text messages, decoded, in order.
    private(set) var messages: [ViewerMessage] = []
    /// Binary messages, in order.
    private(set) var binaryMessages: [[UInt8]] = []
    /// Every message's bytes in the order sent, text and binary.
    private(set) var sent: [[UInt8]] = []
    /// The close asked for by the server, until the connection ends.
    fileprivate var closing: (code: Int, reason: String)?
    /// How the connection ended: the close code and reason.
    fileprivate(set) var closed: (code: Int, reason: String)?
    fileprivate(set) var isPaused = false

    fileprivate init(id: ViewerID, loop: MemoryLoop) {
        self.id = id
        self.loop = loop
    }

    fileprivate func record(_ message: OutgoingMessage) {
        let bytes = message.bytes
        sent.append(bytes)
        switch message.kind {
        case .text: messages.append(ViewerMessage(decoding: bytes))
        case .binary: binaryMessages.append(bytes)
        }
    }

    /// The close code the connection ended with; nil while it is open.
    var closeCode: Int? { closed?.code }

    /// Stops reading: what is published meanwhile replaces what it has not read (latest wins).
    func pause() {
        isPaused = true
    }

    /// Reads again, at once: the newest message, as the transport would send it now.
    func resume() {
        isPaused = false
        loop?.read(id)
    }

    /// Closes the connection from the viewer's side.
    func leave() {
        loop?.disconnect(id)
    }
}

@available(*, unavailable)
extension MemoryViewer: Sendable {}
