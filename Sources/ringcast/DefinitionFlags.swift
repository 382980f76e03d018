import RingCastCore

/// The flags of `ringcast ring add` and `widget add` as a ring definition: the core's one model
/// (`RingSpec`), sent as its one codec writes an API body (`RingSpec.Request`), so what the CLI
/// sends is what the server reads. A flag the kind does not take is refused in the API's words.
enum DefinitionFlags {
    /// The kinds a ring can have, as the API names them.
    static let ringKinds = RingKind.Name.allCases.filter(\.isRing).map(\.rawValue)
    /// The kinds of the other widgets, as the API names them.
    static let widgetKinds = RingKind.Name.allCases.filter { !$0.isRing }.map(\.rawValue)

    /// Refuses each definition key given (`given`: key and flag) that `kind` does not take, naming the flag.
    static func check(_ given: [(key: String, flag: String)], for kind: RingKind.Name) throws(CommandFailure) {
        for (key, flag) in given {
            do {
                try kind.check(definitionKey: key, field: nil)
            } catch {
                throw CommandFailure("\(flag): \(error.message)")
            }
        }
    }

    /// Colours given as `#rrggbb` strings (already checked by `ColorArgument`).
    static func colors(_ texts: [String]?) -> [RGBAColor]? {
        texts?.compactMap(RGBAColor.init(hex:))
    }

    /// A status by name, refused in the API's words.
    static func status(_ name: String?) throws(CommandFailure) -> RingStatus? {
        guard let name else { return nil }
        guard let status = RingStatus(rawValue: name) else {
            throw CommandFailure("--status: status must be one of \(RingStatus.listed), got \"\(name)\"")
        }
        return status
    }

    /// The API's check of a title (`Limits.check(title:)`), for `--title`.
    static func check(title: String?) throws(CommandFailure) {
        guard let title else { return }
        do {
            try Limits.check(title: title, field: nil)
        } catch {
            throw CommandFailure("--title: \(error.message)")
        }
    }

    /// The API's check of a ring's `max` (`Limits.ringMaximums`), for `--max`.
    static func check(max: Double?) throws(CommandFailure) {
        try PushAnimation.check("--max", max, in: Limits.ringMaximums, unit: "")
    }

    /// `POST /api/v1/boards/BOARD/rings` with `ring` (and `group`), checked by the server's own reader of
    /// that body before anything is sent.
    static func request(board: String, ring: RingSpec, group: String? = nil) throws(CommandFailure) -> APIRequest {
        try APIRequest("POST", ["boards", board, "rings"], json: Body(ring: ring, group: group), checkedAs: NewRing.self)
    }

    /// The definition and, for `ring add --group`, the group.
    private struct Body: Encodable {
        var ring: RingSpec
        var group: String?

        func encode(to encoder: any Encoder) throws {
            try RingSpec.Request(ring).encode(to: encoder)
            guard let group else { return }
            var object = encoder.container(keyedBy: GroupKey.self)
            try object.encode(group, forKey: .group)
        }

        private enum GroupKey: String, CodingKey { case group }
    }
}
