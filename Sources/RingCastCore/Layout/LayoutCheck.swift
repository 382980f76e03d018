/// Checks that nothing in any arrangement of a board overlaps or leaves the canvas, whether the
/// server laid the board out or a config placed it by hand.
///
/// A ring takes its annulus, the band r ± thickness / 2 around its centre. Two rings overlap when
/// their annuli share area: with the same centre, when their radial bands do; else when their discs
/// (radius r + thickness / 2) do, unless one disc lies wholly in the other's hole. A counter or text widget
/// takes no annulus: it draws only its texts. A text takes a box
/// `size` high and its `width` wide, placed by its `align` (without a width, `estimatedWidth`). Boxes
/// must not overlap each other or any ring's annulus (a label inside its ring's hole touches none);
/// discs and boxes must lie inside the canvas. Touching is not overlapping.
public enum LayoutCheck {
    /// Every problem in every arrangement of `spec`, arrangements in order, then rings in the board's order.
    public static func problems(in spec: BoardSpec) -> [LayoutProblem] {
        spec.arrangements.flatMap { problems(in: $0, of: spec) }
    }

    /// The average advance of a character in a font of size 1 that the check assumes for a text
    /// without a width. Semibold and bold sans-serif digits and letters advance about 0.55 to 0.6 of
    /// the size; 0.6 errs wide and still passes config/ringcast.json's hand-placed main board.
    public static let characterWidth = 0.6

    /// A text box's width without a `width`: its characters × 0.6 × size. For a label, the widest
    /// it can show: `100%`, `M/M` or `M` (M the ring's maximum as an integer), its fixed text, or
    /// `00:00` for a countdown.
    public static func estimatedWidth(of text: TextSpec, showing string: String) -> Double {
        Double(string.count) * characterWidth * text.size
    }

    /// The widest string `ring`'s label shows.
    public static func widestLabel(of ring: RingSpec) -> String {
        if ring.kind.tag == .countdown { return "00:00" }
        let maximum =
            ring.maximum.isFinite && abs(ring.maximum) < 1e15 ? String(Int64(ring.maximum.rounded())) : "100"
        switch ring.label {
        case .percent: return "100%"
        case .fraction: return "\(maximum)/\(maximum)"
        case .value: return maximum
        case .text(let text): return text
        case .rate: return RecentHistory.widestRate
        case .eta: return RecentHistory.widestETA
        }
    }

    private struct Disc {
        var id: String
        var x: Double
        var y: Double
        var inner: Double
        var outer: Double
    }

    private struct Box {
        var name: String
        var id: String
        var left: Double
        var top: Double
        var right: Double
        var bottom: Double

        init(_ text: TextSpec, width: Double, id: String, name: String) {
            switch text.align {
            case "left": left = text.x
            case "right": left = text.x - width
            default: left = text.x - width / 2
            }
            right = left + width
            top = text.y - text.size / 2
            bottom = text.y + text.size / 2
            self.id = id
            self.name = name
        }

        func overlaps(_ other: Box) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }

        /// Whether the box shares area with the annulus of `disc`: the distances from the centre to
        /// the box's points run from its nearest to its farthest point, and the band must cut that range.
        func overlaps(_ disc: Disc) -> Bool {
            let nearX = max(left - disc.x, 0, disc.x - right)
            let nearY = max(top - disc.y, 0, disc.y - bottom)
            let farX = max(abs(left - disc.x), abs(right - disc.x))
            let farY = max(abs(top - disc.y), abs(bottom - disc.y))
            let near = (nearX * nearX + nearY * nearY).squareRoot()
            let far = (farX * farX + farY * farY).squareRoot()
            return near < disc.outer && far > disc.inner
        }
    }

    private static func problems(in arrangement: Arrangement, of spec: BoardSpec) -> [LayoutProblem] {
        var found: [LayoutProblem] = []
        func report(_ rings: [String], _ message: String) {
            found.append(LayoutProblem(arrangement: arrangement.name, rings: rings, message: message))
        }
        let canvas = "the \(number(arrangement.width))×\(number(arrangement.height)) canvas"
        var discs: [Disc] = []
        var boxes: [Box] = []
        for ring in spec.rings {
            guard let placement = arrangement.placement(of: ring.id) else {
                report([ring.id], "ring \"\(ring.id)\" has no placement")
                continue
            }
            // A counter or text widget draws no ring, only its value (its label box) where the ring would be.
            if !Arranger.Cell.drawsOnlyItsValue(ring) {
                discs.append(
                    Disc(
                        id: ring.id, x: placement.cx, y: placement.cy, inner: ring.r - ring.thickness / 2,
                        outer: ring.r + ring.thickness / 2))
            }
            let title = placement.titleText
            let label = placement.labelText
            boxes.append(
                Box(title, width: title.width ?? estimatedWidth(of: title, showing: ring.title), id: ring.id, name: "title"))
            boxes.append(
                Box(
                    label, width: label.width ?? estimatedWidth(of: label, showing: widestLabel(of: ring)), id: ring.id,
                    name: "label"))
        }
        for disc in discs
        where disc.x - disc.outer < 0 || disc.y - disc.outer < 0 || disc.x + disc.outer > arrangement.width
            || disc.y + disc.outer > arrangement.height
        {
            report([disc.id], "ring \"\(disc.id)\" reaches outside \(canvas)")
        }
        for (index, a) in discs.enumerated() {
            for b in discs[(index + 1)...] where overlap(a, b) {
                report([a.id, b.id], "ring \"\(a.id)\" overlaps ring \"\(b.id)\"")
            }
        }
        for (index, box) in boxes.enumerated() {
            let what = "ring \"\(box.id)\"'s \(box.name)"
            if box.left < 0 || box.top < 0 || box.right > arrangement.width || box.bottom > arrangement.height {
                report([box.id], "\(what) reaches outside \(canvas)")
            }
            for disc in discs where box.overlaps(disc) {
                report(
                    box.id == disc.id ? [box.id] : [box.id, disc.id],
                    box.id == disc.id ? "\(what) overlaps its own ring" : "\(what) overlaps ring \"\(disc.id)\"")
            }
            for other in boxes[(index + 1)...] where box.overlaps(other) {
                report(
                    box.id == other.id ? [box.id] : [box.id, other.id],
                    "\(what) overlaps ring \"\(other.id)\"'s \(other.name)")
            }
        }
        return found
    }

    /// Whether two annuli share area.
    private static func overlap(_ a: Disc, _ b: Disc) -> Bool {
        if a.x == b.x && a.y == b.y {
            return a.inner < b.outer && b.inner < a.outer
        }
        let dx = a.x - b.x
        let dy = a.y - b.y
        let distance = (dx * dx + dy * dy).squareRoot()
        guard distance < a.outer + b.outer else { return false }
        // One disc wholly in the other's hole.
        return !(distance + a.outer <= b.inner || distance + b.outer <= a.inner)
    }

    /// `1280` for whole numbers, else as Swift prints the double.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
