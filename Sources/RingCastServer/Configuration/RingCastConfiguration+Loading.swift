import Foundation
import RingCastCluster
import RingCastCore

extension RingCastConfiguration {
    /// Reads a config file, applies `RINGCAST_*` variables from `environment`, and validates the
    /// result. Every problem names the file and the key, or the variable, and what was expected.
    public static func load(
        file path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> RingCastConfiguration {
        let configuration = try read(file: path, environment: environment)
        try configuration.validate()
        return configuration
    }

    /// Reads a config file and applies `RINGCAST_*` variables from `environment`, without
    /// validating the settings yet, so that a caller can apply its flags (`set(_:to:key:from:)`)
    /// and validate once (`validate()`).
    public static func read(
        file path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> RingCastConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ConfigurationError(
                file: path,
                key: "",
                message: exists ? "cannot read the file" : "no such file (pass --config FILE or run from the repository root)"
            )
        }
        // The API's strict reader: Foundation would say only "not valid JSON", and would let a key given twice,
        // a comma before "}", a byte order mark or UTF-16 through.
        if let problem = StrictJSON.firstProblem(in: Array(data)) {
            throw ConfigurationError(file: path, line: problem.line, column: problem.column, message: problem.message)
        }
        let file: ConfigurationFile
        do {
            file = try JSONDecoder().decode(ConfigurationFile.self, from: data)
        } catch let error as DecodingError {
            throw ConfigurationError(file: path, key: error.keyPath, message: error.reason)
        } catch {
            throw ConfigurationError(file: path, key: "", message: "\(error)")
        }
        var configuration = try RingCastConfiguration(file: file, path: path)
        try configuration.applyEnvironment(environment)
        return configuration
    }

    init(file: ConfigurationFile, path: String) throws(ConfigurationError) {
        self.init()
        configFile = path
        if let host = file.host { self.host = host }
        if let port = file.port { self.port = port }
        if let fps = file.fps { self.fps = fps }
        if let webRoot = file.webRoot { self.webRoot = webRoot.isEmpty ? nil : webRoot }
        if let dataDir = file.dataDir { self.dataDirectory = dataDir }
        if let document = file.openAPIDocument { self.openAPIDocument = document.isEmpty ? nil : document }
        if let limits = file.limits {
            if let value = limits.maxBodyBytes { maxBodyBytes = value }
            if let value = limits.pingIntervalSeconds { pingIntervalSeconds = value }
            if let value = limits.stallTimeoutSeconds { stallTimeoutSeconds = value }
            if let value = limits.writesPerMinute { writesPerMinute = value }
            if let value = limits.maxViewers { maxViewers = value }
            if let value = limits.idempotencyCacheBytes { idempotencyCacheBytes = value }
            if let value = limits.maxBoards { maxBoards = value }
            if let value = limits.maxRingsPerBoard { maxRingsPerBoard = value }
        }
        if let token = file.token { writeToken = token }
        if let token = file.readToken { readToken = token }
        if let entries = file.tokens {
            tokens = try entries.enumerated().map { (index, entry) throws(ConfigurationError) in
                try AccessToken(entry: entry, key: "tokens[\(index)]", file: path)
            }
        }
        if let entry = file.autoCreate, entry.enabled {
            let name = entry.template ?? BoardTemplate.single.rawValue
            guard let template = BoardTemplate(rawValue: name) else {
                let known = BoardTemplate.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError(
                    file: path, key: "autoCreate.template", message: "unknown template \"\(name)\"; the templates are \(known)")
            }
            autoCreate = template
        }
        if let origins = file.allowedOrigins { allowedOrigins = origins }
        if let origins = file.embedOrigins { embedOrigins = origins }
        if let hosts = file.allowedHosts { allowedHosts = hosts }
        if let hosts = file.webhookHosts { webhookHosts = hosts }
        if let level = file.logLevel { logLevel = level }
        if let seconds = file.shutdownTimeout { shutdownTimeout = seconds }
        if let count = file.loops { loops = count }
        if let name = file.defaultBoard { defaultBoard = name }
        if let tls = file.tls {
            if let cert = tls.cert { tlsCertificate = cert.isEmpty ? nil : cert }
            if let key = tls.key { tlsKey = key.isEmpty ? nil : key }
            if let value = tls.hstsMaxAgeSeconds { hstsMaxAgeSeconds = value }
        }
        if let cluster = file.cluster {
            if let redis = cluster.redis { self.redis = redis.isEmpty ? nil : redis }
            if let node = cluster.node { self.node = node.isEmpty ? nil : node }
            if let value = cluster.leadMilliseconds { leadMilliseconds = value }
            if let value = cluster.replicas { replicas = value }
            if let value = cluster.streamLength { streamLength = value }
        }
        if let history = file.history {
            if let value = history.seconds { historySeconds = value }
            if let value = history.points { historyPoints = value }
            if let value = history.changes { historyChanges = value }
        }
        guard let boards = file.boards, !boards.isEmpty else {
            throw ConfigurationError(file: path, key: "boards", message: "at least one board is required")
        }
        // A limit out of range is reported by `validate()`; the boards are checked against the most there can be.
        let maximumRings =
            (1...Limits.maximumRingsPerBoard).contains(maxRingsPerBoard) ? maxRingsPerBoard : Limits.maximumRingsPerBoard
        self.boards = try boards.enumerated().map { (index, entry) throws(ConfigurationError) in
            try BoardSpec(entry: entry, key: "boards[\(index)]", file: path, maximumRings: maximumRings)
        }
        if let entries = file.playlists { playlists = try Self.playlists(entries, file: path) }
    }

    /// `RINGCAST_HOST`, `RINGCAST_PORT`, `RINGCAST_FPS`, `RINGCAST_WEB_ROOT`, `RINGCAST_DATA_DIR`,
    /// `RINGCAST_TOKEN` (write token), `RINGCAST_READ_TOKEN`, `RINGCAST_TLS_CERT`, `RINGCAST_TLS_KEY`
    /// (empty switches TLS off), `RINGCAST_REDIS_URL` (empty: no cluster), `RINGCAST_NODE`,
    /// `RINGCAST_SHUTDOWN_TIMEOUT`.
    mutating func applyEnvironment(_ environment: [String: String]) throws(ConfigurationError) {
        func integer(_ name: String) throws(ConfigurationError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text) else {
                throw ConfigurationError(file: nil, key: name, message: "expected a whole number, got \"\(text)\"")
            }
            return value
        }
        if let host = environment["RINGCAST_HOST"] { set(\.host, to: host, key: "host", from: "RINGCAST_HOST") }
        if let port = try integer("RINGCAST_PORT") { set(\.port, to: port, key: "port", from: "RINGCAST_PORT") }
        if let fps = try integer("RINGCAST_FPS") { set(\.fps, to: fps, key: "fps", from: "RINGCAST_FPS") }
        if let webRoot = environment["RINGCAST_WEB_ROOT"] {
            set(\.webRoot, to: webRoot.isEmpty ? nil : webRoot, key: "webRoot", from: "RINGCAST_WEB_ROOT")
        }
        if let dataDir = environment["RINGCAST_DATA_DIR"] {
            set(\.dataDirectory, to: dataDir, key: "dataDir", from: "RINGCAST_DATA_DIR")
        }
        if let token = environment["RINGCAST_TOKEN"] { set(\.writeToken, to: token, key: "token", from: "RINGCAST_TOKEN") }
        if let level = environment["RINGCAST_LOG_LEVEL"] {
            set(\.logLevel, to: level, key: "logLevel", from: "RINGCAST_LOG_LEVEL")
        }
        if let token = environment["RINGCAST_READ_TOKEN"] {
            set(\.readToken, to: token, key: "readToken", from: "RINGCAST_READ_TOKEN")
        }
        if let cert = environment["RINGCAST_TLS_CERT"] {
            set(\.tlsCertificate, to: cert.isEmpty ? nil : cert, key: "tls.cert", from: "RINGCAST_TLS_CERT")
        }
        if let key = environment["RINGCAST_TLS_KEY"] {
            set(\.tlsKey, to: key.isEmpty ? nil : key, key: "tls.key", from: "RINGCAST_TLS_KEY")
        }
        if let redis = environment["RINGCAST_REDIS_URL"] {
            set(\.redis, to: redis.isEmpty ? nil : redis, key: "cluster.redis", from: "RINGCAST_REDIS_URL")
        }
        if let node = environment["RINGCAST_NODE"] {
            set(\.node, to: node.isEmpty ? nil : node, key: "cluster.node", from: "RINGCAST_NODE")
        }
        if let seconds = try integer("RINGCAST_SHUTDOWN_TIMEOUT") {
            set(\.shutdownTimeout, to: seconds, key: "shutdownTimeout", from: "RINGCAST_SHUTDOWN_TIMEOUT")
        }
        if let count = try integer("RINGCAST_LOOPS") {
            set(\.loops, to: count, key: "loops", from: "RINGCAST_LOOPS")
        }
    }

    /// Sets the setting the file calls `key` from somewhere else, `origin` (an environment variable
    /// or a flag such as `--port`), so that an error about it names that rather than the file.
    public mutating func set<Value>(
        _ setting: WritableKeyPath<RingCastConfiguration, Value>, to value: Value, key: String, from origin: String
    ) {
        self[keyPath: setting] = value
        origins[key] = origin
    }

    /// An error about the setting the file calls `key`, naming where its value came from: the
    /// variable or flag that set it, else the config file and the key.
    public func error(key: String, _ message: String) -> ConfigurationError {
        if let origin = origins[key] { return ConfigurationError(file: nil, key: origin, message: message) }
        return ConfigurationError(file: configFile ?? "configuration", key: key, message: message)
    }

    /// What to call the TLS setting `key` (`tls.cert` or `tls.key`) in a message about `given`: the
    /// flag or variable of the same kind when `given` came from one (`--tls-key`, RINGCAST_TLS_KEY),
    /// else the file's key.
    private func tlsName(of key: String, besides given: String) -> String {
        let flag = key == "tls.cert" ? "--tls-cert" : "--tls-key"
        let variable = key == "tls.cert" ? "RINGCAST_TLS_CERT" : "RINGCAST_TLS_KEY"
        switch origins[given] {
        case let origin? where origin.hasPrefix("--"): return flag
        case let origin? where origin.hasPrefix("RINGCAST_"): return "\(variable) (or \(flag))"
        default: return "\(key) (or \(flag))"
        }
    }

    /// swift-log's levels, as `logLevel` names them.
    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// Checks the server settings; an error names the file and the key, or the variable or flag
    /// the value came from.
    public func validate() throws(ConfigurationError) {
        func fail(_ key: String, _ message: String) -> ConfigurationError {
            error(key: key, message)
        }
        if host.isEmpty { throw fail("host", "must not be empty") }
        if !(0...65_535).contains(port) { throw fail("port", "expected 0…65535, got \(port)") }
        if !(1...240).contains(fps) { throw fail("fps", "expected 1…240, got \(fps)") }
        if !(1...(64 << 20)).contains(maxBodyBytes) {
            throw fail("limits.maxBodyBytes", "expected 1…67108864, got \(maxBodyBytes)")
        }
        if !(0...3600).contains(pingIntervalSeconds) {
            throw fail("limits.pingIntervalSeconds", "expected 0…3600, got \(pingIntervalSeconds)")
        }
        if !(1...3600).contains(stallTimeoutSeconds) {
            throw fail("limits.stallTimeoutSeconds", "expected 1…3600, got \(stallTimeoutSeconds)")
        }
        if dataDirectory.isEmpty { throw fail("dataDir", "must not be empty") }
        if !(0...1_000_000).contains(writesPerMinute) {
            throw fail("limits.writesPerMinute", "expected 0…1000000 (0 = no limit), got \(writesPerMinute)")
        }
        if !(0...(1 << 30)).contains(idempotencyCacheBytes) {
            throw fail("limits.idempotencyCacheBytes", "expected 0…1073741824 (0 = no replays), got \(idempotencyCacheBytes)")
        }
        if !(1...1_000_000).contains(maxViewers) {
            throw fail("limits.maxViewers", "expected 1…1000000, got \(maxViewers)")
        }
        if !(1...10_000).contains(maxBoards) {
            throw fail("limits.maxBoards", "expected 1…10000, got \(maxBoards)")
        }
        if !(1...Limits.maximumRingsPerBoard).contains(maxRingsPerBoard) {
            throw fail(
                "limits.maxRingsPerBoard",
                "expected 1…\(Limits.maximumRingsPerBoard) (the binary format counts rings in a byte), got \(maxRingsPerBoard)")
        }
        if boards.count > maxBoards {
            throw fail("limits.maxBoards", "\(boards.count) boards are configured, more than \(maxBoards)")
        }
        for (index, board) in boards.enumerated() where board.rings.count > maxRingsPerBoard {
            throw fail(
                "boards[\(index)].rings", "\(board.rings.count) rings, more than limits.maxRingsPerBoard \(maxRingsPerBoard)")
        }
        for (key, token) in [("token", writeToken), ("readToken", readToken)] {
            guard let token else { continue }
            if let problem = AccessToken.problem(withSecret: token) { throw fail(key, problem) }
        }
        if let writeToken, writeToken == readToken {
            throw fail("readToken", "must differ from the write token")
        }
        try validateTokens()
        for (index, origin) in allowedOrigins.enumerated()
        where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) || origin.hasSuffix("/") {
            throw fail("allowedOrigins[\(index)]", "expected an origin like https://tv.example:8080, got \"\(origin)\"")
        }
        // Each goes into a Content-Security-Policy header as is: nothing but a CSP source may pass.
        for (index, origin) in embedOrigins.enumerated() where !Self.isEmbedOrigin(origin) {
            throw fail(
                "embedOrigins[\(index)]",
                "expected an origin like https://wiki.example.com, https://*.example.com:8443 or *, got \"\(origin)\"")
        }
        for (index, host) in webhookHosts.enumerated()
        where host.isEmpty || host.contains(where: { $0.isWhitespace || "/:@?#[]".contains($0) }) {
            throw fail(
                "webhookHosts[\(index)]", "expected a host name or IPv4 address such as hooks.example.com, got \"\(host)\"")
        }
        for (index, board) in boards.enumerated() {
            for ring in board.rings {
                guard let webhook = ring.countdown?.webhook,
                    !CountdownOptions.webhook(webhook, isAllowedBy: webhookHosts)
                else { continue }
                throw fail(
                    "boards[\(index)].rings", "ring \"\(ring.id)\"'s webhook \"\(webhook)\" names a host not in webhookHosts")
            }
        }
        for (index, host) in (allowedHosts ?? []).enumerated() {
            if host == "*" {
                guard allowedHosts?.count == 1 else {
                    throw fail("allowedHosts[\(index)]", "\"*\" allows every host, so it stands alone: [\"*\"]")
                }
            } else if HostPolicy.entry(host) == nil {
                throw fail(
                    "allowedHosts[\(index)]",
                    "expected a host name as a browser sends it in Host, such as rings.example.com or "
                        + "rings.example.com:8443 (no scheme, path or spaces; a name outside ASCII in its xn-- form), "
                        + "got \"\(host)\"")
            }
        }
        // The one that was given is blamed, by the name it was given under (`--tls-cert`,
        // RINGCAST_TLS_CERT or the file's tls.cert), and the missing one by the same kind of name.
        switch (tlsCertificate, tlsKey) {
        case (nil, .some):
            throw fail("tls.key", "needs \(tlsName(of: "tls.cert", besides: "tls.key")), the certificate; give both or neither")
        case (.some, nil):
            throw fail("tls.cert", "needs \(tlsName(of: "tls.key", besides: "tls.cert")), its private key; give both or neither")
        default: break
        }
        if !(0...300).contains(shutdownTimeout) {
            throw fail("shutdownTimeout", "expected 0…300 seconds, got \(shutdownTimeout)")
        }
        if !(1...Self.maximumLoops).contains(loops) {
            throw fail("loops", "expected 1…\(Self.maximumLoops) service loops, got \(loops)")
        }
        if !(0...63_072_000).contains(hstsMaxAgeSeconds) {
            throw fail(
                "tls.hstsMaxAgeSeconds", "expected 0…63072000 seconds (two years; 0 = no header), got \(hstsMaxAgeSeconds)")
        }
        if !Self.logLevels.contains(logLevel) {
            throw fail("logLevel", "expected one of \(Self.logLevels.joined(separator: ", ")), got \"\(logLevel)\"")
        }
        if let redis {
            do {
                _ = try RedisEndpoint(url: redis)
            } catch {
                throw fail("cluster.redis", "\(error)")
            }
        }
        if let node, node.isEmpty || node.utf8.count > 64 || node.contains(where: { $0.isWhitespace || $0 == "\"" }) {
            throw fail("cluster.node", "expected 1 to 64 characters without spaces or quotes, got \"\(node)\"")
        }
        if !(0...10_000).contains(leadMilliseconds) {
            throw fail("cluster.leadMilliseconds", "expected 0…10000, got \(leadMilliseconds)")
        }
        if !(0...16).contains(replicas) { throw fail("cluster.replicas", "expected 0…16, got \(replicas)") }
        if !(10...10_000_000).contains(streamLength) {
            throw fail("cluster.streamLength", "expected 10…10000000, got \(streamLength)")
        }
        if !(0...31_536_000).contains(historySeconds) {
            throw fail(
                "history.seconds",
                "expected 0…31536000 (a year; 0 = no history, and keep no older changes), got \(historySeconds)")
        }
        if !(0...1_000_000).contains(historyPoints) {
            throw fail("history.points", "expected 0…1000000 points a ring (0 = no history), got \(historyPoints)")
        }
        if !(0...10_000_000).contains(historyChanges) {
            throw fail("history.changes", "expected 0…10000000 (0 = keep no older changes), got \(historyChanges)")
        }
        if boards.isEmpty { throw fail("boards", "at least one board is required") }
        if let problem = Name.problem(of: defaultBoard, as: .board) { throw fail("defaultBoard", problem) }
        var names = Set<String>()
        for (index, board) in boards.enumerated() where !names.insert(board.name).inserted {
            throw fail("boards[\(index)].name", "duplicate board name \"\(board.name)\"")
        }
        try validatePlaylists(boards: names)
    }

    /// The declared playlists: at most `Limits.maximumPlaylists`, names unique, each board one of `boards`.
    private func validatePlaylists(boards: Set<String>) throws(ConfigurationError) {
        if playlists.count > Limits.maximumPlaylists {
            throw error(key: "playlists", "\(playlists.count) playlists, more than a server holds (\(Limits.maximumPlaylists))")
        }
        var names = Set<String>()
        for (index, playlist) in playlists.enumerated() {
            if !names.insert(playlist.name).inserted {
                throw error(key: "playlists[\(index)].name", "duplicate playlist name \"\(playlist.name)\"")
            }
            for (position, board) in playlist.boards.enumerated() where !boards.contains(board) {
                throw error(
                    key: "playlists[\(index)].boards[\(position)]",
                    "no board named \"\(board)\" is configured; a declared playlist shows boards of \"boards\"")
            }
        }
    }

    /// The playlists of `entries`, each checked as the API checks a playlist (name and definition); a refusal names
    /// the key (`playlists[0].seconds`).
    static func playlists(
        _ entries: [ConfigurationFile.PlaylistEntry], file path: String
    ) throws(ConfigurationError) -> [Playlist] {
        try entries.enumerated().map { (index, entry) throws(ConfigurationError) in
            let key = "playlists[\(index)]"
            if let problem = entry.problem {
                throw ConfigurationError(file: path, key: configurationKey(problem.field) ?? key, message: problem.message)
            }
            if let problem = Name.problem(of: entry.name, as: .playlist) {
                throw ConfigurationError(file: path, key: key + ".name", message: problem)
            }
            guard let definition = entry.definition else {
                throw ConfigurationError(file: path, key: key, message: "expected a playlist")
            }
            return Playlist(name: entry.name, definition: definition, anchor: 0)
        }
    }

    /// A request field path (`playlists.0.boards.1`) as a config key (`playlists[0].boards[1]`).
    private static func configurationKey(_ field: String?) -> String? {
        field.map { field in
            field.split(separator: ".").reduce(into: "") { key, part in
                if Int(part) != nil { key += "[\(part)]" } else { key += key.isEmpty ? String(part) : "." + part }
            }
        }
    }
}

extension DecodingError {
    /// The dotted path of the value that failed, e.g. `boards[0].rings[2].r`.
    var keyPath: String {
        let path: [any CodingKey]
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
        @unknown default:
            path = []
        }
        return path.reduce(into: "") { result, key in
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
    }

    /// What was expected, in words.
    var reason: String {
        switch self {
        case .typeMismatch(let type, _):
            return "expected \(Self.describe(type))"
        case .valueNotFound(let type, _):
            return "expected \(Self.describe(type)), got null"
        case .keyNotFound:
            return "required key is missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON (\(context.debugDescription))" : context.debugDescription
        @unknown default:
            return "invalid value"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        // Foundation names the containers it expected `Dictionary<String, Any>` and `Array<Any>`.
        case _ where "\(type)".hasPrefix("Dictionary<"): "an object, {…}"
        case _ where "\(type)".hasPrefix("Array<"): "a list, […]"
        default: "\(type)"
        }
    }
}

extension RingCastConfiguration {
    /// Whether `origin` is `*` or `http(s)://` and a host (letters, digits, `-` and `.`; its first label may
    /// be `*`) with an optional port: a CSP host source (CSP Level 3 §2.3.1) without a path.
    static func isEmbedOrigin(_ origin: String) -> Bool {
        if origin == "*" { return true }
        guard let scheme = ["https://", "http://"].first(where: { origin.hasPrefix($0) }) else { return false }
        let rest = origin.dropFirst(scheme.count)
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let host = parts.first, !host.isEmpty else { return false }
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65535).contains(port), parts[1].allSatisfy(\.isASCII) else { return false }
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return labels.enumerated().allSatisfy { index, label in
            if index == 0, label == "*", labels.count > 1 { return true }
            return !label.isEmpty
                && label.unicodeScalars.allSatisfy { scalar in
                    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
                }
        }
    }
}
