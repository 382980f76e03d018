/// A conic gradient the page hands to canvas `createConicGradient(start, cx, cy)` and `addColorStop` as is.
public struct ConicGradient: Sendable, Equatable, Encodable {
    /// One colour stop; encodes as `[offset, "#rrggbbaa"]`.
    public struct Stop: Sendable, Equatable, Encodable {
        /// 0...1 of a full turn clockwise from `start`.
        public var offset: Double
        public var color: RGBAColor

        public init(offset: Double, color: RGBAColor) {
            self.offset = offset
            self.color = color
        }

        public func encode(to encoder: any Encoder) throws {
            var pair = encoder.unkeyedContainer()
            try pair.encode(offset)
            try pair.encode(color)
        }
    }

    /// Angle of offset 0, radians, 0 = 3 o'clock, clockwise positive.
    public var start: Double
    public var stops: [Stop]

    public init(start: Double, stops: [Stop]) {
        self.start = start
        self.stops = stops
    }
}
