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
        var rings: [RingSpec] = []
        var ids = Set<String>()
        for (index, ring) in entries.enumerated() {
            let ringKey = ".rings[\(index)]"
            if let problem = Name.problem(of: ring.id, as: .ring) { throw fail(ringKey + ".id", problem) }
            guard ids.insert(ring.id).inserted else {
                throw fail(ringKey + ".id", "duplicate ring id \"\(ring.id)\"")
            }
            rings.append(try RingSpec(entry: ring, position: index) { subkey, message in fail(ringKey + subkey, message) })
        }
        let kinds = Dictionary(uniqueKeysWithValues: rings.map { ($0.id, $0.kind) })
        for (index, ring) in rings.enumerated() {
            if let problem = Self.sourceProblem(of: ring.id, kind: ring.kind, kinds: kinds) {
                throw fail(".rings[\(index)].sources", problem.reason)
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
            return
        }
        self.init(name: entry.name, title: entry.title, width: width, height: height, background: background, rings: rings)
        staleAfter = entry.staleAfter
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
                if let problem = RingSpec.textProblem(text) { throw fail(key + "." + name + problem.key, problem.message) }
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

extension RingSpec {
    init(
        entry: ConfigurationFile.RingEntry,
        position: Int,
        fail: (String, String) -> ConfigurationError
    ) throws(ConfigurationError) {
        let cx = entry.cx ?? 0
        let cy = entry.cy ?? 0
        let r = entry.r ?? 1
        let thickness = entry.thickness ?? 1
        if entry.isPlaced {
            for (name, value) in [("cx", entry.cx), ("cy", entry.cy), ("r", entry.r), ("thickness", entry.thickness)]
            where value == nil {
                throw fail("." + name, "a hand-placed ring needs cx, cy, r and thickness")
            }
            for (name, value) in [("cx", cx), ("cy", cy)] where !value.isFinite {
                throw fail("." + name, "must be a finite number")
            }
            guard r > 0, r.isFinite else { throw fail(".r", "must be positive, got \(r)") }
            guard thickness > 0, thickness <= 2 * r else {
                throw fail(".thickness", "must be positive and at most the diameter, got \(thickness)")
            }
        } else {
            for (name, present) in [("titleText", entry.titleText != nil), ("labelText", entry.labelText != nil)] where present {
                throw fail("." + name, "the server places the texts of a board it lays out; give no \(name)")
            }
        }
        let colors =
            entry.status?.colors ?? entry.colors
            ?? (entry.isPlaced && entry.widget == nil && entry.thresholds == nil
                ? [] : RingDefinition.defaultColors(at: position))
        if entry.widget?.kind == .gradient {
            guard Limits.gradientColors.contains(colors.count) else {
                throw fail(".colors", "a gradient holds 2 to 8 colours, got \(colors.count)")
            }
        } else {
            guard colors.count == 2 else {
                throw fail(".colors", "expected two colours [start, end], got \(colors.count)")
            }
        }
        // The API's checks, so that a ring the config takes is one the API takes and the other way round.
        if let title = entry.title {
            do { try Limits.check(title: title, field: nil) } catch { throw fail(".title", error.message) }
        }
        if let maximum = entry.max {
            do { try Limits.check(maximum: maximum, field: nil) } catch { throw fail(".max", error.message) }
        }
        if let seconds = entry.staleAfter {
            do { try Limits.check(staleAfter: seconds, field: nil) } catch { throw fail(".staleAfter", error.message) }
        }
        if case .text(let text) = entry.label {
            do { try Limits.check(labelText: text, field: nil) } catch { throw fail(".label.text", error.message) }
        }
        let kind: RingKind
        switch entry.kind ?? "plain" {
        case _ where entry.widget != nil:
            if entry.sources != nil { throw fail(".sources", "only a derived ring has sources") }
            if entry.label != nil { throw fail(".label", "a widget shows its own label") }
            kind = entry.widget?.kind ?? .plain
        case "plain":
            if entry.sources != nil { throw fail(".sources", "only a derived ring has sources") }
            kind = .plain
        case "derived":
            guard let sources = entry.sources, !sources.isEmpty else {
                throw fail(".sources", "a derived ring needs the ids of the rings it averages")
            }
            kind = .derived(sources: sources)
        case "countdown":
            if entry.sources != nil { throw fail(".sources", "only a derived ring has sources") }
            kind = .countdown
        case let other:
            let names = RingKind.names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw fail(".kind", "expected one of \(names), got \"\(other)\"")
        }
        let countdown = try Self.countdownOptions(of: entry, kind: kind, fail: fail)
        for (name, text) in [("titleText", entry.titleText), ("labelText", entry.labelText)] {
            guard let text, let problem = Self.textProblem(text) else { continue }
            throw fail(".\(name)" + problem.key, problem.message)
        }
        // Defaults: the label in the ring's centre, the title just below the ring.
        let labelSize = min(max(r * 0.36, 12), 64)
        let titleSize = min(max(r * 0.16, 12), 28)
        self.init(
            id: entry.id,
            title: entry.title ?? entry.id,
            cx: cx,
            cy: cy,
            r: r,
            thickness: thickness,
            track: entry.track ?? Self.defaultTrack,
            colors: colors,
            kind: kind,
            titleText: entry.titleText
                ?? TextSpec(x: cx, y: cy + r + thickness / 2 + titleSize, size: titleSize, align: "center"),
            labelText: entry.labelText ?? TextSpec(x: cx, y: cy, size: labelSize, align: "center"),
            // Without a colour the server picks one that contrasts with the background in every frame.
            titleColor: entry.titleColor,
            labelColor: entry.labelColor,
            label: entry.widget?.text.map(LabelFormat.text) ?? entry.label
                ?? (entry.kind == "text" ? .text(entry.id) : .percent),
            maximum: entry.max ?? RingSpec.defaultMaximum,
            value: entry.widget?.value,
            countdown: countdown,
            status: entry.status,
            thresholds: entry.thresholds
        )
        staleAfter = entry.staleAfter
    }

    /// What is wrong with a hand-placed text, as the key under it and why; nil when nothing is.
    static func textProblem(_ text: TextSpec) -> (key: String, message: String)? {
        guard ["left", "center", "right"].contains(text.align) else {
            return (".align", "expected \"left\", \"center\" or \"right\", got \"\(text.align)\"")
        }
        guard text.size > 0, text.size.isFinite, text.x.isFinite, text.y.isFinite else {
            return ("", "x, y must be finite and size positive")
        }
        if let width = text.width, !(width > 0 && width.isFinite) {
            return (".width", "must be a positive number")
        }
        return nil
    }

    /// The entry's `style`, `tenths`, `then` and `webhook`, which only a countdown ring takes; nil without any.
    private static func countdownOptions(
        of entry: ConfigurationFile.RingEntry,
        kind: RingKind,
        fail: (String, String) -> ConfigurationError
    ) throws(ConfigurationError) -> CountdownOptions? {
        let given = [
            ("style", entry.style != nil), ("tenths", entry.tenths != nil), ("then", entry.then != nil),
            ("webhook", entry.webhook != nil),
        ]
        guard let first = given.first(where: \.1)?.0 else { return nil }
        guard kind == .countdown else {
            throw fail("." + first, "only a countdown ring takes \(first); this ring is \(kind.name)")
        }
        var options = CountdownOptions(tenths: entry.tenths ?? false, webhook: entry.webhook)
        if let style = entry.style {
            guard let value = CountdownOptions.Style(rawValue: style) else {
                throw fail(".style", "expected \"ring\" or \"seed\", got \"\(style)\"")
            }
            options.style = value
        }
        if let then = entry.then {
            guard let value = CountdownOptions.Then(rawValue: then) else {
                throw fail(".then", "expected \"rest\", \"cancel\" or \"restart\", got \"\(then)\"")
            }
            options.then = value
        }
        if let webhook = entry.webhook, case .failure(let problem) = CountdownOptions.webhookTarget(webhook) {
            throw fail(".webhook", "\"\(webhook)\" \(problem.reason)")
        }
        return options
    }
}
