/// The first place where a text stops being strict JSON (RFC 8259), as a line, a column and what
/// was expected there.
///
/// A config file is checked with it before Foundation's JSONDecoder reads it: on Linux that decoder
/// says only "The given data was not valid JSON." (no offset, no underlying error), and it lets
/// through what other JSON tools refuse (`make bench` reads the config with Python): a comma
/// before `}`, and a key given twice, of which it silently keeps the first. A leading UTF-8 byte
/// order mark is skipped, as Foundation does.
struct JSONSyntaxError: Equatable, Sendable {
    /// 1-based.
    var line: Int
    /// 1-based, in characters (Unicode scalars), as an editor counts them.
    var column: Int
    var message: String

    /// Containers nested deeper than this are reported rather than followed, so a hostile file
    /// cannot exhaust the stack; Foundation's decoder stops at 512 too.
    static let maximumDepth = 512

    /// The first syntax error in `bytes`; nil when they are JSON.
    static func first(in bytes: [UInt8]) -> JSONSyntaxError? {
        let failure: Failure
        if let invalid = firstInvalidUTF8(in: bytes) {
            failure = Failure(offset: invalid, message: "this is not UTF-8 text; save the file as UTF-8")
        } else {
            var parser = Parser(bytes: bytes)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
            do {
                try parser.document()
                return nil
            } catch {
                failure = error
            }
        }
        let (line, column) = location(of: failure.offset, in: bytes)
        return JSONSyntaxError(line: line, column: column, message: failure.message)
    }

    /// The 1-based line and column of the byte at `offset`.
    private static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // UTF-8 continuation bytes (10xxxxxx) do not start a character.
        return (line, bytes[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count + 1)
    }

    /// The offset of the first byte that is not part of valid UTF-8; nil when all are.
    private static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private struct Failure: Error {
        var offset: Int
        var message: String
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// One value, with nothing but whitespace around it.
        mutating func document() throws(Failure) {
            skipWhitespace()
            try value()
            skipWhitespace()
            if index < bytes.count {
                throw fail("unexpected text after the end of the JSON, found \(found(at: index))")
            }
        }

        private mutating func value() throws(Failure) {
            guard let byte = current else {
                throw unexpected("expected a value (a string, number, object, array, true, false or null)")
            }
            switch byte {
            case UInt8(ascii: "{"): try object()
            case UInt8(ascii: "["): try array()
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): try literal()
            default: throw unexpected("expected a value (a string, number, object, array, true, false or null)")
            }
        }

        private mutating func object() throws(Failure) {
            try enter()
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return
            }
            // Each key's raw text (escapes as written) and where it is.
            var keys: [String: Int] = [:]
            while true {
                guard current == UInt8(ascii: "\"") else { throw unexpected("expected a key in double quotes") }
                let keyOffset = index
                let key = try string()
                if let earlier = keys.updateValue(keyOffset, forKey: key) {
                    let (line, column) = JSONSyntaxError.location(of: earlier, in: bytes)
                    throw Failure(
                        offset: keyOffset,
                        message: "the key \(Self.quoted(key)) appears twice in this object (first at \(line):\(column))")
                }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else {
                    throw unexpected("expected \":\" after the key \(Self.quoted(key))")
                }
                index += 1
                skipWhitespace()
                try value()
                skipWhitespace()
                switch current {
                case UInt8(ascii: "}"):
                    index += 1
                    depth -= 1
                    return
                case UInt8(ascii: ","):
                    let comma = index
                    index += 1
                    skipWhitespace()
                    if current == UInt8(ascii: "}") {
                        throw Failure(offset: comma, message: "a comma after the last member; JSON allows none before \"}\"")
                    }
                default:
                    throw unexpected("expected \",\" or \"}\"")
                }
            }
        }

        private mutating func array() throws(Failure) {
            try enter()
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return
            }
            while true {
                try value()
                skipWhitespace()
                switch current {
                case UInt8(ascii: "]"):
                    index += 1
                    depth -= 1
                    return
                case UInt8(ascii: ","):
                    let comma = index
                    index += 1
                    skipWhitespace()
                    if current == UInt8(ascii: "]") {
                        throw Failure(offset: comma, message: "a comma after the last element; JSON allows none before \"]\"")
                    }
                default:
                    throw unexpected("expected \",\" or \"]\"")
                }
            }
        }

        private mutating func enter() throws(Failure) {
            guard depth < JSONSyntaxError.maximumDepth else {
                throw fail("the JSON nests deeper than \(JSONSyntaxError.maximumDepth) levels")
            }
            depth += 1
        }

        /// A string literal from its opening quote; returns its raw text (escapes as written).
        private mutating func string() throws(Failure) -> String {
            let open = index
            index += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: bytes[(open + 1)..<(index - 1)], as: UTF8.self)
                case UInt8(ascii: "\\"):
                    try escape()
                case ..<0x20:
                    throw fail("a control character (a line break or tab) inside a string; write it as \\n or \\t")
                default:
                    index += 1
                }
            }
            throw Failure(offset: open, message: "this string has no closing \"")
        }

        /// `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` or `\uXXXX`, from the backslash.
        private mutating func escape() throws(Failure) {
            let start = index
            index += 1
            guard let letter = current else { return }
            if Array(#""\/bfnrt"#.utf8).contains(letter) {
                index += 1
                return
            }
            if letter == UInt8(ascii: "u") {
                let digits = bytes[min(index + 1, bytes.count)..<min(index + 5, bytes.count)]
                if digits.count == 4, digits.allSatisfy({ Self.isHexDigit($0) }) {
                    index += 5
                    return
                }
                throw Failure(offset: start, message: "\\u must be followed by four hexadecimal digits")
            }
            let text = String(decoding: bytes[start...index], as: UTF8.self)
            throw Failure(
                offset: start, message: "invalid escape \(Self.quoted(text)); a backslash in a string is written \\\\")
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        private mutating func number() throws(Failure) {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
                if let next = current, Self.isDigit(next) {
                    throw Failure(offset: start, message: "a number cannot have a leading zero (write 8, not 08)")
                }
            } else if !digits() {
                throw Failure(offset: start, message: "invalid number \(found(at: start))")
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() else {
                    throw Failure(offset: start, message: "invalid number \(found(at: start)): a digit must follow \".\"")
                }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() else {
                    throw Failure(offset: start, message: "invalid number \(found(at: start)): the exponent needs digits")
                }
            }
        }

        /// Skips a run of digits; false when there was none.
        private mutating func digits() -> Bool {
            let start = index
            while let byte = current, Self.isDigit(byte) { index += 1 }
            return index > start
        }

        private mutating func literal() throws(Failure) {
            for word in ["true", "false", "null"] {
                let utf8 = Array(word.utf8)
                if bytes.count - index >= utf8.count, Array(bytes[index..<(index + utf8.count)]) == utf8 {
                    index += utf8.count
                    return
                }
            }
            throw unexpected("expected a value (a string, number, object, array, true, false or null)")
        }

        private mutating func skipWhitespace() {
            while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
        }

        private func fail(_ message: String) -> Failure {
            Failure(offset: index, message: message)
        }

        /// `expected`, followed by what is there instead; comments and single quotes get their own
        /// words, since they are the usual ways a hand-edited file stops being JSON.
        private func unexpected(_ expected: String) -> Failure {
            switch current {
            case UInt8(ascii: "/"):
                return fail("JSON allows no comments")
            case UInt8(ascii: "'"):
                return fail("\(expected); JSON strings take double quotes, not single")
            default:
                return fail("\(expected), found \(found(at: index))")
            }
        }

        /// What starts at `offset`, for a message: the end of the file, a string, a word or one
        /// character.
        private func found(at offset: Int) -> String {
            guard offset < bytes.count else { return "the end of the file" }
            if bytes[offset] == UInt8(ascii: "\"") {
                var end = offset + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\n") { end += 1 }
                return "the string " + Self.quoted(String(decoding: bytes[(offset + 1)..<end], as: UTF8.self))
            }
            var end = offset
            while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
            if end == offset {
                // One character, however many bytes it takes.
                end += 1
                while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            }
            return Self.quoted(String(decoding: bytes[offset..<end], as: UTF8.self))
        }

        private static func quoted(_ text: String) -> String {
            "\"" + (text.count > 30 ? String(text.prefix(30)) + "…" : text) + "\""
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }

        private static func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }

        private static func isWordByte(_ byte: UInt8) -> Bool {
            isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "+")].contains(byte)
        }
    }
}
