import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A server's service loops as the delegate's thread sees them: one loop to talk to, whatever the
/// number of loops behind it (`TransportConfiguration.loops`).
///
/// The first loop runs on the delegate's thread and is used directly; each other loop runs on a
/// thread of its own and is reached through its inbox, one job per call. A published message is
/// copied once per loop that has viewers of its channel, never per viewer: each loop writes its
/// own copy (lws writes a frame's header into the message's headroom, so two threads may not share
/// one). The viewers of the other loops are known here from their admissions and departures, which
/// those loops forward to this thread (`ForwardingDelegate`), so counts never wait on another
/// thread.
///
/// Service thread (the first loop's) only, like `EventLoop`.
public final class LoopGroup {
    /// A loop other than the first, as this thread may reach it.
    struct Remote {
        let index: Int
        let inbox: ServiceInbox<EventLoop>
        let statistics: StatisticsSlot
    }

    /// The first loop: the delegate's.
    let main: EventLoop
    let remotes: [Remote]
    /// The other loops' viewers: which loop each is on, and its channel.
    private var remoteViewers: [ViewerID: (loop: Int, channel: AnyHashable)] = [:]
    /// For each other loop (`index - 1`), its viewers by channel.
    private var remoteCounts: [[AnyHashable: Int]]
    /// The loop the next accepted connection goes to.
    private var nextLoop = 0

    init(main: EventLoop, remotes: [Remote]) {
        self.main = main
        self.remotes = remotes
        self.remoteCounts = Array(repeating: [:], count: remotes.count)
    }

    /// How many loops serve.
    public var count: Int { remotes.count + 1 }

    // MARK: - What the delegate's thread asks

    /// Viewers connected now, on every loop.
    public var viewerCount: Int { main.viewerCount + remoteViewers.count }

    /// Viewers of `channel` now, on every loop.
    public func viewerCount(of channel: some ChannelKey) -> Int {
        let key = channel.hashed
        return remoteCounts.reduce(main.viewerCount(of: channel)) { $0 + ($1[key] ?? 0) }
    }

    /// Viewers on each loop now, the first loop's first.
    public var viewerCounts: [Int] {
        [main.viewerCount] + remoteCounts.map { $0.values.reduce(0, +) }
    }

    /// `EventLoop.publish` on every loop with viewers of `channel`: the same bytes, the same
    /// sequence and base, so every viewer gets the same message whatever its loop.
    public func publish(
        _ message: OutgoingMessage,
        keyframe: OutgoingMessage? = nil,
        to channel: some ChannelKey,
        sequence: UInt64? = nil,
        base: ClosedRange<UInt64>? = nil,
        preamble: OutgoingMessage? = nil
    ) {
        main.publish(message, keyframe: keyframe, to: channel, sequence: sequence, base: base, preamble: preamble)
        for remote in remotesWatching(channel) {
            let copy = message.copy()
            let keyframe = keyframe.map { $0 === message ? copy : $0.copy() }
            let preamble = preamble?.copy()
            remote.inbox.enqueue { loop in
                loop.publish(copy, keyframe: keyframe, to: channel, sequence: sequence, base: base, preamble: preamble)
            }
        }
    }

    /// `EventLoop.notify` on every loop with viewers of `channel`.
    public func notify(_ message: OutgoingMessage, viewersOf channel: some ChannelKey) {
        main.notify(message, viewersOf: channel)
        for remote in remotesWatching(channel) {
            let copy = message.copy()
            remote.inbox.enqueue { loop in loop.notify(copy, viewersOf: channel) }
        }
    }

    /// `EventLoop.close` on the loop `viewer` is on.
    public func close(_ viewer: ViewerID, code: Int, reason: String) {
        guard let remote = remoteViewers[viewer] else {
            return main.close(viewer, code: code, reason: reason)
        }
        remotes[remote.loop - 1].inbox.enqueue { loop in loop.close(viewer, code: code, reason: reason) }
    }

    /// `EventLoop.closeViewers` on every loop with viewers of `channel`.
    public func closeViewers(of channel: some ChannelKey, code: Int, reason: String) {
        main.closeViewers(of: channel, code: code, reason: reason)
        for remote in remotesWatching(channel) {
            remote.inbox.enqueue { loop in loop.closeViewers(of: channel, code: code, reason: reason) }
        }
    }

    /// Runs `body` once, `seconds` from now, on this thread (`EventLoop.schedule`).
    public func schedule(after seconds: Double, _ body: @escaping () -> Void) {
        main.schedule(after: seconds, body)
    }

    /// Monotonic seconds, on the same clock as `schedule`.
    public func now() -> Double {
        main.now()
    }

    /// How other threads get back onto this one.
    public var handle: EventLoopHandle { main.handle }

    /// What every loop has sent to viewers since start: this loop's now, the others' as of their
    /// last round of jobs or stall sweep (at most a second old).
    public var statistics: TransportStatistics {
        remotes.reduce(main.statistics) { $0 + $1.statistics.load() }
    }

    // MARK: - What the loops tell it

    /// The first loop accepted `descriptor`: true when it went to another loop (which adopts it),
    /// false when the first loop is to adopt it itself. In turn, so every loop gets as many.
    func deal(_ descriptor: Int32) -> Bool {
        let chosen = nextLoop
        nextLoop = (nextLoop + 1) % count
        guard chosen > 0 else { return false }
        let handed = HandedDescriptor(descriptor)
        guard remotes[chosen - 1].inbox.enqueue({ loop in handed.take().map(loop.adopt) }) else {
            _ = handed.take()  // that loop has stopped: served here instead
            return false
        }
        return true
    }

    /// Loop `loop` admitted `viewer` to `channel` (its admission ran here).
    func remoteAdmitted(_ viewer: ViewerID, channel: any ChannelKey, loop: Int) {
        let key = channel.hashed
        remoteViewers[viewer] = (loop, key)
        remoteCounts[loop - 1][key, default: 0] += 1
    }

    /// A viewer of another loop is gone (its departure was forwarded here).
    func remoteLeft(_ viewer: ViewerID) {
        guard let (loop, key) = remoteViewers.removeValue(forKey: viewer) else { return }
        let left = (remoteCounts[loop - 1][key] ?? 1) - 1
        remoteCounts[loop - 1][key] = left > 0 ? left : nil
    }

    private func remotesWatching(_ channel: some ChannelKey) -> [Remote] {
        guard !remotes.isEmpty else { return [] }
        let key = channel.hashed
        return remotes.filter { remoteCounts[$0.index - 1][key] != nil }
    }
}

@available(*, unavailable)
extension LoopGroup: Sendable {}

/// An accepted socket on its way to another loop: taken there, or closed if the job carrying it is
/// dropped (that loop stopped first), so no descriptor leaks. Thread-safe.
private final class HandedDescriptor: Sendable {
    private let descriptor: Mutex<Int32?>

    init(_ descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    /// The descriptor, once; nil after.
    func take() -> Int32? {
        descriptor.withLock { held in
            defer { held = nil }
            return held
        }
    }

    deinit {
        if let left = take() { close(left) }
    }
}
