/// How long a board or ring may go without a write before it shows stale (DESIGN §13): whole seconds, from one
/// second to a week. The API's decoders, the configuration, a stored spec and the CLI check it here.
extension Limits {
    public static let staleAfterSeconds: ClosedRange<Int> = 1...604_800

    /// What a `staleAfter` must be, for messages.
    static var staleAfterRange: String {
        "must be a whole number of seconds from \(staleAfterSeconds.lowerBound) to \(staleAfterSeconds.upperBound) (a week)"
    }

    /// 422 `out_of_range` unless `seconds` is in `staleAfterSeconds`.
    public static func check(staleAfter seconds: Int, field: String?) throws(APIError) {
        guard staleAfterSeconds.contains(seconds) else {
            throw .unprocessable("staleAfter \(staleAfterRange), got \(seconds)", field: field)
        }
    }
}
