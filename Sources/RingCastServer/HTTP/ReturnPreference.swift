/// What a write's `Prefer` header (RFC 7240) asks of its answer: the board as a GET shows it (the default), or
/// `return=minimal`, the status with the `ETag` and `Location` alone, which costs the server no encoding of the
/// board: a client that only needs to know the write is durable (a CI job, a script pushing in a loop) asks for it.
///
/// Preferences are comma-separated and their names case-insensitive; a value may be quoted; parameters after `;`
/// are ignored, and of a preference given twice only the first counts (RFC 7240 §2). One the server does not know
/// is ignored, as the RFC asks: a preference never makes a request fail.
enum ReturnPreference: Equatable {
    case representation
    case minimal

    /// The `Preference-Applied` header an answer carries when it honoured `return=minimal`.
    static let applied = (name: "Preference-Applied", value: "return=minimal")

    init(prefer header: String?) {
        self = .representation
        guard let header else { return }
        for preference in header.split(separator: ",") {
            let token = preference.split(separator: ";", maxSplits: 1).first ?? ""
            let parts = token.split(separator: "=", maxSplits: 1)
            guard parts.first?.trimmed.lowercased() == "return" else { continue }
            var value = parts.count == 2 ? parts[1].trimmed : ""
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            if value.lowercased() == "minimal" { self = .minimal }
            return
        }
    }
}

extension Substring {
    fileprivate var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
