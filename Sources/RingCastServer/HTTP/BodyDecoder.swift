import Foundation
import RingCastCore
import RingCastTransport

/// The one way a request body becomes a request type: the media type (415), then the strict JSON
/// reader (`StrictJSON`, the config file's too: UTF-8 without a byte order mark, no key twice, no
/// trailing comma, nesting), then the type's own `init(from:)` through `RequestDecoder`, which
/// reports unknown keys as 400 `unknown_field` and wrong types as 400 `malformed`, both naming the
/// field in the API's words.
enum BodyDecoder {
    /// Deeper than any RingCast request needs.
    static let maximumDepth = 32

    static func decode<Body: Decodable>(_ type: Body.Type, from request: HTTPRequest) throws(APIError) -> Body {
        if let contentType = request.headers["content-type"], !isJSON(contentType) {
            throw APIError(
                status: 415,
                code: "unsupported_media_type",
                message: "expected a JSON body (Content-Type: application/json), got \(contentType)",
                field: "Content-Type"
            )
        }
        // A write without data (`NoBody`) may leave the body out.
        let body = request.body.isEmpty && type == NoBody.self ? Array("{}".utf8) : request.body
        guard !body.isEmpty else {
            throw APIError.malformed("the request body is empty; expected a JSON object")
        }
        if let problem = StrictJSON.firstProblem(in: body, maximumDepth: maximumDepth) {
            throw APIError.malformed(
                "the request body is not JSON as this API reads it: \(problem.message) (line \(problem.line), column \(problem.column))",
                field: problem.path)
        }
        return try RequestDecoder.decode(type, from: body)
    }

    /// JSON media types, plus curl's default for `-d` (form-urlencoded), so the README's
    /// `curl -X PATCH … -d '{…}'` works as written; the body must still be JSON. A browser form
    /// from another site cannot use this: its Origin is refused first (`OriginPolicy`).
    static func isJSON(_ contentType: String) -> Bool {
        let media =
            contentType.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return media == "application/json" || media == "text/json" || media.hasSuffix("+json")
            || media == "application/x-www-form-urlencoded"
    }
}
