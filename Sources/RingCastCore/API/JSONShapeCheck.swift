/// Checks what Foundation's JSONDecoder lets through silently: an object with the same key twice
/// (it keeps one of them) and nesting deep enough to be an attack rather than a request.
/// Everything else (syntax, types, UTF-8) is left to the decoder; on text that is not JSON this
/// check stops early and lets the decoder report the error.
public enum JSONShapeCheck {
    /// Deeper than any RingCast request needs.
    public static let maximumDepth = 32

    public static func validate(_ bytes: [UInt8]) throws(APIError) {
        var scanner = Scanner(bytes: bytes)
        try scanner.run()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        /// One entry per open container: the keys seen so far (nil for arrays) and the path.
        var stack: [(keys: Set<[UInt8]>?, path: String)] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func run() throws(APIError) {
            var expectKey = false
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard stack.count < JSONShapeCheck.maximumDepth else {
                        throw APIError.malformed(
                            "the JSON nests deeper than \(JSONShapeCheck.maximumDepth) levels",
                            field: stack.last?.path.isEmpty == false ? stack.last?.path : nil
                        )
                    }
                    stack.append((byte == UInt8(ascii: "{") ? [] : nil, currentPath))
                    expectKey = byte == UInt8(ascii: "{")
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard !stack.isEmpty else { return }
                    stack.removeLast()
                    expectKey = false
                    index += 1
                case UInt8(ascii: ","):
                    expectKey = stack.last?.keys != nil
                    index += 1
                case UInt8(ascii: "\""):
                    guard let string = readString() else { return }
                    if expectKey, var top = stack.popLast(), var keys = top.keys {
                        let path = top.path.isEmpty ? decoded(string) : top.path + "." + decoded(string)
                        guard keys.insert(string).inserted else {
                            throw APIError.malformed("the key \"\(decoded(string))\" appears twice", field: path)
                        }
                        top.keys = keys
                        stack.append(top)
                        lastKey = decoded(string)
                        expectKey = false
                    }
                default:
                    index += 1
                }
            }
        }

        var lastKey = ""

        private var currentPath: String {
            guard let top = stack.last, top.keys != nil else { return stack.last?.path ?? "" }
            return top.path.isEmpty ? lastKey : top.path + "." + lastKey
        }

        /// The raw bytes of a string literal (escapes kept), or nil when it never ends.
        private mutating func readString() -> [UInt8]? {
            index += 1
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    defer { index += 1 }
                    return Array(bytes[start..<index])
                default: index += 1
                }
            }
            return nil
        }

        private func decoded(_ raw: [UInt8]) -> String {
            String(decoding: raw, as: UTF8.self)
        }
    }
}
