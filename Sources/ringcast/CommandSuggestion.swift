/// What to say for a word that is no subcommand at its level (`ringcast psuh`, `ringcast board craete`): the
/// commands it is nearest to, or none when nothing is near, in which case the caller lists them all.
///
/// Near is a restricted Damerau–Levenshtein distance (optimal string alignment: insertions, deletions,
/// substitutions and swaps of two neighbours, each 1) of at most 2 and at most half the word, so `psuh` finds
/// `push` and `craete` `create` but `go` finds nothing; or the word is the start of exactly one command (`play`
/// for `playlist`). Letters are compared without case.
enum CommandSuggestion {
    /// The farthest a word may be from a command and still be taken for a typo of it.
    static let farthest = 2

    /// The commands of `names` nearest to `word`, in `names`' order (more than one only on a tie); empty when
    /// none is near.
    static func nearest(to word: String, among names: [String]) -> [String] {
        let typed = word.lowercased()
        guard !typed.isEmpty else { return [] }
        let starting = names.filter { $0.lowercased().hasPrefix(typed) }
        if typed.count >= 2, starting.count == 1 { return starting }
        let limit = min(farthest, typed.count / 2)
        let distances = names.map { (name: $0, distance: distance(typed, $0.lowercased())) }
        guard let best = distances.map(\.distance).min(), best <= limit else { return [] }
        return distances.filter { $0.distance == best }.map(\.name)
    }

    /// The optimal string alignment distance between `a` and `b`, over characters (Wagner–Fischer's table with
    /// Damerau's transposition step: Boytsov, "Indexing methods for approximate dictionary searching", 2011, §2).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // rows[i][j]: the distance between a's first i characters and b's first j.
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, rows[i - 2][j - 2] + 1)
                }
                rows[i][j] = best
            }
        }
        return rows[a.count][b.count]
    }

    /// The sentence after `unknown command 'WORD'`: `did you mean 'push'?`, `did you mean 'get' or 'set'?`, else
    /// the list of `names`.
    static func advice(for word: String, among names: [String]) -> String {
        let nearest = nearest(to: word, among: names)
        guard nearest.isEmpty else { return "did you mean \(listed(nearest, joinedBy: "or"))?" }
        return "the commands are \(listed(names, joinedBy: "and"))"
    }

    /// `'a'`, `'a' or 'b'`, `'a', 'b' and 'c'`.
    private static func listed(_ names: [String], joinedBy word: String) -> String {
        let quoted = names.map { "'\($0)'" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " \(word) " + last
    }
}
