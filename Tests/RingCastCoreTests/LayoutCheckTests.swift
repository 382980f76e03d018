import RingCastCore
import Testing

@Suite struct LayoutCheckTests {
    static let black = RGBAColor(red: 0, green: 0, blue: 0)

    static func ring(
        _ id: String, _ title: String, kind: RingKind = .plain, cx: Double, cy: Double, r: Double, thickness: Double,
        title titleText: (x: Double, y: Double, size: Double), label labelText: (x: Double, y: Double, size: Double),
        label: LabelFormat = .percent, maximum: Double = RingSpec.defaultMaximum
    ) -> RingSpec {
        RingSpec(
            id: id, title: title, cx: cx, cy: cy, r: r, thickness: thickness, track: Fixtures.track,
            colors: [Palette.lightRed, Palette.darkRed], kind: kind,
            titleText: TextSpec(x: titleText.x, y: titleText.y, size: titleText.size, align: "center"),
            labelText: TextSpec(x: labelText.x, y: labelText.y, size: labelText.size, align: "center"),
            titleColor: nil, labelColor: nil, label: label, maximum: maximum)
    }

    /// config/ringcast.json's main board, number for number.
    static let configMain = BoardSpec(
        name: "main", width: 1280, height: 720, background: black,
        rings: [
            ring("move", "Move", cx: 300, cy: 330, r: 220, thickness: 38, title: (140, 615, 20), label: (140, 660, 34)),
            ring(
                "exercise", "Exercise", cx: 300, cy: 330, r: 178, thickness: 38, title: (300, 615, 20),
                label: (300, 660, 34)),
            ring("stand", "Stand", cx: 300, cy: 330, r: 136, thickness: 38, title: (460, 615, 20), label: (460, 660, 34)),
            ring("task1", "Task 1", cx: 700, cy: 200, r: 72, thickness: 20, title: (700, 304, 18), label: (700, 200, 28)),
            ring("task2", "Task 2", cx: 880, cy: 200, r: 72, thickness: 20, title: (880, 304, 18), label: (880, 200, 28)),
            ring("task3", "Task 3", cx: 700, cy: 440, r: 72, thickness: 20, title: (700, 544, 18), label: (700, 440, 28)),
            ring("task4", "Task 4", cx: 880, cy: 440, r: 72, thickness: 20, title: (880, 544, 18), label: (880, 440, 28)),
            ring(
                "overall", "Overall", kind: .derived(sources: ["task1", "task2", "task3", "task4"]), cx: 1110, cy: 250,
                r: 120, thickness: 30, title: (1110, 410, 22), label: (1110, 250, 44)),
            ring(
                "countdown", "Countdown", kind: .countdown, cx: 1110, cy: 560, r: 70, thickness: 14,
                title: (1110, 665, 18), label: (1110, 560, 30)),
        ],
        groups: [["move", "exercise", "stand"]]
    )

    /// Two lone rings side by side, 200 apart, texts as config places a task's.
    static func pair(secondAt x: Double = 500, width: Double = 800, height: Double = 400) -> BoardSpec {
        BoardSpec(
            name: "pair", width: width, height: height, background: black,
            rings: [
                ring("task1", "Task 1", cx: 300, cy: 200, r: 72, thickness: 20, title: (300, 304, 18), label: (300, 200, 28)),
                ring("task2", "Task 2", cx: x, cy: 200, r: 72, thickness: 20, title: (x, 304, 18), label: (x, 200, 28)),
            ])
    }

    @Test func configsMainBoard_hasNoProblems() {
        #expect(LayoutCheck.problems(in: Self.configMain) == [])
    }

    @Test func ringsApart_haveNoProblems() {
        #expect(LayoutCheck.problems(in: Self.pair()) == [])
    }

    @Test func ringsWhoseDiscsIntersect_overlap() {
        let problems = LayoutCheck.problems(in: Self.pair(secondAt: 440))
        #expect(problems.map(\.description).contains(#"landscape: ring "task1" overlaps ring "task2""#))
        #expect(problems.first { $0.message.hasSuffix(#"overlaps ring "task2""#) }?.rings == ["task1", "task2"])
    }

    @Test func concentricRings_overlapWhenTheirBandsDo_notWhenTheyOnlyTouch() {
        var spec = Self.pair(secondAt: 300)
        spec.rings[0].titleText.y = 340  // below the bigger ring
        spec.rings[1].titleText = TextSpec(x: 600, y: 300, size: 18, align: "center")
        spec.rings[1].labelText = TextSpec(x: 600, y: 350, size: 28, align: "center")
        spec.rings[1].r = 100  // band 90...110 against 62...82: apart
        #expect(LayoutCheck.problems(in: spec) == [])
        spec.rings[1].r = 92  // band 82...102 touches 62...82
        #expect(LayoutCheck.problems(in: spec) == [])
        spec.rings[1].r = 91
        #expect(LayoutCheck.problems(in: spec).map(\.description) == [#"landscape: ring "task1" overlaps ring "task2""#])
    }

    @Test func aSmallRingInAnothersHole_doesNotOverlapIt() {
        let spec = BoardSpec(
            name: "nested", width: 800, height: 600, background: Self.black,
            rings: [
                Self.ring(
                    "outer", "Outer", cx: 300, cy: 300, r: 200, thickness: 20, title: (300, 530, 18), label: (300, 420, 28)),
                Self.ring(
                    "inner", "Inner", cx: 310, cy: 300, r: 40, thickness: 10, title: (310, 370, 14), label: (310, 300, 14)),
            ])
        #expect(LayoutCheck.problems(in: spec) == [])
    }

    @Test func titlesThatOverlap_areReported_namingBothRings() {
        var spec = Self.pair(secondAt: 500)
        spec.rings[0].titleText = TextSpec(x: 400, y: 350, size: 18, align: "left", width: 120)
        spec.rings[1].titleText = TextSpec(x: 510, y: 355, size: 18, align: "center", width: 60)
        let problems = LayoutCheck.problems(in: spec)
        #expect(problems.map(\.description) == [#"landscape: ring "task1"'s title overlaps ring "task2"'s title"#])
        #expect(problems.first?.rings == ["task1", "task2"])
    }

    @Test func aTitleOnAnotherRing_isReported() {
        var spec = Self.pair()
        spec.rings[0].titleText = TextSpec(x: 500, y: 130, size: 18, align: "center")
        #expect(
            LayoutCheck.problems(in: spec).map(\.description) == [
                #"landscape: ring "task1"'s title overlaps ring "task2""#
            ])
    }

    @Test func aLabelOnItsOwnStroke_isReported() {
        var spec = Self.pair()
        spec.rings[0].labelText.y = 200 - 72
        #expect(
            LayoutCheck.problems(in: spec).map(\.description) == [#"landscape: ring "task1"'s label overlaps its own ring"#])
    }

    @Test func aLabelTooWideForItsHole_isReported_byItsWidestText() {
        var spec = Self.pair()
        // 100% at 28 is 67 wide; 1000/1000 is 9 characters, 151 wide, wider than the 124 hole.
        spec.rings[0].label = .fraction
        spec.rings[0].maximum = 1000
        #expect(LayoutCheck.problems(in: spec).map(\.message) == [#"ring "task1"'s label overlaps its own ring"#])
        spec.rings[0].labelText.width = 90
        #expect(LayoutCheck.problems(in: spec) == [])
    }

    @Test func ringsAndTextsOutsideTheCanvas_areReported() {
        let tooSmall = LayoutCheck.problems(in: Self.pair(width: 560, height: 300)).map(\.description)
        #expect(
            tooSmall == [
                #"landscape: ring "task2" reaches outside the 560×300 canvas"#,
                #"landscape: ring "task1"'s title reaches outside the 560×300 canvas"#,
                #"landscape: ring "task2"'s title reaches outside the 560×300 canvas"#,
            ])
    }

    @Test func everyArrangement_isChecked_andNamed() {
        var spec = Self.pair()
        spec.alternates = [
            Arrangement(
                name: "portrait", width: 400, height: 800,
                placements: [
                    RingPlacement(
                        id: "task1", cx: 200, cy: 200, titleText: TextSpec(x: 200, y: 304, size: 18, align: "center"),
                        labelText: TextSpec(x: 200, y: 200, size: 28, align: "center")),
                    RingPlacement(
                        id: "task2", cx: 200, cy: 300, titleText: TextSpec(x: 200, y: 504, size: 18, align: "center"),
                        labelText: TextSpec(x: 200, y: 400, size: 28, align: "center")),
                ])
        ]
        let problems = LayoutCheck.problems(in: spec)
        #expect(problems.allSatisfy { $0.arrangement == "portrait" })
        #expect(problems.map(\.description).contains(#"portrait: ring "task1" overlaps ring "task2""#))
    }

    @Test func aRingWithoutPlacement_isReported() {
        var spec = Self.pair()
        spec.alternates = [Arrangement(name: "portrait", width: 400, height: 800, placements: [])]
        #expect(
            LayoutCheck.problems(in: spec).map(\.description) == [
                #"portrait: ring "task1" has no placement"#, #"portrait: ring "task2" has no placement"#,
            ])
    }

    @Test(arguments: [
        (LabelFormat.percent, RingKind.plain, 100.0, "100%"),
        (.fraction, .plain, 20, "20/20"),
        (.value, .plain, 12.6, "13"),
        (.text("Done"), .plain, 100, "Done"),
        (.percent, .countdown, 100, "00:00"),
        (.percent, .derived(sources: ["a"]), 100, "100%"),
    ])
    func widestLabel_isTheWidestTextTheLabelCanShow(format: LabelFormat, kind: RingKind, maximum: Double, widest: String) {
        let ring = Self.ring(
            "a", "A", kind: kind, cx: 0, cy: 0, r: 1, thickness: 1, title: (0, 0, 1), label: (0, 0, 1), label: format,
            maximum: maximum)
        #expect(LayoutCheck.widestLabel(of: ring) == widest)
    }
}
