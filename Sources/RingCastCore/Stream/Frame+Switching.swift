extension Frame {
    /// This frame of a board a playlist switched to, while the switch's splash grows (DESIGN §13): the previous
    /// board's background `previous` underneath, this board's own background growing over it in `style` to
    /// `progress`, then this board's own splash layers, if any. Rings and widgets are this frame's; the page draws
    /// it as any frame. `spec` is the board's: the splash sweeps each of its arrangements' canvases.
    public func switching(from previous: RGBAColor, style: SplashStyle, progress: Double, spec: BoardSpec) -> Frame {
        let canvases = [(spec.width, spec.height)] + spec.alternates.map { ($0.width, $0.height) }
        let layer = FrameComposer.splashLayer(
            style: style, color: background.color, progress: progress, canvases: canvases)
        var frame = self
        frame.background = BackgroundFrame(color: previous, text: background.text, splash: [layer] + background.splash)
        return frame
    }
}
