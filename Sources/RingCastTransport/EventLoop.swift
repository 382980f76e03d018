internal import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// The service-thread side of a `WebServer`: viewers, channels, timers and HTTP exchanges.
///
/// Service thread only: use it from `TransportDelegate` callbacks, from `schedule` bodies and
/// from `WebServer.perform` bodies. (Before `run()` starts, the thread that created the server
/// may also use it, e.g. to schedule the first timer.)
public final class EventLoop {
    enum Phase {
        /// Created; `run()` not called yet.
        case starting
        case running
        /// `stop()` was called: new connections refused, requests in flight answered, viewers
        /// closed with 1001 (EventLoop+Drain).
        case draining
        /// `lws_context_destroy` is running: callbacks still arrive, nothing new may start.
        case destroying
        case finished
    }

    let configuration: TransportConfiguration
    /// Which of its server's loops this is: 0 runs the delegate, the others forward to it.
    let index: Int
    weak var delegate: (any TransportDelegate)?
    /// On the first loop of a server of several: the group that deals connections out and keeps
    /// the other loops' viewers in its counts (nil otherwise).
    weak var group: LoopGroup?
    /// On the other loops: the vhost connections handed over by the first are adopted into.
    var adoptionVhost: OpaquePointer?
    /// The statistics as other threads may read them (the group sums every loop's).
    let statisticsSlot = StatisticsSlot()
    let inbox: ServiceInbox<EventLoop>
    let timers: TimerQueue
    let writeBuffer = WriteBuffer(capacity: EventLoop.httpChunkBytes + 8192)
    private(set) var context: OpaquePointer?
    var phase: Phase = .starting
    private var lastID: UInt64

    var exchanges: [UInt64: HTTPExchange] = [:]
    /// What raw connections (a method lws cannot parse) have sent of their head so far.
    var rawHeads: [UInt64: [UInt8]] = [:]
    var viewers: [ViewerID: Viewer] = [:]
    var channels: [AnyHashable: Channel] = [:]
    /// What was sent to viewers since start (for logs and metrics).
    public internal(set) var statistics = TransportStatistics()
    var stallSweepScheduled = false
    /// With `sharePort`: the transport's own listening socket, while lws watches it.
    var sharedListener: SharedListener?
    /// Every connection lws made on the server vhost (EventLoop+Drain finds the idle ones).
    var connections: [OpaquePointer: TrackedConnection] = [:]
    /// Set from `stop()` until `run()` is done with the drain.
    var drain: Drain?
    /// lws's own listening connections, from the drain's start until it closes them (EventLoop+Drain).
    var listeners: [OpaquePointer] = []

    /// Where a loop's index sits in the ids it makes.
    static let loopIDShift: UInt64 = 56

    /// Largest piece of an HTTP response body written per writeable callback.
    static let httpChunkBytes = 64 * 1024
    /// How long a delegate may take to answer a request before the connection is dropped.
    static let responseTimeoutSeconds: Int32 = 60
    /// How long a raw connection, answered and shut down for writing, may take to close its side.
    static let lingerSeconds: Int32 = 5

    /// `index`: the loop's place in its server; it also sets apart the ids it makes (the top byte),
    /// so that a viewer's id names one loop.
    init(
        configuration: TransportConfiguration, delegate: any TransportDelegate, index: Int = 0,
        inbox: ServiceInbox<EventLoop> = ServiceInbox()
    ) {
        self.configuration = configuration
        self.inbox = inbox
        self.index = index
        self.lastID = UInt64(index) << EventLoop.loopIDShift
        self.delegate = delegate
        self.timers = TimerQueue(fired: serverTimerFired)
    }

    func attach(to context: OpaquePointer) {
        self.context = context
        timers.attach(to: context)
        inbox.attach(ContextHandle(pointer: context))
    }

    /// True while lws calls on this loop's connections are allowed.
    var isLive: Bool {
        context != nil && (phase == .starting || phase == .running || phase == .draining)
    }

    func makeID() -> UInt64 {
        lastID += 1
        return lastID
    }

    // MARK: - Public API

    /// Latest wins: each viewer of `channel` is sent the newest published message it has not
    /// seen; a slow viewer skips older ones, never queues them. Never blocks.
    /// Publishes the channel's next message. `keyframe`, when given, is the same picture as a
    /// self-contained message: a viewer that missed the message before this one gets it instead of
    /// `message` (a delta). Without it, `message` must be self-contained.
    /// `sequence` numbers the message (rising; default one more than the last) and `base` names
    /// the messages `message` is a delta against (default the one before); a viewer whose last
    /// message is not in `base` gets `keyframe`.
    /// `preamble` is a message every viewer must have before this one and the later ones (a
    /// board's new layout): a viewer that was not sent it gets it, then `keyframe`, however many
    /// messages it skips; viewers joining later get it in their greeting.
    public func publish(
        _ message: OutgoingMessage,
        keyframe: OutgoingMessage? = nil,
        to channel: some ChannelKey,
        sequence: UInt64? = nil,
        base: ClosedRange<UInt64>? = nil,
        preamble: OutgoingMessage? = nil
    ) {
        guard isLive else { return }
        guard message.count <= configuration.maxMessageBytes else {
            TransportLog.emit(
                "dropped a \(message.count)-byte message for \(channel): over maxMessageBytes \(configuration.maxMessageBytes)")
            return
        }
        guard let target = channels[channel.hashed] else { return }
        target.publish(message, keyframe: keyframe, sequence: sequence, base: base, preamble: preamble)
        for viewer in target.viewers.values {
            requestWrite(viewer)
        }
    }

    /// Sends `message` once to every viewer of `channel` now — not to viewers that join later —
    /// after what it is still sending of its greeting and before the channel's next message: an
    /// event, which unlike a picture must not be skipped. Each viewer holds at most
    /// `Viewer.maximumNotices` of them (older ones are dropped and counted as skipped).
    public func notify(_ message: OutgoingMessage, viewersOf channel: some ChannelKey) {
        guard isLive, let target = channels[channel.hashed] else { return }
        guard message.count <= configuration.maxMessageBytes else {
            TransportLog.emit(
                "dropped a \(message.count)-byte notice for \(channel): over maxMessageBytes \(configuration.maxMessageBytes)")
            return
        }
        for viewer in target.viewers.values where viewer.pendingClose == nil {
            if !viewer.addNotice(message) { statistics.messagesSkipped += 1 }
            requestWrite(viewer)
        }
    }

    /// Runs `body` on the service thread soon. Bodies handed over after the server stopped are
    /// dropped. From another thread, use `handle`.
    public func perform(_ body: @escaping @Sendable (EventLoop) -> Void) {
        if inbox.isOnServiceThread {
            schedule(after: 0) { [self] in body(self) }
        } else {
            inbox.enqueue(body)
        }
    }

    /// What another thread may hold of this loop: a way to run code on it.
    public var handle: EventLoopHandle { EventLoopHandle(inbox: inbox) }

    /// Viewers of `channel` now.
    public func viewerCount(of channel: some ChannelKey) -> Int {
        channels[channel.hashed]?.viewers.count ?? 0
    }

    public var viewerCount: Int { viewers.count }

    /// Runs `body` once, `seconds` from now, on the service thread (an lws_sul timer). The delay
    /// is rounded up to a whole millisecond; a negative delay counts as zero. Timers still
    /// pending when the server stops are dropped.
    public func schedule(after seconds: Double, _ body: @escaping () -> Void) {
        guard isLive else { return }
        let microseconds = seconds.isFinite ? Int64((max(0, seconds) * 1_000_000).rounded(.up)) : Int64.max / 4
        timers.schedule(afterMicroseconds: microseconds, body)
    }

    /// Monotonic seconds, on the same clock as `schedule`.
    public func now() -> Double {
        Double(lws_now_usecs()) / 1_000_000
    }

    /// Closes `viewer` with a WebSocket close frame carrying `code` and `reason` (at most 123
    /// bytes are sent). Unknown or already closing viewers are ignored.
    public func close(_ viewer: ViewerID, code: Int, reason: String) {
        guard isLive, let target = viewers[viewer], target.pendingClose == nil else { return }
        target.pendingClose = (code, reason)
        requestWrite(target, force: true)
    }

    /// Closes every viewer of `channel` as `close(_:code:reason:)` does.
    public func closeViewers(of channel: some ChannelKey, code: Int, reason: String) {
        guard let target = channels[channel.hashed] else { return }
        for viewer in target.viewers.keys {
            close(viewer, code: code, reason: reason)
        }
    }

    // MARK: - Service loop plumbing

    /// Runs what other threads handed over with `WebServer.perform`.
    func runPendingJobs() {
        let (jobs, _) = inbox.take()
        for job in jobs {
            job(self)
        }
        if index > 0, !jobs.isEmpty { mirrorStatistics() }
    }

    /// Lets the group read this loop's statistics (a loop other than the first, after each batch of
    /// jobs and each stall sweep).
    func mirrorStatistics() {
        statisticsSlot.store(statistics)
    }

    /// A connection the first loop accepted and dealt to this one: served from here on exactly as
    /// one accepted here. Closed when the loop is no longer taking connections.
    func adopt(_ descriptor: Int32) {
        guard let adoptionVhost, isLive, handleNewConnection() == 0 else {
            Glibc.close(descriptor)
            return
        }
        // lws owns the descriptor from here, and closes it itself when adoption fails.
        if lws_adopt_socket_vhost(adoptionVhost, descriptor) == nil {
            TransportLog.emit("libwebsockets could not adopt a connection handed to loop \(index)")
        }
    }

    /// LWS_CALLBACK_EVENT_WAIT_CANCELLED: another thread called `lws_cancel_service`.
    func handleWaitCancelled() {
        runPendingJobs()
    }

    /// The timer sul fired.
    func handleTimer() {
        timers.runDue()
    }

    /// LWS_CALLBACK_FILTER_NETWORK_CONNECTION: refuse new sockets once the context is going. A
    /// draining server still accepts, for a moment, the connections whose handshake was under way
    /// (EventLoop+Drain); their requests get 503.
    func handleNewConnection() -> Int32 {
        phase == .running || phase == .starting || phase == .draining ? 0 : 1
    }

    /// Right before `lws_context_destroy`: no timers may stay scheduled on the dying context.
    func prepareForDestroy() {
        phase = .destroying
        timers.cancelAll()
    }

    /// After `lws_context_destroy`: every connection is gone.
    func didDestroy() {
        phase = .finished
        context = nil
        sharedListener = nil
        connections.removeAll()
        exchanges.removeAll()
        rawHeads.removeAll()
        viewers.removeAll()
        channels.removeAll()
        delegate = nil
    }

    /// The rendered error body for a transport-answered error, or a plain-text one when the
    /// delegate is gone.
    func errorResponse(status: Int, message: String) -> HTTPResponse {
        if let delegate {
            return delegate.errorResponse(status: status, message: message)
        }
        return HTTPResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8")],
            body: Array((message + "\n").utf8)
        )
    }

    /// `errorResponse(status:message:)` for a problem, with the headers its status needs.
    func errorResponse(for problem: RequestProblem) -> HTTPResponse {
        var response = errorResponse(status: problem.status, message: problem.message)
        response.headers += problem.headers
        return response
    }

    /// The connection id lws keeps for us on the wsi (0 = none).
    func connectionID(of wsi: OpaquePointer) -> UInt64 {
        UInt64(UInt(bitPattern: lws_get_opaque_user_data(wsi)))
    }

    func setConnectionID(_ id: UInt64, of wsi: OpaquePointer) {
        lws_set_opaque_user_data(wsi, UnsafeMutableRawPointer(bitPattern: UInt(id)))
    }
}

@available(*, unavailable)
extension EventLoop: Sendable {}

/// The one part of an `EventLoop` that other threads may use (a store's writer thread hands its
/// results back through it).
public struct EventLoopHandle: Sendable {
    fileprivate let inbox: ServiceInbox<EventLoop>

    /// Runs `body` on the loop's service thread soon; safe from any thread. Dropped once the
    /// server has stopped.
    public func perform(_ body: @escaping @Sendable (EventLoop) -> Void) {
        inbox.enqueue(body)
    }
}
