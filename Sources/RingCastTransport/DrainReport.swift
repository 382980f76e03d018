/// What a server's drain found and did, from `stop()` until `run()` returned (EventLoop+Drain).
public struct DrainReport: Sendable, Equatable {
    /// The longest the drain was allowed (`TransportConfiguration.drainTimeout`).
    public var timeout: Double
    /// How long it took, in seconds.
    public var seconds: Double = 0
    /// Requests received, or being received, and not answered yet when the drain began.
    public var requestsInFlight = 0
    /// Viewers connected when the drain began.
    public var viewers = 0
    /// Answers finished (their last byte written) during the drain, the 503s included.
    public var answered = 0
    /// Of those, 2xx: requests the application carried out.
    public var answeredSuccessfully = 0
    /// Requests that arrived during the drain and were answered 503 without being carried out.
    public var refused = 0
    /// Viewers whose connection ended during the drain (closed with 1001, or gone by themselves).
    public var viewersClosed = 0
    /// Keep-alive connections closed while idle, between requests.
    public var idleConnectionsClosed = 0
    /// Requests still unanswered when the drain ended ("PATCH /api/v1/boards/main"), cut by the timeout.
    public var cutRequests: [String] = []
    /// Viewers still connected when the drain ended: sent their close frame, they had not answered
    /// it within the grace (or the time was up).
    public var viewersDropped = 0
    /// The drain ran out of time with requests or connections still open.
    public var timedOut = false

    public init(timeout: Double) {
        self.timeout = timeout
    }
}

extension DrainReport {
    /// This drain and `other`, which ran at the same time (another loop of the same server), as one.
    func adding(_ other: DrainReport) -> DrainReport {
        var sum = self
        sum.seconds = max(seconds, other.seconds)
        sum.requestsInFlight += other.requestsInFlight
        sum.viewers += other.viewers
        sum.answered += other.answered
        sum.answeredSuccessfully += other.answeredSuccessfully
        sum.refused += other.refused
        sum.viewersClosed += other.viewersClosed
        sum.idleConnectionsClosed += other.idleConnectionsClosed
        sum.cutRequests = (cutRequests + other.cutRequests).sorted()
        sum.viewersDropped += other.viewersDropped
        sum.timedOut = timedOut || other.timedOut
        return sum
    }
}
