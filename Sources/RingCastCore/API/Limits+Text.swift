/// The texts a user can set and every viewer reads: board and ring titles, and a ring's fixed label text. The
/// API's decoders, the config loader and the CLI check them here. A board stored by an older build is not
/// checked again when it loads (`BoardSpec.check` leaves texts alone), so a title these rules now refuse
/// still loads and is served until someone changes it.
extension Limits {
    /// Titles of boards and rings: 1 to this many characters.
    public static let maximumTitleLength = 64

    /// 422 `invalid_value` unless `title` is a readable text (`check(text:named:maximumLength:field:)`) of 1 to
    /// `maximumTitleLength` characters.
    public static func check(title: String, field: String?) throws(APIError) {
        try check(text: title, named: "title", maximumLength: maximumTitleLength, field: field)
    }

    /// 422 `invalid_value` unless `text` is a readable text of 1 to `LabelFormat.maximumTextLength` characters.
    public static func check(labelText text: String, field: String?) throws(APIError) {
        try check(text: text, named: "label text", maximumLength: LabelFormat.maximumTextLength, field: field)
    }

    /// The most UTF-8 bytes a text viewers read may have: binary frames count a text's bytes in one byte (str8).
    public static let maximumTextBytes = 255

    /// `text`, or its longest prefix of whole characters (grapheme clusters, as Swift's `String` and the page's
    /// `Intl.Segmenter` count them) whose UTF-8 fits in `maximumTextBytes`: a cut never splits an emoji family,
    /// a flag, a ZWJ sequence or a letter from its combining marks. `FrameComposer` cuts every title, label and
    /// text with it, so JSON, binary and SVG carry the same string; the checks below keep what users write,
    /// and every label a counter can compose, within the limit, so a cut only ever shortens what a board stored
    /// by an older build holds.
    public static func fitting(_ text: String) -> String {
        guard text.utf8.count > maximumTextBytes else { return text }
        var end = text.startIndex
        var length = 0
        while end < text.endIndex {
            let next = text.index(after: end)
            length += text.utf8.distance(from: end, to: next)
            guard length <= maximumTextBytes else { break }
            end = next
        }
        return String(text[..<end])
    }

    /// The key of `format` (`unit` or `grouping`) that makes the longest label the counter can show exceed
    /// `maximumTextBytes`, and why; nil when every label fits. The longest label is that of −10¹², the end of
    /// `counterValues` (which the displayed value never leaves, `Board.progress(ofRing:at:)`): the most integer
    /// digits (13, which `counterDigits` also caps), so the most separators, a sign, every decimal and the unit.
    /// Every definition of a counter is checked here (`RingDefinition.counterFormat`: the API's bodies, the config
    /// file, the CLI's requests); a stored board is not checked again when it loads, as titles are not.
    static func labelProblem(of format: CounterFormat) -> (key: String, message: String)? {
        let longest = Odometer.label(for: counterValues.lowerBound, format: format).utf8.count
        guard longest > maximumTextBytes else { return nil }
        // The unit is what to shorten, unless the number and its groupings are too long alone.
        var withoutUnit = format
        withoutUnit.unit = nil
        let numberAlone = Odometer.label(for: counterValues.lowerBound, format: withoutUnit).utf8.count
        let key = format.unit == nil || numberAlone > maximumTextBytes ? "grouping" : "unit"
        return (
            key,
            "a counter's longest label (-1e12 with its grouping, decimals and unit) would be \(longest) bytes of UTF-8, "
                + "at most \(maximumTextBytes) (binary frames count a label's bytes in one byte): give a shorter \(key)"
        )
    }

    /// 422 `invalid_value` unless `text` has 1 to `maximumLength` characters (and at most 255 bytes: the
    /// binary format's length byte), is not blank, and holds no character that hides or reorders what a
    /// viewer reads (`hiddenCharacter(in:)`). The message names the character as U+XXXX and where it is.
    static func check(text: String, named name: String, maximumLength: Int, field: String?) throws(APIError) {
        let bytes = text.utf8.count
        guard !text.isEmpty, text.count <= maximumLength, bytes <= maximumTextBytes else {
            let size =
                bytes > maximumTextBytes
                ? ", got \(bytes) bytes of UTF-8 (at most \(maximumTextBytes))" : ", got \(text.count)"
            throw .invalidValue("a \(name) must have 1 to \(maximumLength) characters\(size)", field: field)
        }
        if let (scalar, position) = hiddenCharacter(in: text) {
            throw .invalidValue(
                "a \(name) must not contain \(describe(scalar)) (character \(position)): control, bidirectional and "
                    + "invisible characters hide or reorder what viewers read",
                field: field)
        }
        if text.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            throw .invalidValue("a \(name) must not be blank: it holds only white space", field: field)
        }
    }

    /// The first scalar of `text` that a viewer cannot see or that changes how the rest reads, with the
    /// position (from 1) of the character holding it; nil when there is none. Refused:
    ///
    /// - control characters (Cc) and the line and paragraph separators: a title or label is one line;
    /// - format characters (Cf) and every other default-ignorable code point: the bidi embeddings, overrides
    ///   and isolates (U+202A–U+202E, U+2066–U+2069), the marks U+200E, U+200F and U+061C, zero-width space
    ///   U+200B, word joiner U+2060, U+FEFF, soft hyphen U+00AD, the Hangul fillers, …
    ///
    /// except where such a character is part of writing people use:
    ///
    /// - U+200D ZERO WIDTH JOINER inside an emoji (👩‍💻 is 👩, U+200D, 💻 in one character);
    /// - U+200C and U+200D between two letters or marks of the scripts from U+0590 on (Hebrew, Arabic, the
    ///   Indic scripts…), where they change how letters join or form conjuncts (Persian می‌خواهم, Sinhala ශ්‍රී);
    /// - variation selectors after the character they select a form of (❤️ is U+2764 U+FE0F);
    /// - tag characters inside an emoji flag of a region (🏴󠁧󠁢󠁳󠁣󠁴󠁿: U+1F3F4, tags, U+E007F).
    static func hiddenCharacter(in text: String) -> (scalar: Unicode.Scalar, position: Int)? {
        // Each scalar with the character it belongs to: whether it starts or ends it, and its first and last
        // scalars.
        var scalars: [(scalar: Unicode.Scalar, position: Int, first: Bool, last: Bool, character: [Unicode.Scalar])] = []
        for (index, character) in text.enumerated() {
            let own = Array(character.unicodeScalars)
            for (offset, scalar) in own.enumerated() {
                scalars.append((scalar, index + 1, offset == 0, offset == own.count - 1, own))
            }
        }
        for (index, entry) in scalars.enumerated() {
            let before = index > 0 ? scalars[index - 1].scalar : nil
            let after = index + 1 < scalars.count ? scalars[index + 1].scalar : nil
            let properties = entry.scalar.properties
            let category = properties.generalCategory
            if category == .control || category == .lineSeparator || category == .paragraphSeparator {
                return (entry.scalar, entry.position)
            }
            guard category == .format || properties.isDefaultIgnorableCodePoint else { continue }
            let allowed: Bool
            switch entry.scalar.value {
            case 0x200D:
                // In an emoji, the joiner is inside one character (Unicode's rule GB11 keeps it there only
                // before another pictograph).
                let joinsEmoji = !entry.last && before.map { $0.properties.isEmoji || $0.value == 0xFE0F } == true
                allowed = joinsEmoji || joinsLetters(before, after)
            case 0x200C:
                allowed = joinsLetters(before, after)
            case 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x180B...0x180D, 0x180F:
                allowed = !entry.first
            case 0xE0020...0xE007F:
                allowed = entry.character.first?.value == 0x1F3F4 && entry.character.last?.value == 0xE007F
            default:
                allowed = false
            }
            if !allowed { return (entry.scalar, entry.position) }
        }
        return nil
    }

    /// Whether a joiner between `before` and `after` sits between two letters or marks of a script from
    /// U+0590 on, where joining and conjuncts are visible.
    private static func joinsLetters(_ before: Unicode.Scalar?, _ after: Unicode.Scalar?) -> Bool {
        guard let before, let after else { return false }
        return [before, after].allSatisfy { scalar in
            guard scalar.value >= 0x0590 else { return false }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
                .spacingMark, .enclosingMark:
                return true
            default:
                return false
            }
        }
    }

    /// `U+202E RIGHT-TO-LEFT OVERRIDE`: the code point, and its Unicode name when known.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        guard let name = scalar.properties.name ?? scalar.properties.nameAlias else { return code }
        return "\(code) \(name)"
    }
}
