extension BoardReading {
    /// `rings` as `ringcast get` prints them: a header, then a line per ring with its id, title,
    /// displayed progress, label and pushed target, in aligned columns; `—` where a ring has no
    /// data, and `animating` after a ring that is still moving.
    static func table(_ rings: [Ring], countdown: Countdown?) -> String {
        let header = ["ring", "title", "progress", "label", "target"]
        let rows = rings.map { ring in
            [ring.id, ring.title, number(ring.progress), ring.label(countdown: countdown), number(ring.target)]
                + (ring.animating ? ["animating"] : [])
        }
        return TextTable(rows: [header] + rows).description
    }

    /// Up to 4 decimals, without trailing zeros ("0.42", "1"); `—` for no data.
    private static func number(_ value: Double?) -> String {
        guard let value else { return "—" }
        let rounded = (value * 10_000).rounded() / 10_000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
