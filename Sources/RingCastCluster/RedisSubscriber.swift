import RingCastThreads
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A Redis pub/sub subscription on its own thread that survives Redis restarts and notices a
/// subscription that stays connected but no longer delivers.
///
/// The thread connects, SUBSCRIBEs to `channels` plus its own `probeChannel`, PSUBSCRIBEs to
/// `patterns` (e.g. `rc:{*}:updates` for every board's updates, so that boards created later
/// need no new subscription), and calls `onMessage` for every message on them. When the connection breaks it reports
/// `.disconnected(reason:)`, waits the next `Backoff` delay, connects again and SUBSCRIBEs again
/// (messages published while it was away are lost: the caller catches up from the stream after
/// `.connected`).
///
/// Liveness probe (the subscription that stays TCP-healthy but no longer receives, Centrifugo
/// issue 1189): every `probeInterval` the thread PUBLISHes a token to `probeChannel` over a second,
/// ordinary connection of its own. If the token has not come back on the subscription within
/// `probeTimeout` — or PUBLISH says no client is subscribed to the probe channel — the
/// subscription is declared dead, reported as `.disconnected`, closed and made again.
///
/// `onMessage` and `onState` run on the subscriber's thread, one call at a time, in order; they
/// should hand the data over (e.g. to the server's inbox) and return quickly. `stop()` must be
/// called to end the thread (the thread keeps the subscriber alive until then).
public final class RedisSubscriber: Sendable {
    /// Whether the subscription is in place.
    public enum State: Sendable, Equatable, CustomStringConvertible {
        /// Every channel is subscribed (SUBSCRIBE confirmed).
        case connected
        /// Not subscribed, and why; the thread is reconnecting with backoff.
        case disconnected(reason: String)

        public var description: String {
            switch self {
            case .connected: "connected"
            case .disconnected(let reason): "disconnected: \(reason)"
            }
        }
    }

    /// One message as published: the channel and the payload's bytes.
    public struct Message: Sendable, Equatable {
        public var channel: String
        public var payload: [UInt8]

        public init(channel: String, payload: [UInt8]) {
            self.channel = channel
            self.payload = payload
        }
    }

    public struct Options: Sendable {
        public var connectTimeout: Duration
        /// The probe's PUBLISH and the wait for SUBSCRIBE's confirmation.
        public var commandTimeout: Duration
        public var probeInterval: Duration
        public var probeTimeout: Duration
        public var backoff: Backoff

        public init(
            connectTimeout: Duration = .seconds(2),
            commandTimeout: Duration = .seconds(2),
            probeInterval: Duration = .seconds(1),
            probeTimeout: Duration = .seconds(2),
            backoff: Backoff = Backoff()
        ) {
            self.connectTimeout = connectTimeout
            self.commandTimeout = commandTimeout
            self.probeInterval = probeInterval
            self.probeTimeout = probeTimeout
            self.backoff = backoff
        }
    }

    public let endpoint: RedisEndpoint
    public let channels: [String]
    /// Glob-style patterns (PSUBSCRIBE); a message matching one is delivered with its own channel.
    public let patterns: [String]
    /// `rc:probe:` and 16 random hex digits, unique to this subscriber.
    public let probeChannel: String
    private let options: Options
    private let onMessage: @Sendable (Message) -> Void
    private let onState: @Sendable (State) -> Void
    private let stopping = Atomic<Bool>(false)
    private let currentState = Mutex<State>(.disconnected(reason: "not connected yet"))
    /// stop() writes a byte to wake the thread from `poll` at once.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let thread = Mutex<JoinableThread?>(nil)

    /// Starts the thread; it connects in the background (watch `onState`).
    public init(
        endpoint: RedisEndpoint,
        channels: [String],
        patterns: [String] = [],
        options: Options = Options(),
        onMessage: @escaping @Sendable (Message) -> Void,
        onState: @escaping @Sendable (State) -> Void = { _ in }
    ) throws(RedisError) {
        self.endpoint = endpoint
        self.channels = channels
        self.patterns = patterns
        self.probeChannel = "rc:probe:" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        self.options = options
        self.onMessage = onMessage
        self.onState = onState
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw RedisError.io(endpoint: endpoint.address, reason: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let started: JoinableThread
        do {
            started = try JoinableThread { [self] in run() }
        } catch {
            throw RedisError.io(endpoint: endpoint.address, reason: "cannot start the subscriber's thread: \(error)")
        }
        thread.withLock { $0 = started }
    }

    deinit {
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    /// The last state reported.
    public var state: State { currentState.withLock { $0 } }

    /// Ends the thread (within one `poll` wake-up, or after a connect or probe PUBLISH under way —
    /// at most their timeouts) and waits for it. Idempotent; not from `onMessage`/`onState`.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
        let thread = thread.withLock { $0 }
        if let thread, !thread.isCurrent { thread.join() }
    }

    // MARK: - The thread

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    private func run() {
        var backoff = options.backoff
        var prober = Prober(channel: probeChannel)
        var lastReported: State?
        let report: (State) -> Void = { state in
            self.currentState.withLock { $0 = state }
            self.onState(state)
        }
        while !isStopping {
            do {
                try session(prober: &prober) {
                    backoff.reset()
                    lastReported = .connected
                    report(.connected)
                }
            } catch {
                if isStopping { break }
                let reason: String =
                    switch error {
                    case .io(_, let reason), .connectFailed(_, let reason): reason
                    default: error.description
                    }
                if case .disconnected = lastReported {
                } else {
                    lastReported = .disconnected(reason: reason)
                    report(.disconnected(reason: reason))
                }
            }
            if isStopping { break }
            _ = waitForWake(upTo: backoff.next())
        }
        prober.connection = nil
        if lastReported == .connected { report(.disconnected(reason: "stopped")) }
    }

    /// One connection's life: connect, subscribe, deliver, probe. Returns only when stopping;
    /// throws why the subscription ended otherwise.
    private func session(prober: inout Prober, connected: () -> Void) throws(RedisError) {
        let connection = try RedisConnection(
            endpoint: endpoint, connectTimeout: options.connectTimeout, commandTimeout: options.commandTimeout)
        let subscribed = channels + [probeChannel]
        try connection.send([Array("SUBSCRIBE".utf8)] + subscribed.map { Array($0.utf8) })
        if !patterns.isEmpty {
            try connection.send([Array("PSUBSCRIBE".utf8)] + patterns.map { Array($0.utf8) })
        }
        var unconfirmed = Set(subscribed.map { "c" + $0 } + patterns.map { "p" + $0 })
        let clock = ContinuousClock()
        let subscribeDeadline = clock.now + options.commandTimeout
        var nextProbe = clock.now + options.probeInterval
        prober.outstanding = nil

        while !isStopping {
            while let reply = try connection.nextBufferedReply() {
                guard let parts = reply.array, parts.count >= 3, let kind = parts[0].string, let channel = parts[1].string
                else { continue }
                switch kind {
                case "subscribe", "psubscribe":
                    let name = (kind == "subscribe" ? "c" : "p") + channel
                    if unconfirmed.remove(name) != nil, unconfirmed.isEmpty {
                        nextProbe = clock.now + options.probeInterval
                        connected()
                    }
                case "message":
                    let payload = parts[2].bytes ?? []
                    if channel == probeChannel {
                        prober.received(payload)
                    } else {
                        onMessage(Message(channel: channel, payload: payload))
                    }
                case "pmessage":
                    // pmessage, pattern, channel, payload
                    if parts.count == 4, let matched = parts[2].string {
                        onMessage(Message(channel: matched, payload: parts[3].bytes ?? []))
                    }
                default:
                    break
                }
            }
            if isStopping { return }

            let now = clock.now
            var wakeAt = now + .seconds(1)
            if !unconfirmed.isEmpty {
                if now >= subscribeDeadline {
                    throw RedisError.io(
                        endpoint: endpoint.address,
                        reason: "SUBSCRIBE was not confirmed within \(options.commandTimeout)")
                }
                wakeAt = min(wakeAt, subscribeDeadline)
            } else {
                if let deadline = prober.outstanding?.deadline {
                    if now >= deadline {
                        throw RedisError.io(
                            endpoint: endpoint.address,
                            reason: "the subscription delivered no probe message within \(options.probeTimeout)")
                    }
                    wakeAt = min(wakeAt, deadline)
                } else if now >= nextProbe {
                    try prober.send(endpoint: endpoint, options: options, deadline: now + options.probeTimeout)
                    nextProbe = now + options.probeInterval
                    continue
                } else {
                    wakeAt = min(wakeAt, nextProbe)
                }
            }

            let readable = poll(connection.fileDescriptor, until: wakeAt)
            if readable { try connection.readAvailable() }
        }
    }

    /// Waits until `fd` is readable (true), the deadline passes or stop() wakes the thread (false).
    private func poll(_ fd: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        let remaining = deadline - ContinuousClock().now
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        let result = Glibc.poll(&fds, 2, Self.milliseconds(remaining))
        return result > 0 && fds[0].revents != 0
    }

    /// Sleeps for `delay` unless stop() wakes the thread first.
    private func waitForWake(upTo delay: Duration) -> Bool {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        return Glibc.poll(&fds, 1, Self.milliseconds(delay)) > 0
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let seconds = Backoff.seconds(duration)
        return seconds <= 0 ? 0 : Int32(min((seconds * 1000).rounded(.up), 60_000))
    }
}

/// The probe's state on the subscriber thread: the command connection it publishes on, and the
/// token it waits for.
private struct Prober {
    let channel: String
    var connection: RedisConnection?
    var outstanding: (token: [UInt8], deadline: ContinuousClock.Instant)?
    private var counter: UInt64 = 0

    init(channel: String) {
        self.channel = channel
    }

    /// PUBLISHes the next token. A PUBLISH that fails (Redis unreachable or paused) still leaves
    /// the token outstanding: if the subscription delivers nothing until the deadline it is
    /// declared dead either way. Throws when Redis reports no subscriber on the probe channel.
    mutating func send(endpoint: RedisEndpoint, options: RedisSubscriber.Options, deadline: ContinuousClock.Instant)
        throws(RedisError)
    {
        counter += 1
        let token = Array(String(counter).utf8)
        outstanding = (token, deadline)
        var receivers: Int64?
        // Twice at most: a kept connection may have broken since the last probe (Redis restarted) and
        // only shows it now; a fresh one tells whether Redis answers.
        for _ in 0..<2 where receivers == nil {
            do throws(RedisError) {
                let connection: RedisConnection
                if let existing = self.connection {
                    connection = existing
                } else {
                    connection = try RedisConnection(
                        endpoint: endpoint, connectTimeout: options.connectTimeout, commandTimeout: options.commandTimeout)
                    self.connection = connection
                }
                receivers = try connection.command([Array("PUBLISH".utf8), Array(channel.utf8), token]).integer
            } catch {
                connection = nil  // made again on the next try
            }
        }
        if receivers == 0 {
            throw RedisError.io(endpoint: endpoint.address, reason: "Redis has no subscriber on the probe channel")
        }
    }

    mutating func received(_ payload: [UInt8]) {
        if let outstanding, outstanding.token == payload { self.outstanding = nil }
    }
}
