import RingCastCore

/// Boards and rings the tests share: the default board's shape (DESIGN §1) in small.
enum Fixtures {
    static let white = RGBAColor(red: 1, green: 1, blue: 1)
    static let track = RGBAColor(hex: "#2c2c2e")!

    static func ring(
        _ id: String,
        kind: RingKind = .plain,
        cx: Double = 300,
        cy: Double = 330,
        r: Double = 220,
        colors: [RGBAColor] = [Palette.lightRed, Palette.darkRed]
    ) -> RingSpec {
        RingSpec(
            id: id,
            title: id.capitalized,
            cx: cx,
            cy: cy,
            r: r,
            thickness: 38,
            track: track,
            colors: colors,
            kind: kind,
            titleText: TextSpec(x: 140, y: 615, size: 20, align: "center"),
            labelText: TextSpec(x: 140, y: 660, size: 34, align: "center"),
            titleColor: RGBAColor(hex: "#8e8e93")!,
            labelColor: white
        )
    }

    static let tasks = ["task1", "task2", "task3", "task4"]

    /// Move, Exercise, Stand, four tasks, Overall (derived from the tasks) and a countdown.
    static let board = BoardSpec(
        name: "main",
        width: 1280,
        height: 720,
        background: RGBAColor(red: 0, green: 0, blue: 0),
        rings: [
            ring("move"),
            ring("exercise", r: 180, colors: [Palette.lightGreen, Palette.darkGreen]),
            ring("stand", r: 140, colors: [Palette.lightBlue, Palette.darkBlue]),
        ] + tasks.map { ring($0, r: 60) } + [
            ring("overall", kind: .derived(sources: tasks), r: 100),
            ring("countdown", kind: .countdown, r: 80),
        ]
    )
}

extension String {
    /// "task1" → "Task1", enough for fixture titles.
    var capitalized: String { prefix(1).uppercased() + dropFirst() }
}
