/// One splash layer in a frame (seed 002): a new background colour growing over the ones below it. The page
/// fills `shape` with `color`, layers in order, over `background.color`.
public struct SplashLayer: Sendable, Equatable, Encodable {
    /// `leftToRight`, `rightToLeft`, `topToBottom`, `bottomToTop`, `circle` or `angle`.
    public var style: String
    /// For `angle`: the direction in degrees, 0..<360; absent for the other styles.
    public var angle: Double?
    public var color: RGBAColor
    /// How far the layer has grown: 0 → nothing, 1 → the whole board (a spring may pass 1).
    public var progress: Double
    public var shape: SplashShape

    public init(style: String, angle: Double?, color: RGBAColor, progress: Double, shape: SplashShape) {
        self.style = style
        self.angle = angle
        self.color = color
        self.progress = progress
        self.shape = shape
    }
}
