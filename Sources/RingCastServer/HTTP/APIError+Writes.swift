import RingCastCore
import RingCastTransport

/// The refusals every write path shares, the embedded store's and cluster mode's, in the same words.
extension APIError {
    /// 412: `If-Match` (`expected`) names a board `name` that does not exist.
    static func noBoardToMatch(_ name: String, _ expected: String) -> APIError {
        APIError(
            status: 412, code: "precondition_failed", message: "there is no board \"\(name)\" to match \(expected)",
            field: "If-Match")
    }

    /// 412: the board is no longer at the ETag `If-Match` named.
    static func changedSince(_ expected: String) -> APIError {
        APIError(
            status: 412, code: "precondition_failed",
            message: "the board changed since \(expected); GET it again for the current ETag", field: "If-Match")
    }

    /// 412: `If-None-Match: *` asked to create `what` (e.g. `board "ci"`) only if absent, and it exists.
    static func alreadyExists(_ what: String) -> APIError {
        APIError(
            status: 412, code: "precondition_failed",
            message: "\(what) exists, and If-None-Match: * creates only what does not; leave the header out to replace it",
            field: "If-None-Match")
    }

    /// 422: the `Idempotency-Key` came with another request in the last 5 minutes.
    static let idempotencyKeyReused = APIError(
        status: 422, code: "idempotency_key_reused",
        message: "this Idempotency-Key was used for a different request in the last 5 minutes", field: "Idempotency-Key")

    /// 503: the write could not be (or may not have been) stored; `message` says which and why.
    static func storageUnavailable(_ message: String) -> APIError {
        APIError(status: 503, code: "storage_unavailable", message: message)
    }
}

extension HTTPResponse {
    /// 429 `rate_limited` with `Retry-After`.
    static func rateLimited(_ message: String, retryAfter seconds: Int) -> HTTPResponse {
        .error(
            APIError(status: 429, code: "rate_limited", message: message),
            headers: [(name: "Retry-After", value: String(seconds))])
    }
}
