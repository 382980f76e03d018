extension SVGRenderer {
    /// The floor of `TextFit`'s shrinking in an SVG, in logical units: 14 pixels at 1×, the page's 14 CSS pixels.
    static let minimumTextSize = 14.0

    /// A title or label fitted to its spot's width by `TextFit`'s rule, widths estimated at 0.6 em a character
    /// (`estimatedWidth`): shrunk, on two lines or cut with "…" as the rule says, and narrowed sideways (by at most
    /// 10 %) where the estimate is still wider than the spot. A spot without a width is drawn as it is.
    static func fittedText(
        _ string: String, at spot: TextSpec, weight: Int, color: RGBAColor, baseline: String = "central",
        role: String? = nil
    ) -> String {
        guard let width = spot.width else {
            return SVGCanvas.text(string, at: spot, weight: weight, color: color, baseline: baseline, role: role)
        }
        let fit = TextFit.fit(string, in: spot, minimum: minimumTextSize) { estimatedWidth($0, size: spot.size) }
        let widest = fit.lines.map { estimatedWidth($0, size: fit.size) }.max() ?? 0
        var fitted = spot
        fitted.size = fit.size
        return SVGCanvas.text(
            string, at: fitted, weight: weight, color: color, baseline: baseline, role: role, lines: fit.lines,
            narrowing: (widest > width ? width / widest : 1, 1))
    }

    /// How a counter's or wave text's row of `estimated` width is narrowed to its spot, as web/draw.js's `narrow`
    /// does: sideways down to `TextFit.squeeze`, then uniformly as well.
    static func narrowing(_ estimated: Double, into spot: TextSpec) -> (x: Double, y: Double) {
        guard let width = spot.width, estimated > width, estimated > 0 else { return (1, 1) }
        let fit = width / estimated
        return (fit, min(1, fit / TextFit.squeeze))
    }
}
