import Foundation

/// Decodes a request body into one of the API's request types, with every failure as an `APIError`.
public enum RequestDecoder {
    /// Errors the request types throw pass through unchanged; Foundation's `DecodingError`s become 400
    /// `malformed` with the coding path as `field`.
    public static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws(APIError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let error as APIError {
            throw error
        } catch let error as DecodingError {
            throw apiError(for: error)
        } catch {
            throw .malformed("the request body could not be read: \(error)")
        }
    }

    /// Foundation's errors in the API's words: never its own text, which names Swift types.
    private static func apiError(for error: DecodingError) -> APIError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .malformed("the request body is not valid JSON")
        case .dataCorrupted(let context):
            let field = RequestField.path(context.codingPath)
            return .malformed("\(field ?? "the value") is not valid here", field: field)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = RequestField.path(context.codingPath)
            return .malformed("\(field ?? "the request body") must be \(describe(type))", field: field)
        case .keyNotFound(let key, let context):
            return .malformed(
                "missing key \"\(key.stringValue)\"",
                field: RequestField.path(context.codingPath + [key])
            )
        @unknown default:
            return .malformed("the request body could not be decoded")
        }
    }

    /// A Swift type as the JSON a client should send instead.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type, is Int.Type, is Int64.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        default: String(describing: type).hasPrefix("Array<") ? "an array" : "an object"
        }
    }
}
