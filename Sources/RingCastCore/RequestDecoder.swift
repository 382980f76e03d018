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

    private static func apiError(for error: DecodingError) -> APIError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .malformed("the request body is not valid JSON")
        case .dataCorrupted(let context):
            return .malformed(context.debugDescription, field: RequestField.path(context.codingPath))
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return .malformed(context.debugDescription, field: RequestField.path(context.codingPath))
        case .keyNotFound(let key, let context):
            return .malformed(
                "missing key \"\(key.stringValue)\"",
                field: RequestField.path(context.codingPath + [key])
            )
        @unknown default:
            return .malformed("the request body could not be decoded")
        }
    }
}
