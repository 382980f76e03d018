extension BinaryFrame {
    public struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// A decoded layout: what a client needs to map ring indices to ids, and each arrangement's canvas.
    public struct DecodedLayout: Sendable, Equatable {
        public struct Arrangement: Sendable, Equatable {
            public var name: String
            public var width: Float
            public var height: Float
            /// Per ring, in ring order: its centre and its start cap (relative to the centre).
            public var centres: [[Float]]
            public var caps: [[Float]]
        }

        public var board: String
        public var title: String
        public var ringIDs: [String]
        /// Per ring: the title colour, nil when automatic.
        public var titleColors: [[UInt8]?] = []
        /// Per ring: whether it is drawn in seed 004's look (`RingFlags.seedStyle`).
        public var seedStyle: [Bool] = []
        public var arrangements: [Arrangement] = []
        /// Version 4: the widgets' layouts by ring index (rings have none); a frame's entry at one of these
        /// indices is a widget entry.
        public var widgets: [Int: WidgetLayout] = [:]
    }

    /// A decoded frame; each ring lists the fields it carried, the others are left at zero.
    public struct DecodedFrame: Sendable, Equatable {
        public struct Ring: Sendable, Equatable {
            public var index: Int
            public var fields: Fields
            public var values: RingValues
        }

        public var kind: Kind
        public var seq: UInt32
        public var t: Double
        /// RGBA8, present in keyframes and when the background changed.
        public var background: [UInt8]?
        /// RGBA8, the text colour for `background`, present with it.
        public var text: [UInt8]?
        /// The splash layers' styles, progress and number of shapes (one per arrangement), when the
        /// background is present.
        public var splash: [(style: String, progress: Float, shapes: Int)] = []

        public static func == (a: DecodedFrame, b: DecodedFrame) -> Bool {
            a.kind == b.kind && a.seq == b.seq && a.t == b.t && a.background == b.background && a.text == b.text
                && a.rings == b.rings
                && a.splash.map(\.style) == b.splash.map(\.style) && a.splash.map(\.progress) == b.splash.map(\.progress)
                && a.splash.map(\.shapes) == b.splash.map(\.shapes) && a.stale == b.stale && a.sparks == b.sparks
        }
        public var rings: [Ring]
        /// Version 5: the stale section, text by ring index (empty: no longer stale); empty without one.
        public var stale: [Int: String] = [:]
        /// Version 6: the spark section, each line (`RingFrame.spark`) by ring index (empty: the ring no longer has
        /// one); empty without one.
        public var sparks: [Int: [Double]] = [:]
    }

    public enum Message: Sendable, Equatable {
        case layout(DecodedLayout)
        case frame(DecodedFrame)
        case event(BoardEvent)
    }

    /// Decodes one message. A frame with widget entries (version 4) decodes only with the `layout` it was
    /// composed for, whose kinds say how each entry reads; a frame of version 3 needs none.
    public static func decode(_ bytes: [UInt8], layout: DecodedLayout? = nil) throws(DecodingError) -> Message {
        var r = BinaryReader(bytes)
        guard try r.u8() == magic else { throw DecodingError(description: "not a RingCast binary message") }
        let messageVersion = try r.u8()
        guard decodedVersions.contains(messageVersion) else {
            throw DecodingError(description: "unsupported version")
        }
        let kindByte = try r.u8()
        let flags = try r.u8()
        guard let kind = Kind(rawValue: kindByte) else { throw DecodingError(description: "unknown kind \(kindByte)") }
        if kind == .event {
            let name = try r.u8()
            guard let event = eventNames.first(where: { $0.value == name })?.key else {
                throw DecodingError(description: "unknown event \(name)")
            }
            let seq = try r.u32()
            let t = try r.f64()
            let board = try r.str8()
            let ring = try r.str8()
            try r.end()
            return .event(BoardEvent(event: event, board: board, ring: ring, seq: UInt64(seq), t: t))
        }
        if kind == .layout {
            let board = try r.str8()
            let title = try r.str8()
            _ = try r.take(4)  // background
            var ids: [String] = []
            var titleColors: [[UInt8]?] = []
            var widgets: [Int: WidgetLayout] = [:]
            var seedStyle: [Bool] = []
            for index in 0..<Int(try r.u8()) {
                ids.append(try r.str8())
                _ = try r.str8()  // title
                let kindCode = try r.u8()
                let ringFlags = RingFlags(rawValue: try r.u8())
                _ = try r.take(2 * 4 + 4)  // r, thickness, track
                let titleColor = try r.take(4)
                titleColors.append(ringFlags.contains(.automaticTitleColor) ? nil : titleColor)
                if kindCode > 2 {
                    guard messageVersion >= version else { throw DecodingError(description: "a widget in version 3") }
                    widgets[index] = try readWidgetLayout(code: kindCode, from: &r)
                }
                seedStyle.append(ringFlags.contains(.seedStyle))
            }
            var arrangements: [DecodedLayout.Arrangement] = []
            for _ in 0..<(try r.u8()) {
                var arrangement = DecodedLayout.Arrangement(
                    name: try r.str8(), width: try r.f32(), height: try r.f32(), centres: [], caps: [])
                for _ in ids {
                    arrangement.centres.append([try r.f32(), try r.f32()])
                    arrangement.caps.append([try r.f32(), try r.f32()])
                    _ = try r.take(2 * 17)  // titleText, labelText
                }
                arrangements.append(arrangement)
            }
            try r.end()
            return .layout(
                DecodedLayout(
                    board: board, title: title, ringIDs: ids, titleColors: titleColors, seedStyle: seedStyle,
                    arrangements: arrangements, widgets: widgets))
        }
        let seq = try r.u32()
        let t = try r.f64()
        var background: [UInt8]?
        var text: [UInt8]?
        var splash: [(style: String, progress: Float, shapes: Int)] = []
        if flags & 1 != 0 {
            background = try r.take(4)
            text = try r.take(4)
            for _ in 0..<(try r.u8()) {
                let style = Int(try r.u8())
                guard style < splashStyles.count else { throw DecodingError(description: "unknown splash style \(style)") }
                if style == 5 { _ = try r.f32() }
                _ = try r.take(4)
                let progress = try r.f32()
                let shapes = Int(try r.u8())
                for _ in 0..<shapes {
                    switch try r.u8() {
                    case 0: _ = try r.take(8 * Int(try r.u8()))
                    case 1: _ = try r.take(12)
                    case let shape: throw DecodingError(description: "unknown splash shape \(shape)")
                    }
                }
                splash.append((splashStyles[style], progress, shapes))
            }
        }
        if messageVersion >= version && layout == nil {
            throw DecodingError(description: "a version \(messageVersion) frame decodes only with its layout")
        }
        var rings: [DecodedFrame.Ring] = []
        for _ in 0..<(try r.u8()) {
            let index = Int(try r.u8())
            let fields = Fields(rawValue: try r.u8())
            var v = RingValues(
                state: [], p: 0, a1: 0, tipX: 0, tipY: 0, shadowDX: 0, shadowDY: 0, offsets: (0, 0),
                startColor: [], endColor: [], label: [], labelColor: []
            )
            if let widget = layout?.widgets[index] {
                guard messageVersion >= version else { throw DecodingError(description: "a widget entry in version 3") }
                guard fields.isSubset(of: .allOfAWidget) else {
                    throw DecodingError(description: "widget entry \(index) has ring fields")
                }
                if fields.contains(.widgetValues) {
                    let start = r.position
                    try skipWidgetPayload(code: kindCode(of: widget), from: &r)
                    v.widget = r.bytes(from: start)
                }
                if fields.contains(.label) { v.label = try r.take(Int(try r.u8())) }
                if fields.contains(.labelColor) { v.labelColor = try r.take(4) }
                rings.append(DecodedFrame.Ring(index: index, fields: fields, values: v))
                continue
            }
            if fields.contains(.state) { v.state = State(rawValue: try r.u8()) }
            if fields.contains(.progress) {
                v.p = try r.f32()
                v.a1 = try r.f32()
            }
            if fields.contains(.tip) {
                v.tipX = Int16(bitPattern: try r.u16())
                v.tipY = Int16(bitPattern: try r.u16())
                v.shadowDX = Int16(bitPattern: try r.u16())
                v.shadowDY = Int16(bitPattern: try r.u16())
            }
            if fields.contains(.offsets) { v.offsets = (try r.u16(), try r.u16()) }
            if fields.contains(.startColor) { v.startColor = try r.take(4) }
            if fields.contains(.endColor) { v.endColor = try r.take(4) }
            if fields.contains(.label) { v.label = try r.take(Int(try r.u8())) }
            if fields.contains(.labelColor) { v.labelColor = try r.take(4) }
            rings.append(DecodedFrame.Ring(index: index, fields: fields, values: v))
        }
        var stale: [Int: String] = [:]
        if flags & staleFlag != 0 {
            guard messageVersion >= staleVersion else { throw DecodingError(description: "a stale section before version 5") }
            stale = try readStale(from: &r)
        }
        var sparks: [Int: [Double]] = [:]
        if flags & sparkFlag != 0 {
            guard messageVersion >= sparkVersion else { throw DecodingError(description: "a spark section before version 6") }
            sparks = try readSparks(from: &r)
        }
        try r.end()
        return .frame(
            DecodedFrame(
                kind: kind, seq: seq, t: t, background: background, text: text, splash: splash, rings: rings, stale: stale,
                sparks: sparks))
    }

    /// Merges a decoded frame into the last known values per ring index, as a viewer does.
    public static func apply(_ frame: DecodedFrame, to state: inout [Int: RingValues]) {
        for ring in frame.rings {
            guard var v = state[ring.index], frame.kind == .delta else {
                state[ring.index] = ring.values
                continue
            }
            let new = ring.values
            if ring.fields.contains(.state) { v.state = new.state }
            if ring.fields.contains(.widgetValues) { v.widget = new.widget }
            if ring.fields.contains(.progress) {
                v.p = new.p
                v.a1 = new.a1
            }
            if ring.fields.contains(.tip) {
                v.tipX = new.tipX
                v.tipY = new.tipY
                v.shadowDX = new.shadowDX
                v.shadowDY = new.shadowDY
            }
            if ring.fields.contains(.offsets) { v.offsets = new.offsets }
            if ring.fields.contains(.startColor) { v.startColor = new.startColor }
            if ring.fields.contains(.endColor) { v.endColor = new.endColor }
            if ring.fields.contains(.label) { v.label = new.label }
            if ring.fields.contains(.labelColor) { v.labelColor = new.labelColor }
            state[ring.index] = v
        }
    }
}

/// Reads little-endian values, throwing at the end of the buffer instead of trapping.
struct BinaryReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// How many bytes have been read.
    var position: Int { index }

    /// The bytes read since `position` `start`.
    func bytes(from start: Int) -> [UInt8] { Array(bytes[start..<index]) }

    mutating func take(_ count: Int) throws(BinaryFrame.DecodingError) -> [UInt8] {
        guard count >= 0, index + count <= bytes.count else {
            throw BinaryFrame.DecodingError(description: "truncated message at byte \(index)")
        }
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    mutating func u8() throws(BinaryFrame.DecodingError) -> UInt8 { try take(1)[0] }

    mutating func u16() throws(BinaryFrame.DecodingError) -> UInt16 {
        let b = try take(2)
        return UInt16(b[0]) | UInt16(b[1]) << 8
    }

    mutating func u32() throws(BinaryFrame.DecodingError) -> UInt32 {
        try take(4).enumerated().reduce(0) { $0 | UInt32($1.element) << UInt32(8 * $1.offset) }
    }

    mutating func f32() throws(BinaryFrame.DecodingError) -> Float { Float(bitPattern: try u32()) }

    mutating func f64() throws(BinaryFrame.DecodingError) -> Double {
        Double(bitPattern: try take(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) })
    }

    mutating func str8() throws(BinaryFrame.DecodingError) -> String {
        String(decoding: try take(Int(try u8())), as: UTF8.self)
    }

    func end() throws(BinaryFrame.DecodingError) {
        guard index == bytes.count else {
            throw BinaryFrame.DecodingError(description: "\(bytes.count - index) trailing bytes")
        }
    }
}
