import Foundation
import RingCastCore

/// The state file of RingCast before the embedded store (`DATA/state.json`, format 1): the pushed
/// targets of every board, shown at rest. Read once, on the first start with the store, then kept
/// as `state.json.migrated`.
struct LegacyState: Decodable {
    var version: Int
    var boards: [String: LegacyBoard]

    struct LegacyBoard: Decodable {
        var progress: [String: Double]?
        var colors: [String: [RGBAColor]]?
        var labelColors: [String: RGBAColor]?
        var background: RGBAColor?
        var countdown: LegacyCountdown?
        var revision: Int?
    }

    /// A countdown's start in wall-clock time.
    struct LegacyCountdown: Decodable {
        var seconds: Double
        /// Milliseconds since the Unix epoch.
        var startedAt: Double
    }

    static func fileName(in directory: String) -> String { directory + "/state.json" }

    /// The boards of `path`, each as an animator state at `tick`; nil when there is no such file.
    /// A file that cannot be read or parsed is an error, never silently dropped.
    static func states(
        at path: String,
        boards: [BoardSpec],
        clock: TickClock,
        tick: Int64
    ) throws(StartupError) -> (states: [String: BoardState], skipped: [String])? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let legacy: LegacyState
        do {
            legacy = try JSONDecoder().decode(LegacyState.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw StartupError("\(path): cannot migrate the old state file (\(error)); move it away to start empty")
        }
        guard legacy.version == 1 else {
            throw StartupError("\(path): unsupported state version \(legacy.version) (this build migrates 1)")
        }
        var states: [String: BoardState] = [:]
        var skipped: [String] = []
        for spec in boards {
            guard let saved = legacy.boards[spec.name] else { continue }
            let secondsAgo = { (countdown: LegacyCountdown) in clock.now() - countdown.startedAt / 1000 }
            var board = Board(spec: spec)
            skipped += board.restore(
                targets: saved.progress ?? [:],
                colors: saved.colors ?? [:],
                labelColors: saved.labelColors ?? [:],
                background: saved.background,
                countdown: saved.countdown.map { Countdown(seconds: $0.seconds, start: -secondsAgo($0)) },
                revision: min(max(saved.revision ?? 0, 0), Int(BoardState.maximumRevision))
            ).map { "\(spec.name).\($0)" }
            let state = board.state(fps: clock.fps, epoch: tick)
            do {
                // The same checks a stored state gets at every start.
                _ = try Animator(spec: spec, fps: clock.fps, state: state)
            } catch {
                throw StartupError("\(path): board \(spec.name): \(error)")
            }
            states[spec.name] = state
        }
        return (states, skipped)
    }
}
