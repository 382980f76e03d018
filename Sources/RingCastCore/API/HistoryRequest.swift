/// The query of `GET /api/v1/boards/{board}/rings/{ring}/history` (issue 33): the span and how many points at most.
///
/// `since` and `until` each take milliseconds since the Unix epoch (`1764709200000`), a UTC time in ISO 8601
/// (`2026-12-02T21:00:00Z`, with or without fractional seconds), `now`, or a span back from now (`90s`, `15m`, `1h`,
/// `7d`); `points` is how many points the answer holds at most (the server thins the span to them, `Downsampling`).
public struct HistoryRequest: Sendable, Equatable {
    /// Milliseconds since the Unix epoch, both included.
    public var since: Int64
    public var until: Int64
    public var points: Int

    /// Points an answer holds unless `points` says otherwise.
    public static let defaultPoints = 1_000
    /// The most points an answer holds.
    public static let maximumPoints = 100_000

    public init(since: Int64, until: Int64, points: Int = defaultPoints) {
        self.since = since
        self.until = until
        self.points = points
    }

    /// Reads `query` at `now` (milliseconds since the Unix epoch): without `since` from the first point kept,
    /// without `until` through the newest (a write just accepted starts at the next tick, after now). Throws 400 naming the parameter for anything else.
    public init(_ query: [String: String], now: Int64) throws(APIError) {
        since = try query["since"].map { text throws(APIError) in try Self.time(text, field: "since", now: now) } ?? .min
        until = try query["until"].map { text throws(APIError) in try Self.time(text, field: "until", now: now) } ?? .max
        if let text = query["points"] {
            guard let count = Int(text), (2...Self.maximumPoints).contains(count) else {
                throw .malformed(
                    "points must be a whole number from 2 to \(Self.maximumPoints), got \"\(text)\"", field: "points")
            }
            points = count
        } else {
            points = Self.defaultPoints
        }
        guard since <= until else {
            throw .malformed("since (\(Self.iso(since))) is after until (\(Self.iso(until)))", field: "since")
        }
    }

    /// What `since` and `until` take, as a message lists it.
    static let accepted =
        "milliseconds since the Unix epoch, a UTC time like 2026-12-02T21:00:00Z, now, or a span back from now like "
        + "90s, 15m, 1h or 7d"

    /// One time parameter at `now`.
    static func time(_ text: String, field: String, now: Int64) throws(APIError) -> Int64 {
        if text == "now" { return now }
        if let milliseconds = Int64(text), milliseconds >= 0 { return milliseconds }
        if let span = span(text) { return now - span }
        if let time = UTCTime.milliseconds(iso: text) { return time }
        throw .malformed("\(field) must be \(accepted), got \"\(text)\"", field: field)
    }

    /// `90s`, `15m`, `1h`, `7d` in milliseconds (at most 100 years); nil for anything else.
    static func span(_ text: String) -> Int64? {
        guard let unit = text.last, let count = Int64(text.dropLast()), count >= 0, count <= 36_500 * 86_400 else {
            return nil
        }
        let seconds: Int64
        switch unit {
        case "s": seconds = count
        case "m": seconds = count * 60
        case "h": seconds = count * 3_600
        case "d": seconds = count * 86_400
        default: return nil
        }
        guard seconds <= 36_500 * 86_400 else { return nil }
        return seconds * 1_000
    }

    static func iso(_ milliseconds: Int64) -> String {
        milliseconds == .min ? "the first point" : milliseconds == .max ? "the newest" : UTCTime.iso(milliseconds: milliseconds)
    }
}

/// UTC times as ISO 8601 text and back, in whole milliseconds, without a formatter: a CSV of 10,000 points formats
/// 10,000 of them (Howard Hinnant's days-from-civil and civil-from-days).
public enum UTCTime {
    /// `2026-12-02T21:00:00.000Z`.
    public static func iso(milliseconds: Int64) -> String {
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let inDay = milliseconds - days * 86_400_000
        let (year, month, day) = civil(days: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milli = inDay % 1_000
        let fraction = milli < 10 ? "00\(milli)" : milli < 100 ? "0\(milli)" : "\(milli)"
        return "\(year)-\(two(month))-\(two(day))T\(two(inDay / 3_600_000)):\(two(inDay / 60_000 % 60)):"
            + "\(two(inDay / 1_000 % 60)).\(fraction)Z"
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z` (or `+00:00`) in milliseconds since the Unix epoch; nil for anything else.
    public static func milliseconds(iso text: String) -> Int64? {
        var text = Substring(text)
        if text.hasSuffix("Z") {
            text = text.dropLast()
        } else if text.hasSuffix("+00:00") {
            text = text.dropLast(6)
        } else {
            return nil
        }
        // Digits and separators only: Int64("+1") is 1, and the fraction's digits past the third are not read.
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || "-T:.".contains($0)) }) else { return nil }
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, clock.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
            clock[0].count == 2, clock[1].count == 2,
            let year = Int64(date[0]), let month = Int64(date[1]), let day = Int64(date[2]),
            let hour = Int64(clock[0]), let minute = Int64(clock[1])
        else { return nil }
        let secondParts = clock[2].split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(secondParts.count), secondParts[0].count == 2, let second = Int64(secondParts[0]) else {
            return nil
        }
        var milli: Int64 = 0
        if secondParts.count == 2 {
            let digits = secondParts[1]
            guard (1...9).contains(digits.count), digits.allSatisfy(\.isASCII), let value = Int64(digits.prefix(3)) else {
                return nil
            }
            milli = value * [100, 10, 1][digits.prefix(3).count - 1]
        }
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...59).contains(second), (1970...9999).contains(year)
        else { return nil }
        let days = self.days(year: year, month: month, day: day)
        guard civil(days: days) == (year, month, day) else { return nil }
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1_000 + milli
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day since 1970-01-01.
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
