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
    /// "progress":…,"status":…},…]}`; `since` and `until` only when asked for. Written byte by byte: 10,000 points
    /// through string interpolation took 10 ms, this 3 (issue 33's target is 5 ms for the whole answer).
    public var json: [UInt8] {
        var head = "{\"board\":\"\(board)\",\"ring\":\"\(ring)\",\"field\":\"\(field)\","
        if request.since != .min { head += "\"since\":\(request.since)," }
        if request.until != .max { head += "\"until\":\(request.until)," }
        head += "\"method\":\"m4\",\"kept\":\(kept),\"points\":["
        var out = Array(head.utf8)
        out.reserveCapacity(out.count + points.count * 48 + 2)
        let open = Array("{\"t\":".utf8)
        let name = Array(",\"\(field)\":".utf8)
        let status = Array(",\"status\":\"".utf8)
        for (index, point) in points.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: open)
            Self.append(point.tick, to: &out)
            out.append(contentsOf: name)
            Self.append(point.value, to: &out)
            if let text = point.status {
                out.append(contentsOf: status)
                out.append(contentsOf: text.utf8)
                out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// `time,t,progress,status` and a row a point: its UTC time, its milliseconds, its value and status (empty
    /// when none).
    public var csv: [UInt8] {
        var out = Array("time,t,\(field),status\n".utf8)
        out.reserveCapacity(out.count + points.count * 56)
        for point in points {
            out.append(contentsOf: UTCTime.iso(milliseconds: point.tick).utf8)
            out.append(UInt8(ascii: ","))
            Self.append(point.tick, to: &out)
            out.append(UInt8(ascii: ","))
            Self.append(point.value, to: &out)
            out.append(UInt8(ascii: ","))
            if let text = point.status { out.append(contentsOf: text.utf8) }
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// `value`'s decimal digits.
    static func append(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var count = 1
        var rest = magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        // Written in place from the last digit, without an array of its own.
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var index = out.count - 1
        repeat {
            out[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
    }

    /// A value as `number(_:)` writes it.
    static func append(_ value: Double, to out: inout [UInt8]) {
        if value == value.rounded(), abs(value) < 1e15 {
            append(Int64(value), to: &out)
        } else {
            out.append(contentsOf: value.description.utf8)
        }
    }

    /// A value as JSON and CSV write it: a whole number without `.0`, else Swift's shortest round-trip form.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
