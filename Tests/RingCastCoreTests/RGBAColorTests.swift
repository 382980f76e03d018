import Foundation
import RingCastCore
import Testing

@Suite struct RGBAColorTests {
    @Test(arguments: [
        ("#e74c3c", "#e74c3cff"),
        ("#E74C3C", "#e74c3cff"),
        ("#e74c3c80", "#e74c3c80"),
        ("#00000000", "#00000000"),
        ("#FfFfFf", "#ffffffff"),
    ])
    func validHex_parsesAndFormatsAsLowercaseRRGGBBAA(input: String, expected: String) {
        #expect(RGBAColor(hex: input)?.hex == expected)
    }

    @Test(arguments: ["", "#", "e74c3c", "#e74c3", "#e74c3c8", "#e74c3c800", "#g74c3c", "#+74c3c", "# 74c3c", "#e74c3cé", "red"])
    func invalidHex_isRejected(input: String) {
        #expect(RGBAColor(hex: input) == nil)
    }

    @Test func parsedComponents_areBytesOver255() {
        let color = RGBAColor(hex: "#ff800033")
        #expect(color == RGBAColor(red: 1, green: 128.0 / 255, blue: 0, alpha: 51.0 / 255))
    }

    @Test func hex_roundsToNearestByteAndClamps() {
        #expect(RGBAColor(red: 1.2, green: -0.1, blue: 0.5, alpha: .nan).hex == "#ff008000")
        #expect(RGBAColor(red: 0.5 / 255, green: 254.4 / 255, blue: 0, alpha: 1).hex == "#01fe00ff")
    }

    @Test func mixed_isTheSeedsColorMixerOnEveryComponentIncludingAlpha() {
        let a = RGBAColor(red: 0, green: 0.2, blue: 1, alpha: 1)
        let b = RGBAColor(red: 1, green: 0.6, blue: 0, alpha: 0)
        let mix = a.mixed(with: b, fraction: 0.25)
        #expect(mix == RGBAColor(red: 0.25, green: 0.2 + (0.6 - 0.2) * 0.25, blue: 0.75, alpha: 0.75))
        #expect(a.mixed(with: b, fraction: 0) == a)
        // f is not clamped: 1.5 goes past the other colour.
        #expect(a.mixed(with: b, fraction: 1.5).red == 1.5)
    }

    @Test func palette_holdsTheSeedsFlatUIColours() {
        #expect(Palette.lightRed.hex == "#e74c3cff")
        #expect(Palette.darkRed.hex == "#c0392bff")
        #expect(Palette.purpleBg.hex == "#4533c9ff")
        #expect(Palette.named["darkOrange"] == Palette.darkOrange)
        #expect(Palette.named.count == 13)
    }

    @Test func codable_usesTheHexString() throws {
        let data = try JSONEncoder().encode([Palette.lightGreen])
        #expect(String(decoding: data, as: UTF8.self) == ##"["#2ecc71ff"]"##)
        let decoded = try JSONDecoder().decode([RGBAColor].self, from: Data(##"["#2ECC71"]"##.utf8))
        #expect(decoded == [Palette.lightGreen])
    }

    @Test func decoding_rejectsAStringThatIsNotAColour() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([RGBAColor].self, from: Data(#"["green"]"#.utf8))
        }
    }
}
