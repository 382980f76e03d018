/// A stopping server's drain as a decision: what is still open goes in, what to do comes out.
/// Times are passed in (the loop's clock), so it is tested without sockets; `EventLoop+Drain`
/// counts what is open and carries the step out.
struct Drain {
    /// How long viewers get to answer their 1001 close frame before the context is destroyed
    /// under them (their close frame is out by then; only the reply is missed).
    static let viewerGrace = 0.5
    /// How long a keep-alive connection must have been idle before the drain closes it: a client
    /// that got an answer just before may already have sent its next request, which is then
    /// answered 503 rather than met by a closed socket. Connections idle for longer are closed at
    /// once, as any server may close an idle keep-alive connection (RFC 9112 §9.6).
    static let idleGrace = 1.0
    /// How long the listening sockets stay open, taking no new connection (their SYNs are dropped)
    /// but accepting those whose handshake was under way, before they close: longer than a
    /// handshake's round trip on the networks served, so that closing resets none.
    static let handshakeGrace = 0.1
    /// How often the drain looks again when nothing else wakes the loop.
    static let tickMicroseconds: Int64 = 50_000

    enum Step: Equatable {
        /// Requests are being received or answered: keep serving.
        case wait
        /// No request is left, only keep-alive connections between requests (and maybe viewers):
        /// close those idle for `idleGrace`, keep serving.
        case closeIdle
        /// Nothing is left (viewers past their grace aside), or the time is up.
        case finish
    }

    /// When the drain began and when it must end, on the loop's clock.
    let started: Double
    let deadline: Double
    var report: DrainReport
    /// The listening sockets are still open (taking no new connections).
    var listening = true

    init(started: Double, timeout: Double, requestsInFlight: Int, viewers: Int) {
        self.started = started
        self.deadline = started + timeout
        report = DrainReport(timeout: timeout)
        report.requestsInFlight = requestsInFlight
        report.viewers = viewers
    }

    /// What to do at `now` with `requests` still being received or answered, `idleConnections`
    /// keep-alive connections open between requests and `viewers` connected.
    func step(at now: Double, requests: Int, idleConnections: Int, viewers: Int) -> Step {
        if now >= deadline { return .finish }
        if requests > 0 { return .wait }
        if idleConnections > 0 { return .closeIdle }
        if viewers > 0, now < started + Self.viewerGrace { return .wait }
        return .finish
    }

    /// Whether the listening sockets may close at `now`, with `queued` connections still waiting in
    /// the kernel to be accepted: after `handshakeGrace` once none waits, or at the deadline.
    func mayCloseListeners(at now: Double, queued: Int) -> Bool {
        now >= deadline || (now >= started + Self.handshakeGrace && queued <= 0)
    }

    /// Whether a connection waiting for a request since `lastActivity` has waited long enough.
    func mayClose(idleSince lastActivity: Double, at now: Double) -> Bool {
        now - lastActivity >= Self.idleGrace
    }

    /// Records the answer to a request, written during the drain.
    mutating func answered(status: Int) {
        report.answered += 1
        if (200..<300).contains(status) { report.answeredSuccessfully += 1 }
    }

    /// The report once the drain ends at `now`, with what is still open then cut.
    func finished(at now: Double, cutRequests: [String], openConnections: Int, viewers: Int) -> DrainReport {
        var report = report
        report.seconds = now - started
        report.cutRequests = cutRequests
        report.viewersDropped = viewers
        report.viewersClosed = max(0, report.viewers - viewers)
        report.timedOut = now >= deadline && (!cutRequests.isEmpty || openConnections > 0 || viewers > 0)
        return report
    }
}
