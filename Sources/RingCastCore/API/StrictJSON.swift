/// The one JSON reader's first pass, for request bodies and the config file alike: the first place where a text
/// stops being strict JSON (RFC 8259, UTF-8 only), as a line, a column, the path of the value and what was
/// expected there.
///
/// Foundation's JSONDecoder, which reads the text afterwards, lets through what other JSON tools refuse and
/// what lets two readers see two different documents: a key given twice (it keeps the first; `"fp\u0073"` is
/// the key `"fps"`, so keys are compared after their escapes are read), a comma before `}` or `]`, a byte
/// order mark, UTF-16 text. On Linux it also says only "The given data was not valid JSON." This says where
/// and why.
public struct JSONProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based.
    public var line: Int
    /// 1-based, in characters (Unicode scalars), as an editor counts them.
    public var column: Int
    public var message: String
    /// The dotted path of the value concerned (`rings.move` for a key given twice in `rings`); nil at the top.
    public var path: String?

    public var description: String { "\(line):\(column): \(message)" }
}

public enum StrictJSON {
    /// Why the JSON number `literal` cannot be read as a 64-bit float, or nil when it can. RFC 8259 §6 leaves
    /// the range to the reader; this one reads every number as a Double (as Foundation's decoder does, which
    /// refuses both cases below with only "not valid JSON"), and says which way the number is out:
    ///
    /// - too large: beyond ±1.8e308 (`1e400`);
    /// - too close to zero: not 0, yet nearer to it than the smallest Double, 5e-324, so that it would read as
    ///   0 (`0.1e-400`). Refused rather than read as 0: a client that means 0 can write it, and a value read as
    ///   something other than what was written is a value nobody can check. Subnormal numbers (1e-320) are
    ///   Doubles and read as written.
    ///
    /// Request bodies and the config file both meet this in the first pass, so both say the same.
    public static func rangeProblem(ofNumber literal: some Collection<UInt8>) -> String? {
        // Without an exponent, a number needs over 300 digits to leave a Double's range either way.
        let exponent = literal.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        guard exponent != nil || literal.count > 300 else { return nil }
        let text = String(decoding: literal, as: UTF8.self)
        guard let value = Double(text) else { return nil }
        let shown = text.count > 40 ? String(text.prefix(20)) + "…" + String(text.suffix(10)) : text
        if !value.isFinite {
            return "the number \(shown) is too large for a 64-bit float (at most ±1.8e308)"
        }
        let mantissa = literal[..<(exponent ?? literal.endIndex)]
        if value == 0, mantissa.contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) {
            return "the number \(shown) is too close to zero for a 64-bit float (the smallest is ±5e-324), "
                + "so it would read as 0; write 0 if you mean 0"
        }
        return nil
    }

    /// Containers nested deeper than this are reported rather than followed, so a hostile text cannot exhaust
    /// the stack; Foundation's decoder stops at 512 too.
    public static let maximumDepth = 512

    /// The first problem in `bytes`; nil when they are strict JSON nested at most `maximumDepth` deep.
    public static func firstProblem(in bytes: [UInt8], maximumDepth: Int = StrictJSON.maximumDepth) -> JSONProblem? {
        let failure: Failure
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            failure = Failure(offset: 0, message: "the text starts with a byte order mark; send UTF-8 without one")
        } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            failure = Failure(offset: 0, message: "this is UTF-16 text; JSON here is UTF-8")
        } else if let invalid = firstInvalidUTF8(in: bytes) {
            failure = Failure(offset: invalid, message: "this is not UTF-8 text; send (or save) it as UTF-8")
        } else {
            var parser = Parser(bytes: bytes, maximumDepth: maximumDepth)
            do {
                try parser.document()
                return nil
            } catch {
                failure = error
            }
        }
        let (line, column) = location(of: failure.offset, in: bytes)
        return JSONProblem(line: line, column: column, message: failure.message, path: failure.path)
    }

    /// The 1-based line and column of the byte at `offset`.
    private static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // UTF-8 continuation bytes (10xxxxxx) do not start a character.
        return (line, bytes[lineStart..<min(offset, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count + 1)
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
        var path: String?
    }

    private struct Parser {
        let bytes: [UInt8]
        let maximumDepth: Int
        var index = 0
        var depth = 0
        /// The keys and indices from the top to the value being read.
        var path: [String] = []

        init(bytes: [UInt8], maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        private var pathText: String? { path.isEmpty ? nil : path.joined(separator: ".") }

        private func failure(at offset: Int, _ message: String) -> Failure {
            Failure(offset: offset, message: message, path: pathText)
        }

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
            if try openIsEmpty(closedBy: UInt8(ascii: "}")) { return }
            // Each key as a decoder reads it (escapes resolved; Swift's String equality, as a decoder's
            // dictionary compares them) and where it is.
            var keys: [String: Int] = [:]
            while true {
                guard current == UInt8(ascii: "\"") else { throw unexpected("expected a key in double quotes") }
                let keyOffset = index
                let raw = try string()
                let key = Self.unescaped(raw)
                if let earlier = keys.updateValue(keyOffset, forKey: key) {
                    let (line, column) = StrictJSON.location(of: earlier, in: bytes)
                    let spelling = raw == key ? "" : " (written \(Self.quoted(raw)))"
                    path.append(key)
                    defer { path.removeLast() }
                    throw failure(
                        at: keyOffset,
                        "the key \(Self.quoted(key))\(spelling) appears twice in this object (first at \(line):\(column))")
                }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else {
                    throw unexpected("expected \":\" after the key \(Self.quoted(raw))")
                }
                index += 1
                skipWhitespace()
                path.append(key)
                try value()
                path.removeLast()
                if try closesAfter("member", closedBy: UInt8(ascii: "}")) { return }
            }
        }

        private mutating func array() throws(Failure) {
            if try openIsEmpty(closedBy: UInt8(ascii: "]")) { return }
            var count = 0
            while true {
                path.append(String(count))
                try value()
                path.removeLast()
                count += 1
                if try closesAfter("element", closedBy: UInt8(ascii: "]")) { return }
            }
        }

        /// Steps into the object or array that starts here; true when it is empty (and already left).
        private mutating func openIsEmpty(closedBy close: UInt8) throws(Failure) -> Bool {
            try enter()
            index += 1
            skipWhitespace()
            guard current == close else { return false }
            index += 1
            depth -= 1
            return true
        }

        /// After a member or element: true when `close` ends the container (which is then left), false after a
        /// comma that another one follows. A comma right before `close`, or anything else, is refused.
        private mutating func closesAfter(_ item: String, closedBy close: UInt8) throws(Failure) -> Bool {
            let closing = Character(Unicode.Scalar(close))
            skipWhitespace()
            switch current {
            case close:
                index += 1
                depth -= 1
                return true
            case UInt8(ascii: ","):
                let comma = index
                index += 1
                skipWhitespace()
                if current == close {
                    throw failure(at: comma, "a comma after the last \(item); JSON allows none before \"\(closing)\"")
                }
                return false
            default:
                throw unexpected("expected \",\" or \"\(closing)\"")
            }
        }

        private mutating func enter() throws(Failure) {
            guard depth < maximumDepth else {
                throw fail("the JSON nests deeper than \(maximumDepth) levels")
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
            throw failure(at: open, "this string has no closing \"")
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
                throw failure(at: start, "\\u must be followed by four hexadecimal digits")
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
                    throw failure(at: start, "a number cannot have a leading zero (write 8, not 08)")
                }
            } else if !digits() {
                throw failure(at: start, "invalid number \(found(at: start))")
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() else {
                    throw failure(at: start, "invalid number \(found(at: start)): a digit must follow \".\"")
                }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() else {
                    throw failure(at: start, "invalid number \(found(at: start)): the exponent needs digits")
                }
            }
            if let problem = StrictJSON.rangeProblem(ofNumber: bytes[start..<index]) {
                throw failure(at: start, problem)
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
            failure(at: index, message)
        }

        /// `expected`, followed by what is there instead; comments and single quotes get their own
        /// words, since they are the usual ways a hand-edited file stops being JSON.
        private func unexpected(_ expected: String) -> Failure {
            switch current {
            case UInt8(ascii: "/"):
                return fail("JSON allows no comments")
            case UInt8(ascii: "'"):
                return fail("\(expected); JSON strings take double quotes, not single")
            case 0:
                return fail("\(expected), found a NUL byte: UTF-16 text? JSON here is UTF-8")
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

        /// The text of a string literal's raw inside (escapes as written, already checked) as a decoder reads it.
        static func unescaped(_ raw: String) -> String {
            guard raw.contains("\\") else { return raw }
            var scalars = String.UnicodeScalarView()
            var units = Array(raw.utf8)[...]
            /// A `\uXXXX` escape's code unit, from after its `u`.
            func hex(_ digits: ArraySlice<UInt8>) -> UInt16 {
                UInt16(String(decoding: digits, as: UTF8.self), radix: 16) ?? 0xFFFD
            }
            var bytes: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
                bytes.removeAll()
            }
            while let byte = units.popFirst() {
                guard byte == UInt8(ascii: "\\"), let letter = units.popFirst() else {
                    bytes.append(byte)
                    continue
                }
                flush()
                switch letter {
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = hex(units.prefix(4))
                    units = units.dropFirst(4)
                    // A surrogate pair written as two escapes is one character.
                    if (0xD800..<0xDC00).contains(code), units.starts(with: Array("\\u".utf8)) {
                        let low = hex(units.dropFirst(2).prefix(4))
                        if (0xDC00..<0xE000).contains(low) {
                            units = units.dropFirst(6)
                            let combined = 0x10000 + (UInt32(code) - 0xD800) << 10 + (UInt32(low) - 0xDC00)
                            scalars.append(Unicode.Scalar(combined) ?? "\u{FFFD}")
                            continue
                        }
                    }
                    if (0xD800..<0xE000).contains(code) { code = 0xFFFD }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: scalars.append(Unicode.Scalar(letter))  // \" \\ \/
                }
            }
            flush()
            return String(scalars)
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
