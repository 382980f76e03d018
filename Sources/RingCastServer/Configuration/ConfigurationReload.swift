/// What a reload (SIGHUP) makes of a newly loaded configuration: the settings that take effect
/// while the server runs (tokens, allowed origins and hosts, the write rate, the viewer limit, the
/// Idempotency-Key cache, the boards) and the ones that only a restart can change (where it
/// listens, the frame rate, the files it serves or stores, the transport's limits), which keep
/// their running values.
struct ConfigurationReload {
    /// What runs after the reload: `requested`'s reloadable settings, `running`'s others.
    let configuration: RingCastConfiguration
    /// The restart-only settings `requested` changes, as `key: running → requested`; ignored.
    let needsRestart: [String]
    /// The keys of the reloadable settings that change (tokens are named, never shown).
    let changed: [String]

    init(running: RingCastConfiguration, requested: RingCastConfiguration) {
        var needsRestart: [String] = []
        func restartOnly(_ key: String, _ value: (RingCastConfiguration) -> String) {
            let (was, wanted) = (value(running), value(requested))
            if was != wanted { needsRestart.append("\(key): \(was) → \(wanted)") }
        }
        restartOnly("host") { $0.host }
        restartOnly("playlists") { configuration in
            configuration.playlists.map { playlist in
                "\(playlist.name) [\(playlist.boards.joined(separator: ", ")), \(playlist.seconds) s, \(playlist.transition.map { "\($0)" } ?? "no splash")]"
            }.joined(separator: " ")
        }
        restartOnly("port") { "\($0.port)" }
        restartOnly("fps") { "\($0.fps)" }
        restartOnly("webRoot") { $0.webRoot ?? "none" }
        restartOnly("openAPIDocument") { $0.openAPIDocument ?? "none" }
        restartOnly("dataDir") { $0.dataDirectory }
        // The transport reads these once, when it creates its context.
        restartOnly("limits.maxBodyBytes") { "\($0.maxBodyBytes)" }
        restartOnly("limits.pingIntervalSeconds") { "\($0.pingIntervalSeconds)" }
        restartOnly("limits.stallTimeoutSeconds") { "\($0.stallTimeoutSeconds)" }
        // The vhost loads its certificate once; a renewed certificate needs a restart.
        restartOnly("tls.cert") { $0.tlsCertificate ?? "none" }
        restartOnly("tls.key") { $0.tlsKey ?? "none" }
        restartOnly("tls.hstsMaxAgeSeconds") { "\($0.hstsMaxAgeSeconds)" }
        // The node joins its cluster (or serves alone) once, at start.
        restartOnly("cluster.redis") { $0.redis ?? "none" }
        restartOnly("cluster.node") { $0.node ?? "default" }
        restartOnly("cluster.leadMilliseconds") { "\($0.leadMilliseconds)" }
        restartOnly("cluster.replicas") { "\($0.replicas)" }
        restartOnly("cluster.streamLength") { "\($0.streamLength)" }
        // The store takes its retention when it opens.
        restartOnly("history.seconds") { "\($0.historySeconds)" }
        restartOnly("history.points") { "\($0.historyPoints)" }
        restartOnly("history.changes") { "\($0.historyChanges)" }
        // The transport takes its drain timeout when it is created.
        restartOnly("shutdownTimeout") { "\($0.shutdownTimeout)" }
        // The loops' threads and contexts are made once.
        restartOnly("loops") { "\($0.loops)" }

        var changed: [String] = []
        func reloadable<Value: Equatable>(_ key: String, _ value: KeyPath<RingCastConfiguration, Value>) {
            if running[keyPath: value] != requested[keyPath: value] { changed.append(key) }
        }
        reloadable("token", \.writeToken)
        reloadable("readToken", \.readToken)
        reloadable("tokens", \.tokens)
        reloadable("autoCreate", \.autoCreate)
        reloadable("allowedOrigins", \.allowedOrigins)
        reloadable("embedOrigins", \.embedOrigins)
        reloadable("allowedHosts", \.allowedHosts)
        reloadable("webhookHosts", \.webhookHosts)
        reloadable("defaultBoard", \.defaultBoard)
        reloadable("logLevel", \.logLevel)
        reloadable("limits.writesPerMinute", \.writesPerMinute)
        reloadable("limits.maxViewers", \.maxViewers)
        reloadable("limits.idempotencyCacheBytes", \.idempotencyCacheBytes)
        reloadable("limits.maxBoards", \.maxBoards)
        reloadable("limits.maxRingsPerBoard", \.maxRingsPerBoard)
        reloadable("boards", \.boards)

        var configuration = requested
        configuration.host = running.host
        configuration.port = running.port
        configuration.fps = running.fps
        configuration.webRoot = running.webRoot
        configuration.openAPIDocument = running.openAPIDocument
        configuration.dataDirectory = running.dataDirectory
        configuration.maxBodyBytes = running.maxBodyBytes
        configuration.pingIntervalSeconds = running.pingIntervalSeconds
        configuration.stallTimeoutSeconds = running.stallTimeoutSeconds
        configuration.tlsCertificate = running.tlsCertificate
        configuration.tlsKey = running.tlsKey
        configuration.hstsMaxAgeSeconds = running.hstsMaxAgeSeconds
        configuration.redis = running.redis
        configuration.node = running.node
        configuration.leadMilliseconds = running.leadMilliseconds
        configuration.replicas = running.replicas
        configuration.streamLength = running.streamLength
        configuration.historySeconds = running.historySeconds
        configuration.historyPoints = running.historyPoints
        configuration.historyChanges = running.historyChanges
        configuration.shutdownTimeout = running.shutdownTimeout
        configuration.loops = running.loops
        self.configuration = configuration
        self.needsRestart = needsRestart
        self.changed = changed
    }
}
