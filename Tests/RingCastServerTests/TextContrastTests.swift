import RingCastCore
import RingCastServer
import Testing

/// The default board (config/ringcast.json, `main`) sets no text colours: on any background the titles and
/// labels the server sends reach WCAG AA (4.5:1) against the frame's background colour.
@Suite("Text contrast on the default board")
struct TextContrastTests {
    static let origin: Int64 = 1_795_000_000 * 60

    @Test(arguments: ["#000000", "#ffffff", "#4533c9", "#f1c40f"])
    func titlesAndLabels_reachAA_afterABackgroundChange(_ hex: String) throws {
        let configuration = try RingCastConfiguration.load(
            file: repositoryRoot.appendingPathComponent("config/ringcast.json").path, environment: [:])
        let spec = try #require(configuration.boards.first { $0.name == "main" })
        let layout = FrameComposer.layout(of: spec)
        var animator = Animator(spec: spec, fps: configuration.fps, tick: Self.origin - 100)
        try animator.accept(.ring("move", RingUpdate(progress: 0.4)), at: Self.origin, now: Self.origin - 1)
        try animator.accept(
            .background(BackgroundUpdate(color: RGBAColor(hex: hex)!, transition: .circle, duration: 0.5)),
            at: Self.origin, now: Self.origin - 1)
        // Half a second at 60 fps: the splash has finished well before tick 60.
        let frame = animator.frames(at: Self.origin + 60).frame
        let background = frame.background
        #expect(background.color.hex == RGBAColor(hex: hex)!.hex)
        #expect(background.splash.isEmpty)
        let sentText = RGBAColor(hex: background.text.hex)!
        #expect(sentText.contrastRatio(with: background.color) >= 4.5)
        for ring in layout.rings {
            // An automatic title (null) is drawn in the frame's background.text.
            let title = RGBAColor(hex: (ring.titleColor ?? background.text).hex)!
            #expect(title.contrastRatio(with: background.color) >= 4.5, "title of \(ring.id) on \(hex)")
        }
        #expect(layout.rings.allSatisfy { $0.titleColor == nil })
        for ring in frame.rings {
            let label = RGBAColor(hex: ring.labelColor.hex)!
            #expect(label.contrastRatio(with: background.color) >= 4.5, "label of \(ring.id) on \(hex)")
            #expect(ring.labelColor == background.text)
        }
    }
}
