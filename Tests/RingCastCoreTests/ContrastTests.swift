import RingCastCore
import Testing

/// WCAG 2.x relative luminance and contrast, and the text colour the server picks from them.
@Suite("Text contrast")
struct ContrastTests {
    static let black = RGBAColor(red: 0, green: 0, blue: 0)
    static let white = RGBAColor(red: 1, green: 1, blue: 1)

    @Test func blackOnWhite_is21To1_inEitherOrder() {
        #expect(abs(Self.black.contrastRatio(with: Self.white) - 21) < 1e-12)
        #expect(abs(Self.white.contrastRatio(with: Self.black) - 21) < 1e-12)
        #expect(Self.white.contrastRatio(with: Self.white) == 1)
    }

    @Test func grey777OnWhite_isJustBelowAA() {
        // The classic WCAG example: #777777 on white is 4.48:1, not enough for normal text.
        let ratio = RGBAColor(hex: "#777777")!.contrastRatio(with: Self.white)
        #expect(abs(ratio - 4.48) < 0.005)
        #expect(ratio < RGBAColor.minimumTextContrast)
    }

    @Test(arguments: [("#000000", 0.0), ("#ffffff", 1.0), ("#ff0000", 0.2126), ("#00ff00", 0.7152), ("#0000ff", 0.0722)])
    func relativeLuminance_ofPrimaries(_ hex: String, _ luminance: Double) {
        #expect(abs(RGBAColor(hex: hex)!.relativeLuminance - luminance) < 1e-12)
    }

    @Test(arguments: [
        ("#000000", "#f2f2f7ff"), ("#ffffff", "#1c1c1eff"), ("#4533c9", "#f2f2f7ff"), ("#f1c40f", "#1c1c1eff"),
    ])
    func text_prefersTheSoftGreys(_ background: String, _ text: String) {
        #expect(RGBAColor.text(on: RGBAColor(hex: background)!).hex == text)
    }

    @Test func text_fallsBackToWhiteOrBlack_whereNeitherGreyReachesAA() {
        // A mid grey: neither #f2f2f7 nor #1c1c1e reaches 4.5:1 on #767676, pure black does.
        let background = RGBAColor(hex: "#767676")!
        #expect(RGBAColor.lightText.contrastRatio(with: background) < 4.5)
        #expect(RGBAColor.darkText.contrastRatio(with: background) < 4.5)
        #expect(RGBAColor.text(on: background).contrastRatio(with: background) >= 4.5)
    }

    @Test func text_reachesAA_onEveryGreyAndAGridOfColours() {
        var backgrounds: [RGBAColor] = []
        for step in 0...255 {
            let v = Double(step) / 255
            backgrounds.append(RGBAColor(red: v, green: v, blue: v))
        }
        for r in stride(from: 0, through: 255, by: 15) {
            for g in stride(from: 0, through: 255, by: 15) {
                for b in stride(from: 0, through: 255, by: 15) {
                    backgrounds.append(RGBAColor(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255))
                }
            }
        }
        for background in backgrounds {
            // The wire carries RGBA8: check the colour the page receives, not the unrounded one.
            let sent = RGBAColor(hex: RGBAColor.text(on: background).hex)!
            #expect(sent.contrastRatio(with: background) >= 4.5, "\(background.hex)")
        }
    }
}
