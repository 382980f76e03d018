/// A number and its noun as a log line reads them: `1 board`, `2 boards`, `0 boards`.
struct Counted: CustomStringConvertible {
    var number: Int
    var noun: String

    init(_ number: Int, _ noun: String) {
        self.number = number
        self.noun = noun
    }

    var description: String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
