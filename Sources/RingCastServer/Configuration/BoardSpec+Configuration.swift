import Foundation
import RingCastCore

/// Boards and rings as the configuration file describes them: hand-placed, or laid out by the
/// server from a template or from rings without coordinates (docs/CONFIGURATION.md).
extension BoardSpec {
    init(entry: ConfigurationFile.BoardEntry, key: String, file: String, maximumRings: Int) throws(ConfigurationError) {
        func fail(_ subkey: String, _ message: String) -> ConfigurationError {
            ConfigurationError(file: file, key: key + subkey, message: message)
        }
        // The API's rule (`Name`): a board the file names is one the API, a playlist and a token can name too.
        if let problem = Name.problem(of: entry.name, as: .board) { throw fail(".name", problem) }
        if let title = entry.title {
            do { try Limits.check(title: title, field: nil) } catch { throw fail(".title", error.message) }
        }
        let background = entry.background ?? RGBAColor(red: 0, green: 0, blue: 0)
        if let seconds = entry.staleAfter {
            do { try Limits.check(staleAfter: seconds, field: nil) } catch { throw fail(".staleAfter", error.message) }
        }
        do {
            try entry.history?.validate(field: nil)
        } catch {
            throw fail(".history.\(error.field ?? "")", error.message)
        }
        if let name = entry.template {
            guard let template = BoardTemplate(rawValue: name) else {
                let known = BoardTemplate.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw fail(".template", "unknown template \"\(name)\"; the templates are \(known)")
            }
            for (subkey, present) in [
                ("rings", entry.rings != nil), ("groups", entry.groups != nil), ("width", entry.width != nil),
                ("height", entry.height != nil),
            ] where present {
                throw fail(".\(subkey)", "a board made from a template is laid out by the server; give no \(subkey)")
            }
            let (rings, groups): ([RingSpec], [[String]])
            do {
                (rings, groups) = try template.rings(count: entry.count, maximumRings: maximumRings)
            } catch {
                throw fail(".\(error.field ?? "template")", error.message)
            }
            self = .laidOut(name: entry.name, title: entry.title, background: background, rings: rings, groups: groups)
            staleAfter = entry.staleAfter
            history = entry.history
            return
        }
        if entry.count != nil { throw fail(".count", "count goes with \"template\": \"tasks\"") }
        guard let entries = entry.rings, !entries.isEmpty else {
            throw fail(".rings", "a board needs at least one ring, or a template")
        }
        let placed = entries.filter(\.isPlaced).count
        guard placed == 0 || placed == entries.count else {
            let index = entries.firstIndex { !$0.isPlaced } ?? 0
            throw fail(
                ".rings[\(index)]",
                "place every ring (cx, cy, r, thickness) or none: the server lays out a board only as a whole")
        }
        let handPlaced = placed > 0
        if handPlaced {
            guard let width = entry.width, let height = entry.height, width > 0, height > 0, width.isFinite, height.isFinite
            else {
                throw fail(".width", "a hand-placed board needs a positive width and height")
            }
            if entry.groups != nil {
                throw fail(".groups", "groups are for boards the server lays out; a hand-placed board places its rings itself")
            }
        } else {
            if entry.portrait != nil {
                throw fail(
                    ".portrait", "the server lays out both arrangements of a board whose rings give no cx, cy, r, thickness")
            }
            for (subkey, present) in [("width", entry.width != nil), ("height", entry.height != nil)] where present {
                throw fail(
                    ".\(subkey)", "the server lays out a board whose rings give no cx, cy, r, thickness; give no \(subkey)")
            }
        }
        // Each ring was read and checked by its kind's one codec (`RingEntry`); what is left is the board's.
        var rings: [RingSpec] = []
        var ids = Set<String>()
        for (index, entry) in entries.enumerated() {
            guard ids.insert(entry.ring.id).inserted else {
                throw fail(".rings[\(index)].id", "duplicate ring id \"\(entry.ring.id)\"")
            }
            rings.append(entry.ring.placed(at: index))
        }
        let kinds = Dictionary(uniqueKeysWithValues: rings.map { ($0.id, $0.kind.tag) })
        for (index, ring) in rings.enumerated() {
            if let problem = Self.sourceProblem(of: ring.id, kind: ring.kind, kinds: kinds) {
                throw fail(".rings[\(index)].sources[\(problem.index)]", problem.reason)
            }
        }
        guard handPlaced, let width = entry.width, let height = entry.height else {
            let groups = entry.groups ?? []
            let widgets = Set(rings.filter { !$0.kind.isRing }.map(\.id))
            if let problem = Self.groupProblem(in: groups, ids: ids, widgets: widgets) {
                throw fail(".groups[\(problem.index)]", problem.reason)
            }
            self = .laidOut(name: entry.name, title: entry.title, background: background, rings: rings, groups: groups)
            staleAfter = entry.staleAfter
            history = entry.history
            return
        }
        self.init(name: entry.name, title: entry.title, width: width, height: height, background: background, rings: rings)
        staleAfter = entry.staleAfter
        history = entry.history
        for problem in LayoutCheck.problems(in: self).prefix(1) {
            throw fail("", "\(problem); move the rings or their texts apart")
        }
        guard let given = entry.portrait else {
            self = self.withPortrait()
            return
        }
        self = self.withPortrait(try Self.portrait(given, of: rings) { subkey, message in fail(".portrait" + subkey, message) })
        for problem in LayoutCheck.problems(in: self).prefix(1) {
            throw fail(".portrait", "\(problem); move the rings or their texts apart")
        }
    }

    /// The config's own portrait arrangement of hand-placed `rings`: a positive canvas, every ring once, finite
    /// places and valid texts (what overlaps is `LayoutCheck`'s to say).
    private static func portrait(
        _ entry: ConfigurationFile.PortraitEntry, of rings: [RingSpec], fail: (String, String) -> ConfigurationError
    ) throws(ConfigurationError) -> Arrangement {
        guard entry.width > 0, entry.height > 0, entry.width.isFinite, entry.height.isFinite else {
            throw fail(".width", "a portrait needs a positive width and height")
        }
        var placed: [String: RingPlacement] = [:]
        for (index, place) in entry.rings.enumerated() {
            let key = ".rings[\(index)]"
            guard rings.contains(where: { $0.id == place.id }) else {
                let known = rings.map { "\"\($0.id)\"" }.joined(separator: ", ")
                throw fail(key + ".id", "the board has no ring \"\(place.id)\"; its rings are \(known)")
            }
            guard placed[place.id] == nil else { throw fail(key + ".id", "ring \"\(place.id)\" is placed twice") }
            for (name, value) in [("cx", place.cx), ("cy", place.cy)] where !value.isFinite {
                throw fail(key + "." + name, "must be a finite number")
            }
            for (name, text) in [("titleText", place.titleText), ("labelText", place.labelText)] {
                if let problem = RingPlace.textProblem(text) { throw fail(key + "." + name + problem.key, problem.message) }
            }
            placed[place.id] = RingPlacement(
                id: place.id, cx: place.cx, cy: place.cy, titleText: place.titleText, labelText: place.labelText)
        }
        if let missing = rings.first(where: { placed[$0.id] == nil }) {
            throw fail(".rings", "ring \"\(missing.id)\" has no place; a portrait places every ring of the board")
        }
        return Arrangement(
            name: "portrait", width: entry.width, height: entry.height, placements: rings.compactMap { placed[$0.id] })
    }
}
