/// The ranges RingCast accepts (DESIGN §3, §6): one definition for every boundary a value crosses. A request is
/// checked against them as it is decoded, a patch built in code as it is applied, the CLI's flags before they
/// are sent, and a board's stored state as it is loaded; `Animator.accept` then loads the state a change makes
/// before it is accepted, so whatever is accepted is stored and loads again (issue 20).
public enum Limits {
    /// Progress may exceed one turn (the ring overlaps itself), up to ten.
    public static let progress: ClosedRange<Double> = 0...10
    /// Animation durations, spring responses and durations, splash durations: a millisecond (shorter than any
    /// frame, so in effect a jump) to a minute.
    public static let durations: ClosedRange<Double> = 0.001...60
    /// A spring's dampingFraction ζ: 1 is critically damped; near 0 it oscillates for ages, beyond 10 it
    /// creeps for ages.
    public static let dampingFractions: ClosedRange<Double> = 0.001...10
    /// iOS 17's bounce b, the same springs as `dampingFractions`: ζ = 1 − b for b ≥ 0, 1 / (1 + b) below.
    public static let bounces: ClosedRange<Double> = -0.9...0.999
    /// An animation's `"repeat"`: how many passes (1 is the animation played once), besides `"forever"`. A
    /// thousand passes of the longest animation are 16 hours; longer is what `forever` is for.
    public static let repeatCounts: ClosedRange<Int> = 1...1000
    /// A countdown runs for a millisecond to a day.
    public static let countdownSeconds: ClosedRange<Double> = 0.001...86400
    /// A ring's `max` (what `value` counts up to).
    public static let ringMaximums: ClosedRange<Double> = 0.000001...1e9
    /// A splash's `{"angle":deg}`: any direction, turned a million degrees at most (what a stored state holds).
    public static let angles: ClosedRange<Double> = -1e6...1e6
    /// Splash layers a board holds at once; a flood of background changes merges the oldest into the base.
    public static let maximumSplashLayers = 32
    /// The most rings a board may be configured to hold (`limits.maxRingsPerBoard`): the binary format counts
    /// them in a byte.
    public static let maximumRingsPerBoard = 255

    /// A counter's number: within ±10¹², so that with its decimals every digit is exact in a double.
    public static let counterValues: ClosedRange<Double> = -1e12...1e12
    /// A counter's decimal columns.
    public static let counterDecimals: ClosedRange<Int> = 0...3
    /// A counter's fixed number of integer columns.
    public static let counterDigits: ClosedRange<Int> = 1...13
    /// A counter's grouping separator and unit, in characters.
    public static let counterSeparatorLength = 2
    public static let counterUnitLength = 16
    /// Colours of a gradient widget; a ring has exactly 2.
    public static let gradientColors: ClosedRange<Int> = 2...8
    /// Thresholds a ring's colours may be picked from (`Thresholds`).
    public static let thresholds: ClosedRange<Int> = 1...8
    /// A wave text's wave, in characters.
    public static let waveWidths: ClosedRange<Double> = 1...64

    /// 422 `out_of_range` unless `value` is finite and in `range`: "NAME must be a number from A to B UNIT, got
    /// V". `name` is the key (or the CLI's flag) as the client wrote it.
    public static func check(
        _ value: Double, in range: ClosedRange<Double>, named name: String, unit: String = "", field: String?
    ) throws(APIError) {
        guard value.isFinite, range.contains(value) else {
            let (low, high) = (RequestField.describe(range.lowerBound), RequestField.describe(range.upperBound))
            throw .unprocessable(
                "\(name) must be a number from \(low) to \(high)\(unit.isEmpty ? "" : " " + unit), got \(RequestField.describe(value))",
                field: field)
        }
    }

    /// 422 `out_of_range` unless `progress` is in `progress` (1 is one full turn).
    public static func check(progress: Double, field: String?) throws(APIError) {
        try check(progress, in: Self.progress, named: "progress", unit: "(1 is one full turn)", field: field)
    }

    /// 422 `out_of_range` unless `duration` (or whatever `name` says: a spring's `response`) is in `durations`.
    public static func check(duration: Double, named name: String = "duration", field: String?) throws(APIError) {
        try check(duration, in: durations, named: name, unit: "seconds", field: field)
    }

    /// 422 `invalid_value` unless there are exactly two colours (a ring's gradient start and end), or
    /// `count` colours (a gradient widget's, which keeps the number it was made with).
    static func check(colors: [RGBAColor], count: Int = 2, field: String?) throws(APIError) {
        guard colors.count == count else {
            throw .invalidValue(
                count == 2
                    ? "colors must hold exactly two colours (gradient start and end), got \(colors.count)"
                    : "colors must hold exactly \(count) colours, as this gradient has, got \(colors.count)",
                field: field
            )
        }
    }

    /// 422 `invalid_value` unless a new gradient widget's colours number from 2 to 8.
    static func check(gradientColors colors: [RGBAColor], field: String?) throws(APIError) {
        guard gradientColors.contains(colors.count) else {
            throw .invalidValue(
                "a gradient holds 2 to 8 colours, got \(colors.count)", field: field)
        }
    }

    /// 422 `out_of_range` unless a counter's number is in `counterValues`.
    public static func check(counterValue value: Double, field: String?) throws(APIError) {
        try check(value, in: counterValues, named: "value", unit: "(a counter's number)", field: field)
    }

    /// 422 `out_of_range` unless a wave is 1 to 64 characters wide.
    static func check(waveWidth width: Double, field: String?) throws(APIError) {
        try check(width, in: waveWidths, named: "width", unit: "characters", field: field)
    }

    /// 422 `out_of_range` when a timing animation's duration, or a spring's response or dampingFraction, or a
    /// repetition's count is outside its range, 422 `invalid_value` for a repetition of `.none` or of a
    /// repetition: for an animation built in code, which no decoder checked.
    static func check(animation: Animation, field: String?) throws(APIError) {
        switch animation {
        case .none:
            return
        case .repeating(let pass, let repetition):
            let repeatField = RequestField.path(field, "repeat")
            if let passes = repetition.passes {
                try check(repeatCount: passes, field: repeatField)
            }
            switch pass {
            case .timing, .spring: try check(animation: pass, field: field)
            case .none, .repeating:
                throw .invalidValue("only a curve or a spring can repeat", field: repeatField)
            }
        case .timing(_, let duration):
            try check(duration: duration, field: RequestField.path(field, "duration"))
        case .spring(let spring):
            let springField = RequestField.path(field, "spring")
            try check(duration: spring.response, named: "response", field: RequestField.path(springField, "response"))
            // A bounce of −0.9 is a ζ of 10 give or take a rounding.
            try check(
                spring.dampingFraction, in: dampingFractions.lowerBound...dampingFractions.upperBound.nextUp,
                named: "dampingFraction", field: RequestField.path(springField, "dampingFraction"))
        }
    }

    /// 422 `out_of_range` unless `count` is in `repeatCounts`.
    public static func check(repeatCount count: Int, field: String?) throws(APIError) {
        guard repeatCounts.contains(count) else {
            throw .unprocessable(
                "repeat must be a whole number from \(repeatCounts.lowerBound) to \(repeatCounts.upperBound) or \"forever\", got \(count)",
                field: field)
        }
    }

    /// 422 `out_of_range` unless `dampingFraction` is in `dampingFractions`.
    public static func check(dampingFraction: Double, field: String?) throws(APIError) {
        try check(dampingFraction, in: dampingFractions, named: "dampingFraction", unit: "(1 is critically damped)", field: field)
    }

    /// 422 `out_of_range` unless `bounce` is in `bounces`.
    public static func check(bounce: Double, field: String?) throws(APIError) {
        try check(bounce, in: bounces, named: "bounce", unit: "(0 is critically damped)", field: field)
    }

    /// 422 `out_of_range` unless a countdown's `seconds` is in `countdownSeconds`.
    public static func check(countdownSeconds seconds: Double, field: String?) throws(APIError) {
        try check(seconds, in: countdownSeconds, named: "seconds", unit: "(a day at most)", field: field)
    }
}
