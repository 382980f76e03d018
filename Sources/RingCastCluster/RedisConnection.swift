internal import CHiredis

#if canImport(Glibc)
    import Glibc
#endif

/// One blocking connection to Redis (hiredis's synchronous API), owning its `redisContext`.
///
/// Thread-confined: create it, use it and let it go on one thread at a time (the writer thread or
/// the subscriber thread); it is deliberately not `Sendable`. Every command waits for its reply at
/// most `commandTimeout`.
///
/// Reconnecting: a connection whose socket broke (I/O error, timeout, Redis restarted) is closed
/// and the command throws `RedisError.io`; the next command connects again first (and selects the
/// database again). A command is never sent twice: whether a command that failed with `.io` ran
/// is unknown, so only its caller can decide to retry it.
public final class RedisConnection {
    public let endpoint: RedisEndpoint
    public let connectTimeout: Duration
    public let commandTimeout: Duration
    private var context: UnsafeMutablePointer<redisContext>?

    /// Connects and selects `endpoint.database`; throws `.connectFailed` naming host:port.
    public init(
        endpoint: RedisEndpoint,
        connectTimeout: Duration = .seconds(2),
        commandTimeout: Duration = .seconds(2)
    ) throws(RedisError) {
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        try connect()
    }

    deinit {
        close()
    }

    /// Whether the socket is open and no error has been seen on it (a broken socket is only noticed
    /// by the next command).
    public var isConnected: Bool {
        guard let context else { return false }
        return context.pointee.err == 0
    }

    /// Closes the socket; the next command connects again.
    public func close() {
        guard let context else { return }
        self.context = nil
        redisFree(context)
    }

    /// Closes any current socket and connects again now.
    public func reconnect() throws(RedisError) {
        close()
        try connect()
    }

    /// Runs one command given as text arguments (`["SET", "k", "v"]`). An error reply throws
    /// `.server` with Redis's text; errors nested in an array stay `.error` values.
    @discardableResult
    public func command(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// Runs one command given as binary-safe arguments (any bytes, 0x00 included).
    @discardableResult
    public func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        if !isConnected { try connect() }
        guard let context else { throw RedisError.io(endpoint: endpoint.address, reason: "not connected") }
        let raw = Self.withArgv(arguments) { argc, argv, lengths in
            redisCommandArgv(context, argc, argv, lengths)
        }
        guard let raw else {
            let reason = Self.errorText(context)
            close()
            throw RedisError.io(endpoint: endpoint.address, reason: reason)
        }
        let reply = RedisReply(raw.assumingMemoryBound(to: redisReply.self))
        freeReplyObject(raw)
        if case .error(let message) = reply { throw RedisError.server(message) }
        return reply
    }

    /// Sends `commands` together (a pipeline: Redis reads them in one go and, with `appendfsync always`, fsyncs their
    /// effects once) and returns their replies in order; an error reply stays an `.error` value. Throws `.io` when the
    /// connection broke: which of the commands ran is then unknown.
    public func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        if !isConnected { try connect() }
        guard let context else { throw RedisError.io(endpoint: endpoint.address, reason: "not connected") }
        for arguments in commands {
            let status = Self.withArgv(arguments) { argc, argv, lengths in
                redisAppendCommandArgv(context, argc, argv, lengths)
            }
            if status != REDIS_OK { throw failure(context) }
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for _ in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw failure(context) }
            replies.append(RedisReply(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        return replies
    }

    /// WAIT: blocks until `replicas` replicas acknowledged every write made on this connection so
    /// far, or `timeoutMilliseconds` passed (0 waits forever, as in Redis); returns how many did.
    public func wait(replicas: Int, timeoutMilliseconds: Int) throws(RedisError) -> Int {
        let reply = try command(["WAIT", String(replicas), String(timeoutMilliseconds)])
        guard let count = reply.integer else { throw RedisError.unexpectedReply("WAIT answered \(reply)") }
        return Int(count)
    }

    // MARK: - Used by RedisSubscriber on its own thread

    /// The socket, for `poll`; -1 when closed.
    var fileDescriptor: Int32 { context?.pointee.fd ?? -1 }

    /// Queues a command without waiting for a reply and writes it out (pub/sub mode).
    func send(_ arguments: [[UInt8]]) throws(RedisError) {
        guard let context, context.pointee.err == 0 else {
            throw RedisError.io(endpoint: endpoint.address, reason: "not connected")
        }
        let status = Self.withArgv(arguments) { argc, argv, lengths in
            redisAppendCommandArgv(context, argc, argv, lengths)
        }
        var done: Int32 = 0
        if status == REDIS_OK {
            while done == 0 {
                if redisBufferWrite(context, &done) != REDIS_OK { break }
            }
        }
        if done == 0 { throw failure(context) }
    }

    /// Reads what the socket has (call when `poll` says it is readable); throws when the socket
    /// was closed or broke.
    func readAvailable() throws(RedisError) {
        guard let context else { throw RedisError.io(endpoint: endpoint.address, reason: "not connected") }
        if redisBufferRead(context) != REDIS_OK { throw failure(context) }
    }

    /// The next complete reply already read, if any; nil when more bytes are needed.
    func nextBufferedReply() throws(RedisError) -> RedisReply? {
        guard let context else { throw RedisError.io(endpoint: endpoint.address, reason: "not connected") }
        var raw: UnsafeMutableRawPointer?
        if redisGetReplyFromReader(context, &raw) != REDIS_OK { throw failure(context) }
        guard let raw else { return nil }
        let reply = RedisReply(raw.assumingMemoryBound(to: redisReply.self))
        freeReplyObject(raw)
        return reply
    }

    // MARK: - Private

    private func connect() throws(RedisError) {
        close()
        guard let context = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), Self.timeval(connectTimeout))
        else {
            throw RedisError.connectFailed(endpoint: endpoint.address, reason: "out of memory")
        }
        if context.pointee.err != 0 {
            let reason = Self.errorText(context)
            redisFree(context)
            throw RedisError.connectFailed(endpoint: endpoint.address, reason: reason)
        }
        redisSetTimeout(context, Self.timeval(commandTimeout))
        self.context = context
        if endpoint.database != 0 {
            do {
                try command(["SELECT", String(endpoint.database)])
            } catch {
                close()
                throw RedisError.connectFailed(endpoint: endpoint.address, reason: "SELECT \(endpoint.database): \(error)")
            }
        }
    }

    /// Closes the broken connection and describes why it broke.
    private func failure(_ context: UnsafeMutablePointer<redisContext>) -> RedisError {
        let reason = Self.errorText(context)
        close()
        return RedisError.io(endpoint: endpoint.address, reason: reason)
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = String(cString: chiredis_error_text(context))
        if context.pointee.err == REDIS_ERR_IO, text.contains("Resource temporarily unavailable") {
            return "no reply within the command timeout"
        }
        if context.pointee.err == REDIS_ERR_EOF || text.isEmpty {
            return text.isEmpty ? "the server closed the connection" : text.lowercased()
        }
        return text
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }

    /// Lays the arguments out in one buffer and calls `body` with hiredis's argc/argv/argvlen.
    private static func withArgv<Result>(
        _ arguments: [[UInt8]],
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Result
    ) -> Result {
        var joined: [UInt8] = []
        joined.reserveCapacity(arguments.reduce(0) { $0 + $1.count } + 1)
        var offsets: [Int] = []
        for argument in arguments {
            offsets.append(joined.count)
            joined.append(contentsOf: argument)
        }
        joined.append(0)  // so that the base pointer is valid even when every argument is empty
        let lengths = arguments.map(\.count)
        return joined.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafePointer<CChar>?] = offsets.map { UnsafePointer(base + $0) }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { lengths in
                    body(Int32(arguments.count), argv.baseAddress!, lengths.baseAddress!)
                }
            }
        }
    }
}

@available(*, unavailable)
extension RedisConnection: Sendable {}

extension RedisReply {
    /// Copies hiredis's reply tree.
    init(_ reply: UnsafeMutablePointer<redisReply>) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            self = .bulk(value.str == nil ? [] : Array(UnsafeRawBufferPointer(start: value.str, count: Int(value.len))))
        case REDIS_REPLY_STATUS:
            self = .status(Self.text(value))
        case REDIS_REPLY_ERROR:
            self = .error(Self.text(value))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int64(value.integer))
        case REDIS_REPLY_ARRAY:
            self = .array((0..<Int(value.elements)).map { RedisReply(chiredis_element(reply, $0)) })
        default:
            self = .nil
        }
    }

    private static func text(_ reply: redisReply) -> String {
        guard let str = reply.str else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: str, count: Int(reply.len)), as: UTF8.self)
    }
}
