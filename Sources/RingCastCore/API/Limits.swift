/// The ranges the API accepts (DESIGN §3, §6), checked both when a request is decoded and when a patch built
/// in code is applied to a board, so neither path can put a value into a board that the other would refuse.
public enum Limits {
    /// Progress may exceed one turn (the ring overlaps itself), up to ten.
    public static let progress: ClosedRange<Double> = 0...10
    /// Animation durations, spring responses and splash durations are in (0, 60] seconds.
    public static let maximumDuration: Double = 60
    /// A spring's dampingFraction, when given as such, is in (0, 10].
    public static let maximumDampingFraction: Double = 10
    /// A countdown runs for (0, 86400] seconds: up to a day.
    public static let maximumCountdownSeconds: Double = 86400
    /// Splash layers a board holds at once; a flood of background changes merges the oldest into the base.
    public static let maximumSplashLayers = 32
    /// The most rings a board may be configured to hold (`limits.maxRingsPerBoard`): the binary format counts
    /// them in a byte.
    public static let maximumRingsPerBoard = 255

    /// 422 `out_of_range` unless `progress` is finite and in 0...10.
    static func check(progress: Double, field: String?) throws(APIError) {
        guard progress.isFinite, Self.progress.contains(progress) else {
            throw .unprocessable(
                "progress must be a number from 0 to 10 (1 is one full turn), got \(RequestField.describe(progress))",
                field: field
            )
        }
    }

    /// 422 `out_of_range` unless `duration` (or whatever `name` says: a spring's `response`) is finite and in
    /// (0, 60] seconds.
    static func check(duration: Double, named name: String = "duration", field: String?) throws(APIError) {
        guard duration.isFinite, duration > 0, duration <= maximumDuration else {
            let (limit, got) = (RequestField.describe(maximumDuration), RequestField.describe(duration))
            throw .unprocessable("\(name) must be more than 0 and at most \(limit) seconds, got \(got)", field: field)
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

    /// 422 `out_of_range` when a timing animation's duration is outside (0, 60], or a spring's response is, or
    /// its dampingFraction is not positive and finite. (Decoding is stricter about ζ where it is given as
    /// `dampingFraction`, (0, 10]; a `bounce` near −1 stands for a larger ζ, which is fine to run.)
    static func check(animation: Animation, field: String?) throws(APIError) {
        switch animation {
        case .none:
            return
        case .timing(_, let duration):
            try check(duration: duration, field: RequestField.path(field, "duration"))
        case .spring(let spring):
            let springField = RequestField.path(field, "spring")
            try check(duration: spring.response, named: "response", field: RequestField.path(springField, "response"))
            guard spring.dampingFraction.isFinite, spring.dampingFraction > 0 else {
                throw .unprocessable(
                    "dampingFraction must be more than 0, got \(RequestField.describe(spring.dampingFraction))",
                    field: RequestField.path(springField, "dampingFraction")
                )
            }
        }
    }

    /// 422 `out_of_range` unless `dampingFraction` is finite and in (0, 10].
    static func check(dampingFraction: Double, field: String?) throws(APIError) {
        guard dampingFraction.isFinite, dampingFraction > 0, dampingFraction <= maximumDampingFraction else {
            throw .unprocessable(
                "dampingFraction must be more than 0 and at most \(RequestField.describe(maximumDampingFraction)) "
                    + "(1 is critically damped), got \(RequestField.describe(dampingFraction))",
                field: field
            )
        }
    }

    /// 422 `out_of_range` unless `bounce` is finite and in (−1, 1).
    static func check(bounce: Double, field: String?) throws(APIError) {
        guard bounce.isFinite, bounce > -1, bounce < 1 else {
            throw .unprocessable(
                "bounce must be more than -1 and less than 1 (0 is critically damped), got \(RequestField.describe(bounce))",
                field: field
            )
        }
    }

    /// 422 `out_of_range` unless a countdown's `seconds` is finite and in (0, 86400].
    static func check(countdownSeconds seconds: Double, field: String?) throws(APIError) {
        guard seconds.isFinite, seconds > 0, seconds <= maximumCountdownSeconds else {
            let (limit, got) = (RequestField.describe(maximumCountdownSeconds), RequestField.describe(seconds))
            throw .unprocessable("seconds must be more than 0 and at most \(limit) (a day), got \(got)", field: field)
        }
    }
}
