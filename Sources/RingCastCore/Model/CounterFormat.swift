/// How a counter widget shows its number (seed 003's rolling counter, generalised): how many integer columns,
/// decimals, whether a `+` shows, a grouping separator every three integer digits and a unit after it.
public struct CounterFormat: Sendable, Hashable, Codable {
    /// Integer columns always shown (leading zeros roll too, like an odometer's); nil: as many as the number
    /// needs.
    public var digits: Int?
    /// Columns after the decimal point, 0 to `Limits.counterDecimals.upperBound`.
    public var decimals: Int
    /// Show `+` before positive numbers (a `−` always shows before negative ones).
    public var sign: Bool
    /// Drawn between groups of three integer columns, e.g. `","`; nil: none.
    public var grouping: String?
    /// Text after the number, e.g. `"tests"`; nil: none.
    public var unit: String?

    public init(digits: Int? = nil, decimals: Int = 0, sign: Bool = false, grouping: String? = nil, unit: String? = nil) {
        self.digits = digits
        self.decimals = decimals
        self.sign = sign
        self.grouping = grouping
        self.unit = unit
    }
}
