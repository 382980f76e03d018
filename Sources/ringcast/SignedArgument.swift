import ArgumentParser

/// One positional number that may start with `-` — a counter's `-5`, a countdown's `-3` — which ArgumentParser
/// would read as an option (swift-argument-parser issue #31) unless the argument collects it with
/// `.allUnrecognized`: then a negative number needs no `--` before it and reaches the command's own check of its
/// range, by name. This picks the value out of what was collected.
enum SignedArgument {
    /// The one value among `collected`, less a `--` before it (still accepted); nil when none was given. A word
    /// starting with `-` that is no number is an unknown option (`--maxx`), and a second value is one too many:
    /// usage errors, as ArgumentParser words them. `name` and `takes` say what the value is (`VALUE`, `one number,
    /// or none`).
    static func value(in collected: [String], named name: String, takes: String) throws(ValidationError) -> String? {
        let given = collected.filter { $0 != "--" }
        for argument in given where argument.hasPrefix("-") && Double(argument) == nil {
            throw ValidationError("Unknown option '\(argument)'")
        }
        if given.count > 1 {
            throw ValidationError("Unexpected argument '\(given[1])'; \(name) is \(takes)")
        }
        return given.first
    }
}
