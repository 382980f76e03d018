import RingCastTransport

/// What each connected viewer watches and the read credential it was admitted with, so that its scope follows changes:
/// when a playlist is redefined, or the tokens reloaded, a viewer whose token no longer reads every board it would be
/// shown is closed — 4403 with the token and the board it may not read, 4401 when its credential is no longer valid
/// (or it had none and reads are now closed) — before anything of such a board is sent to it (docs/PROTOCOL.md,
/// "Close codes"). Closing, not skipping: a wall screen that silently stopped showing part of its playlist would look
/// like a fault; a close the page shows says what to fix.
///
/// Touched only on the service thread.
final class ViewerScopes {
    /// What a viewer watches.
    enum Watching: Equatable {
        case board(String)
        case playlist(String)
    }

    /// One admitted viewer.
    struct Admitted: Equatable {
        let watching: Watching
        /// `TokenPolicy.readCredential` of its upgrade: the SHA-256 of the secret it presented, nil for none.
        let credential: String?
    }

    /// Why a viewer is closed: its close code and reason.
    struct Closing: Equatable {
        let code: Int
        let reason: String
    }

    private(set) var viewers: [ViewerID: Admitted] = [:]
    /// The tokens viewers are checked against: the running configuration's.
    private(set) var tokens: TokenPolicy
    private let close: (ViewerID, Closing) -> Void

    /// `close` closes one viewer (the event loop's `close`).
    init(tokens: TokenPolicy, close: @escaping (ViewerID, Closing) -> Void) {
        self.tokens = tokens
        self.close = close
    }

    /// The viewer `id` was admitted to watch `watching`, presenting `credential`.
    func admitted(_ id: ViewerID, watching: Watching, credential: String?) {
        viewers[id] = Admitted(watching: watching, credential: credential)
    }

    /// The viewer's connection ended.
    func left(_ id: ViewerID) {
        viewers[id] = nil
    }

    /// The playlist `name` now shows `boards`: its viewers whose token does not read each of them are closed.
    func playlistChanged(_ name: String, boards: [String]) {
        closeRefused { $0.watching == .playlist(name) ? .boards(boards, playlist: name) : nil }
    }

    /// The tokens are `tokens` from now on (a reload): every viewer whose token no longer reads what it watches is
    /// closed. `boardsOf` gives a playlist's boards (nil for one that is gone; its viewers are closed elsewhere).
    func tokensChanged(to tokens: TokenPolicy, boardsOf: (String) -> [String]?) {
        self.tokens = tokens
        closeRefused { admitted in
            switch admitted.watching {
            case .board(let board): .board(board)
            case .playlist(let name): boardsOf(name).map { .boards($0, playlist: name) }
            }
        }
    }

    /// Closes (and forgets) the viewers `resource` gives a resource for that their credential may not read.
    private func closeRefused(_ resource: (Admitted) -> TokenPolicy.Resource?) {
        let refused = viewers.compactMap { id, admitted in
            resource(admitted).flatMap { Self.closing(admitted.credential, reading: $0, tokens: tokens) }.map { (id, $0) }
        }
        for (id, closing) in refused.sorted(by: { $0.0.rawValue < $1.0.rawValue }) {
            viewers[id] = nil
            close(id, closing)
        }
    }

    /// Why a viewer presenting `credential` may not read `resource` under `tokens`, or nil when it may.
    static func closing(_ credential: String?, reading resource: TokenPolicy.Resource, tokens: TokenPolicy) -> Closing? {
        do throws(TokenPolicy.Refusal) {
            try tokens.checkRead(resource, credential: credential)
            return nil
        } catch {
            guard error.error.status == 403, let token = tokens.tokens.first(where: { $0.name == error.token }) else {
                return Closing(
                    code: 4401,
                    reason: credential == nil ? "a read token is needed now" : "the viewer's token is no longer valid")
            }
            let boards: [String]
            switch resource {
            case .board(let board): boards = [board]
            case .boards(let all, _): boards = all
            case .server: boards = []
            }
            let board = boards.first { !token.covers(board: $0) } ?? boards.first ?? ""
            return Closing(code: 4403, reason: "token \(token.name) may not read board \(board)")
        }
    }
}

@available(*, unavailable)
extension ViewerScopes: Sendable {}
