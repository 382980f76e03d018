import Foundation

/// Turns board state into the numbers the page draws: arc angles, conic gradient stops, cap and tip discs,
/// the tip's shadow, the label and the background's splash layers (DESIGN §5). All geometry lives here or in
/// `SplashShape`, none in the page. Every title, label and text a layout or frame carries is cut here, once, to
/// whole characters within `Limits.maximumTextBytes` (`Limits.fitting`), so JSON, binary and SVG show one string.
public enum FrameComposer {
    /// 12 o'clock, where every ring starts (the seeds' `startAngle = -90°`).
    static let startAngle = -Double.pi / 2

    /// Progress above which the tip is drawn again with its shadow (seed 000's `RingTip`).
    static let tipThreshold = 0.96

    /// One ring at displayed progress `progress` (nil: never received data) with gradient `colors`
    /// (start, end); `label` defaults to the progress as a percentage.
    public static func ring(
        _ spec: RingSpec,
        progress: Double?,
        colors: [RGBAColor],
        labelColor: RGBAColor,
        label: String? = nil
    ) -> RingFrame {
        let start = colors.first ?? spec.colors.first ?? RGBAColor(red: 0, green: 0, blue: 0)
        let end = colors.count > 1 ? colors[1] : start
        // Geometry of a ring without data is that of p = 0, with nothing but the track showing.
        let p = progress ?? 0
        let a0 = startAngle
        // The seeds' RingShape: end angle = 360°·p + startAngle.
        let a1 = a0 + 2 * Double.pi * p
        let cap = capPosition(radius: spec.r)
        let tip = tipPosition(spec, progress: p)
        let ahead = tipPosition(spec, progress: p + 0.01)
        return RingFrame(
            id: spec.id,
            p: progress,
            a0: a0,
            a1: a1,
            gradient: gradient(progress: p, start: start, end: end),
            cap: RingFrame.Cap(x: cap.x, y: cap.y, color: start, visible: p > 0 && p <= 1),
            tip: RingFrame.Tip(
                x: tip.x,
                y: tip.y,
                color: end,
                visible: p > tipThreshold,
                // Seed 000's ringTipShadowOffset: tip(p + 0.01) − tip(p), a chord along the direction of travel;
                // black at opacity 0.15, radius 2.
                shadow: RingFrame.Shadow(dx: ahead.x - tip.x, dy: ahead.y - tip.y, blur: 2, alpha: 0.15)
            ),
            label: Limits.fitting(label ?? PercentLabel.string(for: progress)),
            labelColor: labelColor
        )
    }

    /// The whole board at monotonic `time`; `wallClockMilliseconds` is the frame's `t`.
    public static func frame(of board: Board, at time: Double, seq: UInt64, wallClockMilliseconds: Double) -> Frame {
        // Once per frame: the background, and the text colour automatic titles and labels take on it.
        let background = board.backgroundPresentation(at: time)
        let text = RGBAColor.text(on: background.color)
        let rings = board.spec.rings.map { spec in
            spec.kind.isRing
                ? ring(
                    spec,
                    progress: board.progress(ofRing: spec.id, at: time),
                    colors: board.colors(ofRing: spec.id, at: time),
                    labelColor: board.labelColor(ofRing: spec.id, at: time, automatic: text),
                    // Percent labels follow from the progress above; countdowns and other formats need the board.
                    label: spec.kind.tag == .countdown || spec.label != .percent ? board.label(ofRing: spec.id, at: time) : nil
                ) : widget(spec, of: board, at: time, automatic: text)
        }
        // A splash sweeps the canvas it is drawn on, so each layer has one shape per arrangement.
        let canvases = [(board.spec.width, board.spec.height)] + board.spec.alternates.map { ($0.width, $0.height) }
        return Frame(
            board: board.spec.name,
            seq: seq,
            t: wallClockMilliseconds,
            rings: rings,
            background: BackgroundFrame(
                color: background.color,
                text: text,
                splash: background.layers.map { layer in
                    splashLayer(style: layer.style, color: layer.color, progress: layer.progress, canvases: canvases)
                }
            )
        )
    }

    /// One splash layer of `color` grown to `progress` in `style`, with one shape per canvas
    /// (`width` × `height` of each arrangement, in the layout's order).
    public static func splashLayer(
        style: SplashStyle,
        color: RGBAColor,
        progress: Double,
        canvases: [(width: Double, height: Double)]
    ) -> SplashLayer {
        var angle: Double?
        if case .angle(let degrees) = style { angle = SplashShape.normalized(degrees) }
        return SplashLayer(
            style: style.name,
            angle: angle,
            color: color,
            progress: progress,
            shapes: canvases.map { SplashShape(style: style, progress: progress, width: $0.width, height: $0.height) }
        )
    }

    /// The layout of a board: its rings, and every arrangement of them (`BoardSpec.arrangements`).
    public static func layout(of spec: BoardSpec) -> Layout {
        Layout(
            board: spec.name,
            title: Limits.fitting(spec.title),
            background: spec.background,
            rings: spec.rings.map { ring in
                Layout.Ring(
                    id: ring.id,
                    title: Limits.fitting(ring.title),
                    kind: ring.kind.name,
                    r: ring.r,
                    thickness: ring.thickness,
                    track: ring.track,
                    titleColor: ring.titleColor,
                    widget: WidgetLayout.of(ring),
                    style: ring.kind.tag == .countdown && ring.countdownOptions.style == .seed
                        ? CountdownOptions.Style.seed.rawValue : nil
                )
            },
            arrangements: spec.arrangements.map { arrangement in
                Layout.Arrangement(
                    name: arrangement.name,
                    width: arrangement.width,
                    height: arrangement.height,
                    // In the layout's ring order, whatever order the arrangement lists them in; r and
                    // thickness are the ring's own in every arrangement.
                    rings: spec.rings.map { ring in
                        let placement = arrangement.placement(of: ring.id)
                        return Layout.Placement(
                            id: ring.id,
                            cx: placement?.cx ?? ring.cx,
                            cy: placement?.cy ?? ring.cy,
                            r: ring.r,
                            thickness: ring.thickness,
                            titleText: placement?.titleText ?? ring.titleText,
                            labelText: placement?.labelText ?? ring.labelText
                        )
                    }
                )
            }
        )
    }

    /// Centre of the start cap relative to the ring's: 12 o'clock, exactly (0, −r) — written out rather
    /// than computed, since cos(−π/2) in floating point is 6e-17, not 0. The binary layout carries it.
    public static func capPosition(radius r: Double) -> (x: Double, y: Double) {
        (0, -r)
    }

    /// Centre of the end cap at progress p relative to the ring's centre (seed 000's `ringTipPosition`).
    public static func tipPosition(_ spec: RingSpec, progress p: Double) -> (x: Double, y: Double) {
        point(on: spec, at: startAngle + 2 * Double.pi * p)
    }

    /// The conic gradient for progress p (DESIGN §5, contract "gradient").
    static func gradient(progress p: Double, start: RGBAColor, end: RGBAColor) -> ConicGradient {
        guard p > 1 else {
            // SwiftUI's AngularGradient from the start angle to the end angle: start → end along the arc; the
            // undrawn gap shows the end colour for its first half and the start colour for its second.
            // Offsets must stay in 0...1 for canvas, so a negative p (a spring's overshoot) draws as 0.
            let p = max(p, 0)
            let middle = p + (1 - p) / 2
            return ConicGradient(
                start: startAngle,
                stops: [
                    .init(offset: 0, color: start),
                    .init(offset: p, color: end),
                    .init(offset: middle, color: end),
                    .init(offset: middle, color: start),
                    .init(offset: 1, color: start),
                ]
            )
        }
        // Beyond one turn only the last turn shows, from angle a1 − 2π to a1, which is the gradient's span
        // from (p − 1)/p to 1; the conic starts at a1 so its seam sits under the tip.
        return ConicGradient(
            start: startAngle + 2 * Double.pi * p,
            stops: [
                .init(offset: 0, color: start.mixed(with: end, fraction: (p - 1) / p)),
                .init(offset: 1, color: end),
            ]
        )
    }

    /// The point on the ring's centre line at `angle`, relative to its centre: (r·cos a, r·sin a), canvas
    /// orientation. Relative, so that one frame serves every arrangement (the page translates to the centre).
    private static func point(on spec: RingSpec, at angle: Double) -> (x: Double, y: Double) {
        (spec.r * cos(angle), spec.r * sin(angle))
    }

    /// One widget at `time` (DESIGN §12): its kind's values, the label and its colour; the ring fields it does
    /// not use rest at 0.
    static func widget(_ spec: RingSpec, of board: Board, at time: Double, automatic text: RGBAColor) -> RingFrame {
        let progress = board.progress(ofRing: spec.id, at: time)
        let colors = board.colors(ofRing: spec.id, at: time)
        let label = Limits.fitting(board.label(ofRing: spec.id, at: time))
        var a1 = 0.0
        let widget: WidgetFrame
        switch spec.kind {
        case .counter(let counter):
            let format = counter.format
            let value = progress ?? 0
            widget = .counter(
                value: progress,
                sign: Odometer.sign(for: value, format: format),
                digits: Odometer.columns(for: value, format: format))
        case .text(let text):
            let waveWidth = text.waveWidth
            // A text widget's label is its text.
            widget = .text(
                text: label, scales: WaveText.scales(of: label, pct: board.wave(ofRing: spec.id, at: time), waveWidth: waveWidth))
        case .indicator:
            // Seed 003's ArcShape: from 0° (3 o'clock) to 360°·pct.
            a1 = 2 * Double.pi * (progress ?? 0)
            widget = .indicator(color: colors.first ?? spec.colors[0])
        case .gradient, .plain, .derived, .countdown:
            let last = Double(max(colors.count - 1, 1))
            widget = .gradient(
                stops: colors.enumerated().map { ConicGradient.Stop(offset: Double($0.offset) / last, color: $0.element) })
        }
        let none = RingFrame.Shadow(dx: 0, dy: 0, blur: 0, alpha: 0)
        let black = RGBAColor(red: 0, green: 0, blue: 0)
        return RingFrame(
            id: spec.id,
            p: progress,
            a0: 0,
            a1: a1,
            gradient: ConicGradient(start: 0, stops: []),
            cap: RingFrame.Cap(x: 0, y: 0, color: black, visible: false),
            tip: RingFrame.Tip(x: 0, y: 0, color: black, visible: false, shadow: none),
            label: label,
            labelColor: board.labelColor(ofRing: spec.id, at: time, automatic: text),
            widget: widget
        )
    }
}
