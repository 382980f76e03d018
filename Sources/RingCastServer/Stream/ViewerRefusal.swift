import Foundation
import RingCastCore

/// Why a viewer may not watch: the API's error, and what helps the person who sees it.
///
/// As a WebSocket message (docs/PROTOCOL.md, `error`):
/// `{"type":"error","status":404,"code":"not_found","message":"…","field":"board","boards":["main"]}`;
/// `boards` (the boards there are) only for an unknown board, `retryAfter` (seconds) only for 503.
struct ViewerRefusal: Error, Encodable {
    let error: APIError
    /// The boards the viewer could watch instead, for an unknown board.
    var boards: [String]?
    /// Seconds to wait before trying again, when the refusal passes.
    var retryAfter: Int?

    init(_ error: APIError, boards: [String]? = nil, retryAfter: Int? = nil) {
        self.error = error
        self.boards = boards
        self.retryAfter = retryAfter
    }

    private enum CodingKeys: String, CodingKey {
        case type, status, code, message, field, boards, retryAfter
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("error", forKey: .type)
        try container.encode(error.status, forKey: .status)
        try container.encode(error.code, forKey: .code)
        try container.encode(error.message, forKey: .message)
        try container.encodeIfPresent(error.field, forKey: .field)
        try container.encodeIfPresent(boards, forKey: .boards)
        try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
    }

    /// The `error` message's bytes, UTF-8 JSON.
    var messageBody: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(self))) ?? error.jsonBody
    }
}

extension APIError {
    /// 500 `internal`: the board's layout or frame cannot be encoded (`EncodingFailure`), so a viewer cannot be
    /// greeted with it.
    static func unshowable(_ board: String, _ failure: EncodingFailure) -> APIError {
        APIError(status: 500, code: "internal", message: "board \(board) cannot be shown: \(failure)")
    }
}
