import Foundation

extension RGBAColor {
    /// The soft text colours the server prefers (the page's header greys), used where they reach 4.5:1.
    public static let lightText = RGBAColor(hex: "#f2f2f7")!
    public static let darkText = RGBAColor(hex: "#1c1c1e")!

    /// WCAG 2.x AA for normal text.
    public static let minimumTextContrast = 4.5

    /// WCAG 2.x relative luminance: 0.2126 R + 0.7152 G + 0.0722 B of the linearised sRGB components
    /// (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance); alpha is ignored.
    public var relativeLuminance: Double {
        func linear(_ c: Double) -> Double {
            let c = min(max(c, 0), 1)
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05), L1 the lighter (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio).
    public func contrastRatio(with other: RGBAColor) -> Double {
        let a = relativeLuminance
        let b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The text colour the server picks for text on `background`: the soft light or dark grey, whichever
    /// contrasts more, if it reaches 4.5:1; else white or black, whichever contrasts more. White or black
    /// always reaches it: with L the background's luminance, max(1.05 / (L + 0.05), (L + 0.05) / 0.05) is
    /// smallest where both are equal, at L + 0.05 = √0.0525, giving √21 ≈ 4.58.
    public static func text(on background: RGBAColor) -> RGBAColor {
        func better(_ a: RGBAColor, _ b: RGBAColor) -> RGBAColor {
            a.contrastRatio(with: background) >= b.contrastRatio(with: background) ? a : b
        }
        let soft = better(lightText, darkText)
        if soft.contrastRatio(with: background) >= minimumTextContrast { return soft }
        return better(RGBAColor(red: 1, green: 1, blue: 1), RGBAColor(red: 0, green: 0, blue: 0))
    }
}
