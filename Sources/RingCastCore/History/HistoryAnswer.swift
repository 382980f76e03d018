/// The answer to `GET …/rings/{ring}/history` (issue 33): the kept points of the span asked for, thinned by M4 to at
/// most the points asked for (`Downsampling`), as JSON or as CSV. Pure: the same points give the same bytes on every
/// node, and its ETag is a digest of them.
public struct HistoryAnswer: Sendable, Equatable {
    public var board: String
    public var ring: String
    /// What a point's value is: `progress` (from 0 to 1: plain and derived rings, indicators) or `value` (a counter's
    /// number).
    public var field: String
    public var request: HistoryRequest
    /// How many points the span held before thinning.
    public var kept: Int
    /// Each point's `tick` in milliseconds since the Unix epoch, oldest first.
    public var points: [HistoryPoint]

    /// `points` (in milliseconds, oldest first: every point the span holds) thinned to `request.points`.
    public init(board: String, ring: String, kind: RingKind, request: HistoryRequest, points: [HistoryPoint]) {
        self.board = board
        self.ring = ring
        field = Self.field(of: kind)
        self.request = request
        kept = points.count
        self.points = Downsampling.m4(points, limit: request.points)
    }

    /// What a point's value is called for a ring of `kind`.
    public static func field(of kind: RingKind) -> String {
        if case .counter = kind { "value" } else { "progress" }
    }

    /// `{"board":…,"ring":…,"field":"progress","since":…,"until":…,"method":"m4","kept":N,"points":[{"t":…,
    /// "progress":…,"status":…},…]}` and a newline, as every JSON answer ends; `since` and `until` only when asked for. Written byte by byte into one buffer
    /// (`ByteText`): 10,000 points through string interpolation took 10 ms, this about 1.
    public var json: [UInt8] {
        var head = "{\"board\":\"\(board)\",\"ring\":\"\(ring)\",\"field\":\"\(field)\","
        if request.since != .min { head += "\"since\":\(request.since)," }
        if request.until != .max { head += "\"until\":\(request.until)," }
        head += "\"method\":\"m4\",\"kept\":\(kept),\"points\":["
        let open = Array("{\"t\":".utf8)
        let name = Array(",\"\(field)\":".utf8)
        let status = Array(",\"status\":\"".utf8)
        let perPoint = 3 + open.count + ByteText.longestInteger + name.count + ByteText.longestNumber + status.count
        let statuses = points.reduce(0) { $0 + ($1.status?.utf8.count ?? 0) }
        return ByteText.make(capacity: head.utf8.count + 3 + points.count * perPoint + statuses) { out in
            out.text(head)
            for (index, point) in points.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.bytes(open)
                out.integer(point.tick)
                out.bytes(name)
                out.number(point.value)
                if let text = point.status {
                    out.bytes(status)
                    out.text(text)
                    out.byte(UInt8(ascii: "\""))
                }
                out.byte(UInt8(ascii: "}"))
            }
            out.text("]}\n")
        }
    }

    /// `time,t,progress,status` and a row a point: its UTC time, its milliseconds, its value and status (empty
    /// when none).
    public var csv: [UInt8] {
        var out = Array("time,t,\(field),status\n".utf8)
        out.reserveCapacity(out.count + points.count * 56)
        for point in points {
            let row = "\(UTCTime.iso(milliseconds: point.tick)),\(point.tick),\(Self.number(point.value)),\(point.status ?? "")\n"
            out.append(contentsOf: row.utf8)
        }
        return out
    }

    /// A value as JSON and CSV write it: a whole number without `.0`, else Swift's shortest round-trip form.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
