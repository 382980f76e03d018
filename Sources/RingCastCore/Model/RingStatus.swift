/// What a ring reports about the thing it tracks (DESIGN §13), as a CI board colours a pipeline: each status is a
/// gradient of the seeds' flat-UI palette (`Palette`), which a ring takes as a push of those colours would set it.
public enum RingStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Emerald to nephritis.
    case success
    /// Alizarin to pomegranate.
    case failure
    /// Sunflower to orange: amber while a job runs.
    case running
    /// Carrot to pumpkin.
    case warning
    /// Concrete to asbestos.
    case unknown

    /// The gradient's start and end colours the status sets.
    public var colors: [RGBAColor] {
        switch self {
        case .success: [Palette.lightGreen, Palette.darkGreen]
        case .failure: [Palette.lightRed, Palette.darkRed]
        case .running: [Palette.lightYellow, Palette.darkYellow]
        case .warning: [Palette.lightOrange, Palette.darkOrange]
        case .unknown: [Palette.lightGray, Palette.darkGray]
        }
    }

    /// The names the API accepts, as a message lists them: `"success", "failure", …`.
    public static let listed = allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
}
