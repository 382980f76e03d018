/// A configuration problem, reported with where the value came from and what is wrong, so an
/// operator can fix it without reading source code:
///
/// - `config/ringcast.json: boards[0].rings[2].r: must be positive, got -1` (a key of the file);
/// - `config/ringcast.json:12:5: expected "," or "}", found the string "fps"` (JSON that does not parse);
/// - `RINGCAST_TOKEN: a token needs at least 8 characters …` or `--port: expected 0…65535, got 70000`
///   (a value from an environment variable or a flag, which `key` then names).
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The config file; nil when the value came from an environment variable or a flag.
    public var file: String?
    /// Where in `file` the JSON stops parsing: 1-based line, and column counted in characters.
    public var line: Int?
    public var column: Int?
    /// The key of the file (`boards[0].name`), or the variable or flag that set the value; empty
    /// for the file as a whole.
    public var key: String
    public var message: String

    public init(file: String?, key: String, message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    /// A syntax error at `line`:`column` of `file`.
    public init(file: String, line: Int, column: Int, message: String) {
        self.init(file: file, key: "", message: message)
        self.line = line
        self.column = column
    }

    public var description: String {
        var location = file ?? ""
        if let line, let column { location += ":\(line):\(column)" }
        return ([location, key].filter { !$0.isEmpty } + [message]).joined(separator: ": ")
    }
}
