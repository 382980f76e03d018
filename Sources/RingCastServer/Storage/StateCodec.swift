import Foundation
import RingCastCore

/// A board's stored state as bytes: UTF-8 JSON with sorted keys (docs/STORAGE.md).
enum StateCodec {
    /// Throws only for a state holding a non-finite number, which the validated API and the animator never make.
    static func encode(_ state: BoardState) throws(EncodingFailure) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(state))
        } catch {
            throw EncodingFailure(encoding: BoardState.self, error)
        }
    }

    /// Decodes and checks a stored state against the board it is for (its own spec, if it was
    /// shaped through the API; a deleted board's tombstone is only read); `source` names where it
    /// came from in the error (the database file and the board).
    static func decode(_ bytes: [UInt8], for spec: BoardSpec, fps: Int, source: String) throws(StartupError) -> BoardState {
        let state = try decode(bytes, source: source)
        guard state.deleted != true else { return state }
        try check(state, for: spec, fps: fps, source: source)
        return state
    }

    /// Checks that `state` restores on `spec` (or its own), and returns the board restored.
    @discardableResult
    static func check(_ state: BoardState, for spec: BoardSpec, fps: Int, source: String) throws(StartupError) -> Animator {
        do {
            return try Animator(spec: spec, fps: fps, state: state)
        } catch {
            throw StartupError("\(source): key \(error.key) \(error.message)")
        }
    }

    /// What a stored state is for the board it is stored under.
    enum StoredBoard {
        /// The tombstone of a board deleted through the API.
        case deleted(BoardState)
        /// A board to serve: the state, checked, restored on its own spec (one shaped through the API) or the
        /// configured one.
        case served(BoardState, Animator)
        /// A state without a spec of its own, of a board not configured here.
        case unconfigured
    }

    /// Decodes a stored state of a board configured as `configured` (nil: not configured) and checks it against
    /// the spec it is served with; `source` names where it came from in the error.
    static func decode(_ bytes: [UInt8], configured: BoardSpec?, fps: Int, source: String) throws(StartupError)
        -> StoredBoard
    {
        let state = try decode(bytes, source: source)
        if state.deleted == true { return .deleted(state) }
        guard let spec = state.spec ?? configured else { return .unconfigured }
        return .served(state, try check(state, for: spec, fps: fps, source: source))
    }

    /// Decodes a stored state without checking it against a board.
    static func decode(_ bytes: [UInt8], source: String) throws(StartupError) -> BoardState {
        let state: BoardState
        do {
            state = try JSONDecoder().decode(BoardState.self, from: Data(bytes))
        } catch let error as APIError {
            // A ring definition the one codec refuses (`RingSpec+Codable`), named by its path in the state.
            throw StartupError(
                "\(source): the stored state is not readable: key \(error.field ?? "spec") \(error.message); restore a backup or delete the board's row"
            )
        } catch {
            throw StartupError(
                "\(source): the stored state is not readable (\(error)); restore a backup or delete the board's row")
        }
        return state
    }
}
