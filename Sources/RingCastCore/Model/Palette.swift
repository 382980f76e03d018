/// The flat-UI palette of the seeds (seed 000, `Color+Ext.swift`, from flatuicolors.com "defo").
///
/// Gradient defaults come from here rather than from Apple's own ring colours, which Apple's
/// guidelines reserve for Activity data.
public enum Palette {
    public static let lightRed = color(231, 76, 60)
    public static let darkRed = color(192, 57, 43)
    public static let lightGreen = color(46, 204, 113)
    public static let darkGreen = color(39, 174, 96)
    public static let lightPurple = color(155, 89, 182)
    public static let darkPurple = color(142, 68, 173)
    public static let lightBlue = color(52, 152, 219)
    public static let darkBlue = color(41, 128, 185)
    public static let lightYellow = color(241, 196, 15)
    public static let darkYellow = color(243, 156, 18)
    public static let lightOrange = color(230, 126, 34)
    public static let darkOrange = color(211, 84, 0)
    public static let purpleBg = color(69, 51, 201)
    /// Concrete and asbestos, the greys of the same flat-UI palette (flatuicolors.com "defo"; seed 000 lists only
    /// the colours its rings use): a ring whose status is `unknown`.
    public static let lightGray = color(149, 165, 166)
    public static let darkGray = color(127, 140, 141)

    /// Every palette colour by its seed name, so configuration can say `"lightRed"` instead of a hex string.
    public static let named: [String: RGBAColor] = [
        "lightRed": lightRed, "darkRed": darkRed,
        "lightGreen": lightGreen, "darkGreen": darkGreen,
        "lightPurple": lightPurple, "darkPurple": darkPurple,
        "lightBlue": lightBlue, "darkBlue": darkBlue,
        "lightYellow": lightYellow, "darkYellow": darkYellow,
        "lightOrange": lightOrange, "darkOrange": darkOrange,
        "purpleBg": purpleBg,
    ]

    /// The seed's `Color(red:green:blue:)` initialiser: 0...255 integers divided by 255.
    private static func color(_ red: Int, _ green: Int, _ blue: Int) -> RGBAColor {
        RGBAColor(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255)
    }
}
