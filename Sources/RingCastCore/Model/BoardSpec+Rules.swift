/// The rules every board's rings obey, whoever describes them (the API, the configuration, the store):
/// each finder returns the first problem, and its caller reports it in its own words (`APIError`,
/// a configuration error, `BoardStateError`).
extension BoardSpec {
    /// A problem with one ring's sources or one group: where it is (the source's or group's position) and why.
    public struct RuleProblem: Sendable, Equatable {
        public var index: Int
        public var reason: String
    }

    /// The first source of the ring `id` (of `kind`) that is not another plain ring among `kinds` (every ring
    /// of the board by id); nil when all are, or the ring is not derived.
    public static func sourceProblem(of id: String, kind: RingKind, kinds: [String: RingKind.Name]) -> RuleProblem? {
        guard let sources = kind.sources else { return nil }
        guard !sources.isEmpty else { return RuleProblem(index: 0, reason: "a derived ring needs sources") }
        for (index, source) in sources.enumerated() where source == id || kinds[source] != .plain {
            let why = kinds[source] == nil ? "is not a ring of this board" : "is not another plain ring"
            return RuleProblem(
                index: index, reason: "source \(RequestField.quoted(source)) \(why): a derived ring averages plain rings")
        }
        return nil
    }

    /// The first group that is empty, names a ring the board does not have (`ids`) or a widget (`widgets`:
    /// only rings nest), or names a ring an earlier group has; nil when there is none.
    public static func groupProblem(in groups: [[String]], ids: Set<String>, widgets: Set<String> = []) -> RuleProblem? {
        var grouped = Set<String>()
        for (index, group) in groups.enumerated() {
            guard !group.isEmpty else { return RuleProblem(index: index, reason: "a group needs at least one ring") }
            for id in group {
                guard ids.contains(id) else {
                    return RuleProblem(
                        index: index, reason: "group names \(RequestField.quoted(id)), which is not a ring of this board")
                }
                guard !widgets.contains(id) else {
                    return RuleProblem(
                        index: index, reason: "\(RequestField.quoted(id)) is a widget: only rings join concentric groups")
                }
                guard grouped.insert(id).inserted else {
                    return RuleProblem(index: index, reason: "ring \(RequestField.quoted(id)) is in more than one group")
                }
            }
        }
        return nil
    }
}
