/// The board's background in one frame: its colour, the text colour for it and the splash layers growing
/// over it, bottom first.
public struct BackgroundFrame: Sendable, Equatable, Encodable {
    /// The colour under every layer: the newest colour whose splash has finished.
    public var color: RGBAColor
    /// The server-picked text colour for `color` (at least 4.5:1, `RGBAColor.text(on:)`): what automatic
    /// titles and the page's header use.
    public var text: RGBAColor
    public var splash: [SplashLayer]

    public init(color: RGBAColor, text: RGBAColor? = nil, splash: [SplashLayer] = []) {
        self.color = color
        self.text = text ?? RGBAColor.text(on: color)
        self.splash = splash
    }
}
