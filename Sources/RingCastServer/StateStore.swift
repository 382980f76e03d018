import Foundation
import RingCastCore

#if canImport(Glibc)
    import Glibc
#endif

/// The pushed targets of every board, as stored in `<dataDir>/state.json`.
struct StoredState: Codable, Equatable {
    var version: Int = 1
    var boards: [String: StoredBoard] = [:]
}

struct StoredBoard: Codable, Equatable {
    var progress: [String: Double] = [:]
    var colors: [String: [RGBAColor]] = [:]
    var labelColors: [String: RGBAColor]?
    /// The pushed background colour; nil keeps the configured one.
    var background: RGBAColor?
    var countdown: StoredCountdown?
    /// Continues across restarts, so an ETag never names two different states.
    var revision: Int?
}

/// A countdown as stored: its start in wall-clock time, since the monotonic clock restarts with
/// the process.
struct StoredCountdown: Codable, Equatable {
    var seconds: Double
    /// Milliseconds since the Unix epoch.
    var startedAt: Double
}

/// Keeps the targets on disk so a restart, graceful or `kill -9`, loses no acknowledged push.
///
/// A save writes a temporary file, fsyncs it, renames it over `state.json` and fsyncs the
/// directory, so the file on disk is always either the old or the new state, never a torn one.
/// Touched only on the service thread.
final class StateStore {
    let directory: String
    var path: String { directory + "/state.json" }
    private var temporaryPath: String { directory + "/state.json.tmp" }

    init(directory: String) throws(StateStoreError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StateStoreError(path: directory, message: "cannot create the data directory: \(error.localizedDescription)")
        }
    }

    /// The stored state, or an empty one when nothing was stored yet. A file that exists but
    /// cannot be read or parsed is an error: it is never silently replaced.
    func load() throws(StateStoreError) -> StoredState {
        guard FileManager.default.fileExists(atPath: path) else { return StoredState() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StateStoreError(path: path, message: "cannot read the state file")
        }
        let state: StoredState
        do {
            state = try JSONDecoder().decode(StoredState.self, from: data)
        } catch {
            throw StateStoreError(
                path: path,
                message: "the state file is corrupt (\(error)); move it away to start empty, or restore a backup"
            )
        }
        guard state.version == 1 else {
            throw StateStoreError(path: path, message: "unsupported state version \(state.version) (this build reads 1)")
        }
        return state
    }

    /// Durably replaces the stored state.
    func save(_ state: StoredState) throws(StateStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(state))
        } catch {
            throw StateStoreError(path: path, message: "cannot encode the state: \(error)")
        }
        try write(bytes, to: temporaryPath)
        guard rename(temporaryPath, path) == 0 else {
            throw StateStoreError(path: path, message: "rename failed: \(String(cString: strerror(errno)))")
        }
        try syncDirectory()
    }

    private func write(_ bytes: [UInt8], to file: String) throws(StateStoreError) {
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StateStoreError(path: file, message: "cannot open for writing: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw StateStoreError(path: file, message: "write failed: \(String(cString: strerror(errno)))")
            }
            written += result
        }
        guard fsync(fd) == 0 else {
            throw StateStoreError(path: file, message: "fsync failed: \(String(cString: strerror(errno)))")
        }
    }

    private func syncDirectory() throws(StateStoreError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw StateStoreError(path: directory, message: "cannot open the directory: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw StateStoreError(path: directory, message: "fsync of the directory failed: \(String(cString: strerror(errno)))")
        }
    }
}

/// A state file problem, naming the file and what to do.
public struct StateStoreError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
