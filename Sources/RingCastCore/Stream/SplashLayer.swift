/// One splash layer in a frame (seed 002): a new background colour growing over the ones below it. The page
/// fills the shape of the arrangement it draws with `color`, layers in order, over `background.color`.
public struct SplashLayer: Sendable, Equatable, Encodable {
    /// `leftToRight`, `rightToLeft`, `topToBottom`, `bottomToTop`, `circle` or `angle`.
    public var style: String
    /// For `angle`: the direction in degrees, 0..<360; absent for the other styles.
    public var angle: Double?
    public var color: RGBAColor
    /// How far the layer has grown: 0 → nothing, 1 → the whole board (a spring may pass 1).
    public var progress: Double
    /// One per arrangement of the layout, in its order: a shape depends on the canvas it sweeps (its
    /// reach), and each arrangement has a canvas of its own.
    public var shapes: [SplashShape]

    public init(style: String, angle: Double?, color: RGBAColor, progress: Double, shapes: [SplashShape]) {
        self.style = style
        self.angle = angle
        self.color = color
        self.progress = progress
        self.shapes = shapes
    }
}
