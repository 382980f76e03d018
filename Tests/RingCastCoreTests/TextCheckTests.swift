import RingCastCore
import Testing

/// The one check of the texts a user sets and every viewer reads (titles, fixed label texts), issue 21: no
/// character that hides or reorders what is read, no blank text; the writing people use passes.
@Suite("Texts")
struct TextCheckTests {
    /// `text` checked as a title and as a label text: each check's name and its error (nil when it passed).
    private static func checked(_ text: String, field: String) -> [(name: String, error: APIError?)] {
        var results: [(name: String, error: APIError?)] = []
        do {
            try Limits.check(title: text, field: field)
            results.append(("title", nil))
        } catch {
            results.append(("title", error))
        }
        do {
            try Limits.check(labelText: text, field: field)
            results.append(("label text", nil))
        } catch {
            results.append(("label text", error))
        }
        return results
    }

    @Test(arguments: [
        "Move", "Task 1", " padded ", "Déploiement", "Ελληνικά", "日本語のタイトル", "שלום", "مرحبا",
        // Emoji: a ZWJ sequence, a skin tone in one, a flag with U+FE0F, a subdivision flag of tag characters.
        "👩‍💻 Dev", "👩🏽‍💻", "🏳️‍🌈", "❤️ fans", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland", "1️⃣",
        // Joiners that change how letters join: Persian ZWNJ, Sinhala's ZWJ conjunct, Devanagari half form.
        "می‌خواهم", "ශ්‍රී", "क्‍ष",
    ])
    func readableTexts_pass(text: String) throws {
        try Limits.check(title: text, field: "title")
        if text.count <= 32 { try Limits.check(labelText: text, field: "label.text") }
    }

    @Test(arguments: [
        ("\u{202E}txt.exe", "U+202E"), ("a\u{202A}b", "U+202A"), ("a\u{202B}b", "U+202B"), ("a\u{202C}b", "U+202C"),
        ("a\u{202D}b", "U+202D"), ("\u{2066}x\u{2069}", "U+2066"), ("\u{2067}x", "U+2067"), ("\u{2068}x", "U+2068"),
        ("x\u{2069}", "U+2069"), ("Move\u{200E}", "U+200E"), ("Move\u{200F}", "U+200F"), ("\u{061C}x", "U+061C"),
        ("Mo\u{200B}ve", "U+200B"), ("\u{200B}", "U+200B"), ("Mo\u{200C}ve", "U+200C"), ("Mo\u{200D}ve", "U+200D"),
        ("1\u{200D}2", "U+200D"), ("👩\u{200D}", "U+200D"), ("\u{200D}💻", "U+200D"), ("Mo\u{2060}ve", "U+2060"),
        ("\u{FEFF}Move", "U+FEFF"), ("Mo\u{00AD}ve", "U+00AD"), ("\u{3164}", "U+3164"), ("\u{115F}\u{1160}", "U+115F"),
        ("\u{FE0F}Move", "U+FE0F"), ("Move\u{E0041}", "U+E0041"), ("a\u{2028}b", "U+2028"), ("a\u{2029}b", "U+2029"),
        ("a\tb", "U+0009"), ("a\u{7F}", "U+007F"), ("a\u{0600}1", "U+0600"), ("x\u{FFF9}y\u{FFFB}", "U+FFF9"),
        ("a\u{034F}b", "U+034F"),
    ])
    func hiddenCharacters_are422NamingTheCharacter(text: String, code: String) {
        for (name, error) in Self.checked(text, field: "rings.move.title") {
            guard let error else {
                Issue.record("\(name) \(text.unicodeScalars.map { String($0.value, radix: 16) }) was accepted")
                continue
            }
            #expect(error.status == 422)
            #expect(error.code == "invalid_value")
            #expect(error.field == "rings.move.title")
            #expect(error.message.contains("a \(name) must not contain \(code)"), "\(error.message)")
        }
    }

    @Test func theMessage_namesTheCharacterAndWhereItIs() {
        do {
            try Limits.check(title: "ab\u{202E}cd", field: "title")
            Issue.record("accepted")
        } catch {
            #expect(
                error.message
                    == "a title must not contain U+202E RIGHT-TO-LEFT OVERRIDE (character 3): control, bidirectional and "
                    + "invisible characters hide or reorder what viewers read")
        }
    }

    @Test(arguments: [" ", "   ", "\u{00A0}", "\u{3000}\u{2003}", " \u{2009} "])
    func blankTexts_are422(text: String) {
        for (name, error) in Self.checked(text, field: "title") {
            guard let error else {
                Issue.record("a blank \(name) was accepted")
                continue
            }
            #expect(error.status == 422 && error.code == "invalid_value")
            #expect(error.message == "a \(name) must not be blank: it holds only white space")
        }
    }

    @Test func emptyAndOverlongTexts_sayTheLimit() {
        for (text, message) in [
            ("", "a title must have 1 to 64 characters, got 0"),
            (String(repeating: "t", count: 65), "a title must have 1 to 64 characters, got 65"),
            (String(repeating: "👩‍👩‍👧‍👦", count: 11), "a title must have 1 to 64 characters, got 275 bytes of UTF-8 (at most 255)"),
        ] {
            do {
                try Limits.check(title: text, field: "title")
                Issue.record("accepted \(text.count) characters")
            } catch {
                #expect(error.message == message)
            }
        }
    }
}
