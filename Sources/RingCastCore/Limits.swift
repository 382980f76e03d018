/// The ranges the API accepts (DESIGN §3, §6), checked both when a request is decoded and when a patch built
/// in code is applied to a board, so neither path can put a value into a board that the other would refuse.
public enum Limits {
    /// Progress may exceed one turn (the ring overlaps itself), up to ten.
    public static let progress: ClosedRange<Double> = 0...10
    /// Animation durations are in (0, 60] seconds.
    public static let maximumDuration: Double = 60

    /// 422 `out_of_range` unless `progress` is finite and in 0...10.
    static func check(progress: Double, field: String?) throws(APIError) {
        guard progress.isFinite, Self.progress.contains(progress) else {
            throw .unprocessable(
                "progress must be a number from 0 to 10 (1 is one full turn), got \(RequestField.describe(progress))",
                field: field
            )
        }
    }

    /// 422 `out_of_range` unless `duration` is finite and in (0, 60].
    static func check(duration: Double, field: String?) throws(APIError) {
        guard duration.isFinite, duration > 0, duration <= maximumDuration else {
            let (limit, got) = (RequestField.describe(maximumDuration), RequestField.describe(duration))
            throw .unprocessable("duration must be more than 0 and at most \(limit) seconds, got \(got)", field: field)
        }
    }

    /// 422 `invalid_value` unless there are exactly two colours.
    static func check(colors: [RGBAColor], field: String?) throws(APIError) {
        guard colors.count == 2 else {
            throw .invalidValue(
                "colors must hold exactly two colours (gradient start and end), got \(colors.count)",
                field: field
            )
        }
    }

    /// 422 `out_of_range` when a timing animation's duration is outside (0, 60].
    static func check(animation: Animation, field: String?) throws(APIError) {
        switch animation {
        case .none:
            return
        case .timing(_, let duration):
            try check(duration: duration, field: RequestField.path(field, "duration"))
        }
    }
}
