/// What became of countdown webhooks since the server started: `ringcast_webhooks_total{outcome}` in
/// `/metrics` (docs/WEBHOOKS.md). Each end counts once as `delivered`, `failed`, `cancelled`, `dropped`,
/// `refused` or `throttled`; `retried` counts the tries after a failed one.
struct WebhookStatistics: Sendable, Equatable {
    /// A 2xx answer.
    var delivered = 0
    /// A failed try followed by another.
    var retried = 0
    /// Every try failed: given up.
    var failed = 0
    /// Not retried because its countdown was cancelled or redefined (or its ring removed) in the meantime.
    var cancelled = 0
    /// Not queued: its board already had `WebhookSender.maximumPerBoard` deliveries pending (or the server
    /// `maximumPending`).
    var dropped = 0
    /// Not sent: its host is not in `webhookHosts`.
    var refused = 0
    /// Not sent: the ring's webhook had fired less than a second before (`WebhookPace`).
    var throttled = 0

    /// Each outcome's label and count, in the order `/metrics` lists them.
    var outcomes: [(outcome: String, count: Int)] {
        [
            ("delivered", delivered), ("retried", retried), ("failed", failed), ("cancelled", cancelled),
            ("dropped", dropped), ("refused", refused), ("throttled", throttled),
        ]
    }
}
