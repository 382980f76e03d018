import Foundation

/// Seed 003's wave text (Example12): as `pct` runs from 0 to 1 a wave `waveWidth` characters wide passes over
/// the text, and character n of `total` is drawn at scale `1 + valueInCurve(pct, total, n/total, waveWidth)`.
public enum WaveText {
    /// The scale of every character (grapheme cluster, as Swift's `String.count` and the page's
    /// `Intl.Segmenter` count them) of `text` at wave position `pct`.
    public static func scales(of text: String, pct: Double, waveWidth: Double) -> [Double] {
        let total = Double(text.count)
        return (0..<text.count).map { n in 1 + valueInCurve(pct: pct, total: total, x: Double(n) / total, waveWidth: waveWidth) }
    }

    /// The seed's formula, unchanged: 0 outside the wave, a half-sine bump inside it.
    public static func valueInCurve(pct: Double, total: Double, x: Double, waveWidth: Double) -> Double {
        let chunk = waveWidth / total
        let m = 1 / chunk
        let offset = (chunk - (1 / total)) * pct
        let lowerLimit = (pct - chunk) + offset
        let upperLimit = pct + offset
        guard x >= lowerLimit && x < upperLimit else { return 0 }
        let angle = ((x - pct - offset) * m) * 360 - 90
        return (sin(angle * Double.pi / 180) + 1) / 2
    }
}
