// TEMPORARY: replaced by the arranger branch.
public enum BoardTemplate: String, CaseIterable, Sendable {
    case activity, tasks, countdown, single, main
    public func rings(count: Int?) -> (rings: [RingSpec], groups: [[String]]) {
        let t = TextSpec(x: 0, y: 0, size: 20, align: "center")
        func ring(_ id: String, _ kind: RingKind = .plain) -> RingSpec {
            RingSpec(id: id, title: id, cx: 0, cy: 0, r: 1, thickness: 1, track: RGBAColor(red: 0, green: 0, blue: 0),
                colors: [Palette.lightRed, Palette.darkRed], kind: kind, titleText: t, labelText: t, titleColor: nil, labelColor: nil)
        }
        switch self {
        case .activity: return ([ring("move"), ring("exercise"), ring("stand")], [["move", "exercise", "stand"]])
        case .tasks:
            let ids = (1...(count ?? 4)).map { "task\($0)" }
            return (ids.map { ring($0) } + [ring("overall", .derived(sources: ids))], [])
        case .countdown: return ([ring("countdown", .countdown)], [])
        case .single: return ([ring("progress")], [])
        case .main: return ([ring("move"), ring("exercise"), ring("stand")], [["move", "exercise", "stand"]])
        }
    }
}
extension BoardSpec {
    public static func laidOut(name: String, title: String?, background: RGBAColor, rings: [RingSpec], groups: [[String]]) -> BoardSpec {
        var placed = rings
        for index in placed.indices {
            placed[index].cx = Double(100 + 200 * index); placed[index].cy = 100; placed[index].r = 60; placed[index].thickness = 20
            placed[index].titleText = TextSpec(x: placed[index].cx, y: 190, size: 16, align: "center", width: 150)
            placed[index].labelText = TextSpec(x: placed[index].cx, y: 100, size: 20, align: "center", width: 70)
        }
        let portrait = Arrangement(name: "portrait", width: 200, height: Double(200 * rings.count),
            placements: placed.enumerated().map { i, r in RingPlacement(id: r.id, cx: 100, cy: Double(100 + 200 * i), titleText: r.titleText, labelText: r.labelText) })
        return BoardSpec(name: name, title: title, width: Double(200 * rings.count), height: 200, background: background, rings: placed, groups: groups, alternates: [portrait])
    }
}
public enum LayoutCheck {
    public static func problems(in spec: BoardSpec) -> [String] { [] }
}
