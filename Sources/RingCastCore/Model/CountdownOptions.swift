import Foundation

/// How one countdown ring shows the board's countdown and what happens when it reaches 0 (DESIGN §12, seed
/// 004). Every field has a default, and a ring without options (`RingSpec.countdown` nil) shows the countdown
/// as it always did: the board's ring look, whole seconds, resting full at `0s`.
public struct CountdownOptions: Sendable, Hashable, Codable {
    /// How the page draws the ring.
    public enum Style: String, Sendable, Hashable, Codable, CaseIterable {
        /// The board's ring: track, gradient, caps and tip (§5).
        case ring
        /// Seed 004's `CircleProgressView`: a white disc at alpha 0.25, a white 4-unit stroke with butt caps, no
        /// track, no gradient, no tip.
        case seed
    }

    /// What the ring does once the countdown reaches 0.
    public enum Then: String, Sendable, Hashable, Codable, CaseIterable {
        /// Stays full at `0s` (the default).
        case rest
        /// Shows no data again (`p` null, `—`), as after `DELETE …/countdown`.
        case cancel
        /// Starts again at once, forever: cycle k runs from start + k·N.
        case restart
    }

    public var style: Style
    /// The label shows tenths of seconds left, rounded up (`9.5s`) instead of whole seconds (`10s`).
    public var tenths: Bool
    public var then: Then
    /// Where the end event is POSTed (`http://` or `https://`, checked by `checkWebhook`); nil: nowhere.
    public var webhook: String?

    public init(style: Style = .ring, tenths: Bool = false, then: Then = .rest, webhook: String? = nil) {
        self.style = style
        self.tenths = tenths
        self.then = then
        self.webhook = webhook
    }

    /// The options of a ring defined without any.
    public static let standard = CountdownOptions()

    /// The longest webhook URL taken.
    public static let maximumWebhookLength = 2048

    // MARK: Codable (the stored spec; every key optional, so a stored spec always reads back)

    private enum CodingKeys: String, CodingKey {
        case style, tenths, then, webhook
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        style = try container.decodeIfPresent(Style.self, forKey: .style) ?? .ring
        tenths = try container.decodeIfPresent(Bool.self, forKey: .tenths) ?? false
        then = try container.decodeIfPresent(Then.self, forKey: .then) ?? .rest
        webhook = try container.decodeIfPresent(String.self, forKey: .webhook)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(style, forKey: .style)
        try container.encode(tenths, forKey: .tenths)
        try container.encode(then, forKey: .then)
        try container.encodeIfPresent(webhook, forKey: .webhook)
    }
}

extension CountdownOptions {
    /// A webhook URL split into what a socket needs.
    public struct WebhookTarget: Sendable, Hashable {
        public var https: Bool
        /// The host as written, without IPv6 brackets.
        public var host: String
        public var port: Int
        /// Path and query, at least `/`.
        public var path: String
    }

    /// The parts of `url`, or why it cannot be a webhook: `http` or `https`, a host, no user or password, no
    /// fragment, at most `maximumWebhookLength` characters.
    public static func webhookTarget(_ url: String) -> Result<WebhookTarget, WebhookProblem> {
        guard url.utf8.count <= maximumWebhookLength else {
            return .failure(WebhookProblem(reason: "is longer than \(maximumWebhookLength) bytes"))
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            return .failure(WebhookProblem(reason: "is not a URL such as \"https://example.com/hooks/ringcast\""))
        }
        guard scheme == "http" || scheme == "https" else {
            return .failure(WebhookProblem(reason: "must be an http:// or https:// URL, got scheme \"\(scheme)\""))
        }
        guard let host = components.host, !host.isEmpty else {
            return .failure(WebhookProblem(reason: "must name a host, as in \"https://example.com/hook\""))
        }
        guard components.user == nil, components.password == nil else {
            return .failure(WebhookProblem(reason: "must not carry a user or password"))
        }
        guard components.fragment == nil else {
            return .failure(WebhookProblem(reason: "must not carry a #fragment"))
        }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else {
            return .failure(WebhookProblem(reason: "has port \(port); ports are 1 to 65535"))
        }
        var path = components.percentEncodedPath
        if path.isEmpty { path = "/" }
        if let query = components.percentEncodedQuery { path += "?" + query }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return .success(WebhookTarget(https: scheme == "https", host: bare, port: port, path: path))
    }

    /// Why a URL cannot be a webhook.
    public struct WebhookProblem: Error, Sendable, Equatable {
        public var reason: String
    }

    /// Whether `url`'s host is one of `hosts` (compared without case; IPv6 without brackets); any host when
    /// `hosts` is empty. A URL that cannot be a webhook is not allowed.
    public static func webhook(_ url: String, isAllowedBy hosts: [String]) -> Bool {
        guard case .success(let target) = webhookTarget(url) else { return false }
        guard !hosts.isEmpty else { return true }
        let host = target.host.lowercased()
        return hosts.contains { $0.lowercased() == host }
    }

    /// 422 `invalid_value` (field `field`) unless `url`'s host is in `hosts` (empty: any host).
    public static func checkWebhook(_ url: String, allowedBy hosts: [String], field: String?) throws(APIError) {
        guard webhook(url, isAllowedBy: hosts) else {
            let host = (try? webhookTarget(url).get().host) ?? url
            throw .invalidValue(
                "webhook host \"\(host)\" is not one of the server's webhookHosts (\(hosts.joined(separator: ", ")))",
                field: field)
        }
    }

    /// 422 `invalid_value` (field `field`) unless `url` can be a webhook (`webhookTarget`).
    public static func checkWebhook(_ url: String, field: String?) throws(APIError) {
        if case .failure(let problem) = webhookTarget(url) {
            throw .invalidValue("webhook \(problem.reason)", field: field)
        }
    }
}
