/// The board's background in one frame: its colour and the splash layers growing over it.
public struct BackgroundFrame: Sendable, Equatable, Encodable {
    /// A splash layer (seed 002). None exist yet: the type has no values, so `splash` is always `[]`
    /// until the background issue gives it cases.
    public enum Splash: Sendable, Equatable, Encodable {
        public func encode(to encoder: any Encoder) throws {
            switch self {}
        }
    }

    public var color: RGBAColor
    public var splash: [Splash]

    public init(color: RGBAColor, splash: [Splash] = []) {
        self.color = color
        self.splash = splash
    }
}
