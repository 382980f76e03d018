import RingCastCore

/// The one reading of a boolean query flag (`?badge=1`): `1` or `true` is on, `0` or `false` is off, absent is nil;
/// any other value is 400 naming the flag. Every flag the server reads goes through here, so that no route takes a
/// spelling another refuses (docs/openapi.yaml, "Boolean query flags").
enum QueryFlag {
    /// What the query says of the flag `name`; nil when it does not give it.
    static func value(of name: String, in query: [String: String]) throws(APIError) -> Bool? {
        switch query[name] {
        case nil: nil
        case "1", "true": true
        case "0", "false": false
        case let other?:
            throw .malformed("\(name) must be 1, true, 0 or false, got \"\(other)\"", field: name)
        }
    }
}
