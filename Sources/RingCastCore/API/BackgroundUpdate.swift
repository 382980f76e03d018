/// The body of `PUT /api/v1/boards/{board}/background`:
/// `{"color":"#2ecc71","transition":"circle","duration":0.5,"animation":A}`, every key but `color` optional.
///
/// The new colour grows over the old one as a splash layer (seed 002): `transition` defaults to
/// `leftToRight`; the layer grows with easeInOut over `duration` seconds (default 0.5, in (0, 60]) unless
/// `animation` says otherwise. A timing `animation` gives the curve, and its own duration unless `duration`
/// is given too; a spring animation grows the layer as a spring; `"none"` replaces the background at once.
/// `duration` beside a spring or `"none"` is refused (422 `invalid_value`), as it could not mean anything.
public struct BackgroundUpdate: Sendable, Equatable {
    /// The seed's `.easeInOut(duration: 0.5)`.
    public static let defaultDuration = 0.5

    public var color: RGBAColor
    public var transition: SplashStyle?
    public var duration: Double?
    public var animation: Animation?

    public init(color: RGBAColor, transition: SplashStyle? = nil, duration: Double? = nil, animation: Animation? = nil) {
        self.color = color
        self.transition = transition
        self.duration = duration
        self.animation = animation
    }

    /// The style the layer grows in: `transition`, else `leftToRight`.
    public var style: SplashStyle { transition ?? .leftToRight }

    /// How the layer's progress moves from 0 to 1: easeInOut over `duration` (default 0.5 s) without an
    /// `animation`; a timing `animation`'s curve over `duration` if given, else over its own; any other
    /// `animation` as it is. A repeating timing `animation` repeats passes of `duration` when given.
    public var layerAnimation: Animation {
        switch animation {
        case nil: .timing(.easeInOut, duration: duration ?? Self.defaultDuration)
        case .timing(let curve, let ownDuration)?: .timing(curve, duration: duration ?? ownDuration)
        case .repeating(.timing(let curve, let ownDuration), let repetition)?:
            .repeating(.timing(curve, duration: duration ?? ownDuration), repetition)
        case let other?: other
        }
    }

    /// Checks the update's numbers: 422 `out_of_range` for an angle that is not finite, a duration outside
    /// (0, 60] or an animation outside `Limits`, 422 `invalid_value` for `duration` beside a spring or `"none"`.
    public func validate() throws(APIError) {
        if case .angle(let degrees) = transition {
            try Limits.check(degrees, in: Limits.angles, named: "angle", unit: "degrees", field: "transition.angle")
        }
        if let duration {
            try Limits.check(duration: duration, field: "duration")
        }
        guard let animation else { return }
        try Limits.check(animation: animation, field: "animation")
        if case .timing = animation.pass { return }
        guard duration == nil else {
            throw .invalidValue(
                "duration times a curve; it cannot go with a spring or \"none\", which set their own timing",
                field: "duration"
            )
        }
    }
}

extension BackgroundUpdate: Decodable {
    /// Refuses unknown keys (400 `unknown_field`), a missing or non-string `color` (400 `malformed`), a string
    /// that is not a colour (422 `invalid_value`) and everything `validate()` refuses.
    public init(from decoder: any Decoder) throws {
        let object = try RequestField.object(
            decoder,
            allowing: ["color", "transition", "duration", "animation"],
            expected: "an object such as {\"color\":\"#2ecc71\",\"transition\":\"circle\",\"duration\":0.5}"
        )
        let colorKey = AnyCodingKey("color")
        guard object.contains(colorKey) else {
            throw APIError.malformed("missing key \"color\": the new background, e.g. \"#2ecc71\"", field: "color")
        }
        let color = try RequestField.color(field: "color") { try object.decode(String.self, forKey: colorKey) }
        let transitionKey = AnyCodingKey("transition")
        let transition = object.contains(transitionKey) ? try object.decode(SplashStyle.self, forKey: transitionKey) : nil
        let durationKey = AnyCodingKey("duration")
        var duration: Double?
        if object.contains(durationKey) {
            duration = try RequestField.number(field: "duration", named: "duration") {
                try object.decode(Double.self, forKey: durationKey)
            }
        }
        self.init(color: color, transition: transition, duration: duration, animation: try RequestField.animation(in: object))
        try validate()
    }
}
