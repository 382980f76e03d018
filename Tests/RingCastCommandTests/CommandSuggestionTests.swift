import ArgumentParser
import Testing

@testable import ringcast

/// Issue 34: a word that names no command is answered with the nearest command at its level, or with the list
/// of them; the suggestion by table, and the line `ringcast` prints for it, parsed in process.
@Suite("ringcast suggests the command meant")
struct CommandSuggestionTests {
    @Test(arguments: [
        ("push", "push", 0),
        ("psuh", "push", 1),  // two neighbours swapped: one step, not two
        ("craete", "create", 1),
        ("pus", "push", 1),
        ("pushh", "push", 1),
        ("bord", "board", 1),
        ("hitsory", "history", 1),
        ("ca", "abc", 3),  // optimal string alignment: no edit of a swapped pair
        ("", "get", 3),
        ("kitten", "sitting", 3),
    ])
    func distance_countsInsertionsDeletionsSubstitutionsAndSwaps(a: String, b: String, distance: Int) {
        #expect(CommandSuggestion.distance(a, b) == distance)
        #expect(CommandSuggestion.distance(b, a) == distance)
    }

    static let root = ["serve", "push", "get", "history", "countdown", "board", "ring", "widget", "playlist"]

    @Test(arguments: [
        ("psuh", root, ["push"]),
        ("PUSH", root, ["push"]),
        ("gte", root, ["get"]),
        ("hist", root, ["history"]),  // the start of one command
        ("play", root, ["playlist"]),
        ("wiget", root, ["widget"]),
        ("craete", ["create", "set", "delete", "list"], ["create"]),
        ("lst", ["create", "set", "delete", "list"], ["list"]),
        ("st", ["create", "set", "delete", "list"], ["set"]),
        ("nope", root, []),
        ("go", root, []),  // two edits of a two-letter word is another word
        ("x", root, []),
        ("deploy", root, []),
    ])
    func nearest_isWithinTwoEditsAndHalfTheWord(word: String, names: [String], nearest: [String]) {
        #expect(CommandSuggestion.nearest(to: word, among: names) == nearest)
    }

    @Test func aTie_namesEach() {
        #expect(CommandSuggestion.nearest(to: "sat", among: ["set", "get", "sit"]) == ["set", "sit"])
        #expect(CommandSuggestion.advice(for: "sat", among: ["set", "get", "sit"]) == "did you mean 'set' or 'sit'?")
    }

    /// The line `ringcast` prints for `arguments`, as `main()` prints it, and its exit status.
    private func line(_ arguments: [String]) -> (text: String, status: Int32)? {
        do {
            _ = try RingCastCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return RingCastCommand.oneLine(for: error, arguments: arguments).map { ($0.text, $0.status.rawValue) }
        }
    }

    @Test(arguments: [
        (["psuh", "main", "move", "0.5"], "ringcast: unknown command 'psuh'; did you mean 'push'? (see ringcast --help)"),
        (["board", "craete", "x"], "ringcast: unknown command 'craete'; did you mean 'create'? (see ringcast board --help)"),
        (
            ["playlist", "delte", "wall"],
            "ringcast: unknown command 'delte'; did you mean 'delete'? (see ringcast playlist --help)"
        ),
        (
            ["nope"],
            "ringcast: unknown command 'nope'; the commands are 'serve', 'push', 'get', 'history', 'countdown', 'board', "
                + "'ring', 'widget' and 'playlist' (see ringcast --help)"
        ),
        (
            ["playlist", "show", "wall"],
            "ringcast: unknown command 'show'; the commands are 'set', 'get', 'list' and 'delete' (see ringcast playlist --help)"
        ),
        // Not a command's place: ArgumentParser's own words, as before.
        (["push", "main", "move", "0.5", "--maxx", "2"], "ringcast: unknown option '--maxx' (see ringcast push --help)"),
        (["get", "main", "move", "extra"], "ringcast: unexpected argument 'extra' (see ringcast get --help)"),
    ])
    func anUnknownCommand_isOneLineWithExitStatus64_namingTheNearest(arguments: [String], expected: String) throws {
        let printed = try #require(line(arguments))
        #expect(printed.text == expected)
        #expect(printed.status == 64)
    }
}
