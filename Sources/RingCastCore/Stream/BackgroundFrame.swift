/// The board's background in one frame: its colour and the splash layers growing over it, bottom first.
public struct BackgroundFrame: Sendable, Equatable, Encodable {
    /// The colour under every layer: the newest colour whose splash has finished.
    public var color: RGBAColor
    public var splash: [SplashLayer]

    public init(color: RGBAColor, splash: [SplashLayer] = []) {
        self.color = color
        self.splash = splash
    }
}
