import Logging
import Synchronization

/// The level the whole process logs at, changed while it runs: at start from the configuration
/// (`logLevel`, `RINGCAST_LOG_LEVEL`, `--log-level`), then by every reload that takes.
final class LogLevelSwitch: Sendable {
    private let level: Mutex<Logger.Level>

    init(_ level: Logger.Level) {
        self.level = Mutex(level)
    }

    var current: Logger.Level { level.withLock { $0 } }

    func set(_ name: String) {
        guard let new = Logger.Level(rawValue: name) else { return }
        level.withLock { $0 = new }
    }
}

/// swift-log's standard-error handler, at the level of a `LogLevelSwitch` rather than its own.
struct SwitchedLogHandler: LogHandler {
    private var stream: StreamLogHandler
    private let levelSwitch: LogLevelSwitch

    init(label: String, levelSwitch: LogLevelSwitch) {
        stream = StreamLogHandler.standardError(label: label)
        stream.logLevel = .trace  // the switch decides
        self.levelSwitch = levelSwitch
    }

    /// The switch's level. Setting it on one logger would change every logger of the process, so
    /// a logger cannot: change the configuration and reload.
    var logLevel: Logger.Level {
        get { levelSwitch.current }
        set {}  // swift-log requires a setter
    }

    var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        stream.log(event: event)
    }
}
