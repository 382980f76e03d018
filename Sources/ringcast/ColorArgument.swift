import Foundation
import RingCastCore

/// Colours as the client commands take them (`--colors '#9b59b6,#8e44ad'`, `--label-color '#fff'`),
/// checked as the API checks them so a typo is refused before anything is sent.
enum ColorArgument {
    /// `text` when it is a colour the API takes: `#rrggbb` or `#rrggbbaa`.
    static func color(_ text: String, flag: String) throws(CommandFailure) -> String {
        guard RGBAColor(hex: text) != nil else {
            throw CommandFailure("\(flag): \"\(text)\" is not a colour; expected #rrggbb or #rrggbbaa, such as #2ecc71")
        }
        return text
    }

    /// A gradient's start and end from `'#start,#end'`.
    static func pair(_ text: String, flag: String) throws(CommandFailure) -> [String] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else {
            throw CommandFailure(
                "\(flag) takes two colours, start and end, such as '#9b59b6,#8e44ad'; got \(parts.count) in \"\(text)\"")
        }
        return try parts.map { part throws(CommandFailure) in try color(part, flag: flag) }
    }

    /// A gradient card's 2 to 8 colours from `'#a,#b,…'` (`Limits.gradientColors`).
    static func list(_ text: String, flag: String) throws(CommandFailure) -> [String] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let counts = Limits.gradientColors
        guard counts.contains(parts.count) else {
            throw CommandFailure(
                "\(flag) takes \(counts.lowerBound) to \(counts.upperBound) colours, such as '#9b59b6,#3498db,#2ecc71'; "
                    + "got \(parts.count) in \"\(text)\"")
        }
        return try parts.map { part throws(CommandFailure) in try color(part, flag: flag) }
    }
}
