extension BinaryFrame {
    /// The layout message (see the byte diagram on `BinaryFrame`).
    public static func encode(_ layout: Layout) -> [UInt8] {
        let rings = layout.rings.prefix(255)
        let arrangements = layout.arrangements.prefix(255)
        var w = BinaryWriter(capacity: 64 + rings.count * 40 + arrangements.count * (16 + rings.count * 60))
        let withWidgets = rings.contains { $0.widget != nil }
        w.bytes([magic, withWidgets ? version : ringsVersion, Kind.layout.rawValue, 0])
        w.str8(layout.board)
        w.str8(layout.title)
        w.bytes(rgba(layout.background))
        w.u8(UInt8(rings.count))
        for ring in rings {
            w.str8(ring.id)
            w.str8(ring.title)
            // A widget's kind code follows its layout (a ring's is 0…2 whatever `kind` says, as in version 3).
            w.u8(ring.widget.map(kindCode(of:)) ?? min(kindCode(ring.kind), 2))
            var flags: RingFlags = ring.titleColor == nil ? .automaticTitleColor : []
            if ring.style == CountdownOptions.Style.seed.rawValue { flags.insert(.seedStyle) }
            w.u8(flags.rawValue)
            w.f32(Float(ring.r))
            w.f32(Float(ring.thickness))
            w.bytes(rgba(ring.track))
            w.bytes(ring.titleColor.map(rgba) ?? [0, 0, 0, 0])
            if let widget = ring.widget { write(widget, to: &w) }
        }
        w.u8(UInt8(arrangements.count))
        for arrangement in arrangements {
            w.str8(arrangement.name)
            w.f32(Float(arrangement.width))
            w.f32(Float(arrangement.height))
            // One place per ring, in ring order (as `FrameComposer.layout` makes them): the decoder
            // reads ringCount of them. The cap is relative to the centre, so it follows from r alone.
            for (ring, place) in zip(rings, arrangement.rings) {
                let cap = FrameComposer.capPosition(radius: ring.r)
                for value in [place.cx, place.cy, cap.x, cap.y] { w.f32(Float(value)) }
                write(place.titleText, to: &w)
                write(place.labelText, to: &w)
            }
        }
        return w.bytes
    }

    /// A frame message: a keyframe when `previous` is nil, else a delta carrying only what changed
    /// since `previous` (the frame before it on the same board). A `previous` with other rings (the
    /// board was reshaped, and viewers were sent a new layout) gives a keyframe too: a delta's ring
    /// indices would refer to a layout the viewer no longer holds.
    public static func encode(_ frame: Frame, previous: Frame?) -> [UInt8] {
        let previous = previous.flatMap { frame.hasTheRings(of: $0) ? $0 : nil }
        let withBackground = previous == nil || previous?.background != frame.background
        var entries: [(index: Int, fields: Fields, values: RingValues)] = []
        for (index, ring) in frame.rings.enumerated().prefix(255) {
            let values = values(of: ring)
            var fields = ring.widget == nil ? Fields.all : Fields.allOfAWidget
            if let previous, index < previous.rings.count, previous.rings[index].id == ring.id {
                fields = values.fields(changedSince: Self.values(of: previous.rings[index]))
            }
            if !fields.isEmpty { entries.append((index, fields, values)) }
        }
        // Version 4 only when a widget entry is in the message: a frame of rings only is version 3's bytes;
        // version 5 only with a stale section, 6 only with a spark section.
        let withWidgets = entries.contains { !$0.values.widget.isEmpty }
        let stale = staleEntries(of: frame, previous: previous)
        let sparks = sparkEntries(of: frame, previous: previous)
        var w = BinaryWriter(capacity: 32 + frame.rings.count * 32 + sparks.reduce(0) { $0 + 2 + 2 * $1.points.count })
        let messageVersion = !sparks.isEmpty ? sparkVersion : !stale.isEmpty ? staleVersion : withWidgets ? version : ringsVersion
        w.bytes([
            magic, messageVersion, (previous == nil ? Kind.keyframe : Kind.delta).rawValue,
            (withBackground ? 1 : 0) | (stale.isEmpty ? 0 : staleFlag) | (sparks.isEmpty ? 0 : sparkFlag),
        ])
        w.u32(UInt32(truncatingIfNeeded: frame.seq))
        w.f64(frame.t)
        if withBackground {
            w.bytes(rgba(frame.background.color))
            w.bytes(rgba(frame.background.text))
            let layers = frame.background.splash.prefix(255)
            w.u8(UInt8(layers.count))
            for layer in layers {
                let style = splashStyles.firstIndex(of: layer.style) ?? 0
                w.u8(UInt8(style))
                if style == 5 { w.f32(Float(layer.angle ?? 0)) }
                w.bytes(rgba(layer.color))
                w.f32(Float(layer.progress))
                let shapes = layer.shapes.prefix(255)
                w.u8(UInt8(shapes.count))
                for shape in shapes { write(shape, to: &w) }
            }
        }
        w.u8(UInt8(entries.count))
        for entry in entries {
            w.u8(UInt8(entry.index))
            w.u8(entry.fields.rawValue)
            write(entry.values, fields: entry.fields, to: &w)
        }
        if !stale.isEmpty { write(stale, to: &w) }
        if !sparks.isEmpty { write(sparks, to: &w) }
        return w.bytes
    }

    /// An event message (see the byte diagram on `BinaryFrame`): version 3, which brought it, as every message
    /// without a widget.
    public static func encode(_ event: BoardEvent) -> [UInt8] {
        var w = BinaryWriter(capacity: 24 + event.board.utf8.count + event.ring.utf8.count)
        w.bytes([magic, ringsVersion, Kind.event.rawValue, 0])
        w.u8(eventNames[event.event] ?? 0)
        w.u32(UInt32(truncatingIfNeeded: event.seq))
        w.f64(event.t)
        w.str8(event.board)
        w.str8(event.ring)
        return w.bytes
    }

    /// The event names' bytes.
    static let eventNames: [BoardEvent.Name: UInt8] = [.countdownEnded: 1]

    private static func write(_ text: TextSpec, to w: inout BinaryWriter) {
        w.f32(Float(text.x))
        w.f32(Float(text.y))
        w.f32(Float(text.size))
        w.u8(text.align == "left" ? 0 : text.align == "right" ? 2 : 1)
        w.f32(Float(text.width ?? 0))
    }

    private static func write(_ shape: SplashShape, to w: inout BinaryWriter) {
        switch shape {
        case .polygon(let points):
            w.u8(0)
            w.u8(UInt8(min(points.count, 255)))
            for point in points.prefix(255) {
                w.f32(Float(point.x))
                w.f32(Float(point.y))
            }
        case .circle(let cx, let cy, let r):
            w.u8(1)
            w.f32(Float(cx))
            w.f32(Float(cy))
            w.f32(Float(r))
        }
    }

    private static func write(_ v: RingValues, fields: Fields, to w: inout BinaryWriter) {
        guard v.widget.isEmpty else {
            // A widget entry: its values field (already encoded), label and label colour.
            if fields.contains(.widgetValues) { w.bytes(v.widget) }
            if fields.contains(.label) { w.str8(v.label) }
            if fields.contains(.labelColor) { w.bytes(v.labelColor) }
            return
        }
        if fields.contains(.state) { w.u8(v.state.rawValue) }
        if fields.contains(.progress) {
            w.f32(v.p)
            w.f32(v.a1)
        }
        if fields.contains(.tip) {
            w.i16(v.tipX)
            w.i16(v.tipY)
            w.i16(v.shadowDX)
            w.i16(v.shadowDY)
        }
        if fields.contains(.offsets) {
            w.u16(v.offsets.0)
            w.u16(v.offsets.1)
        }
        if fields.contains(.startColor) { w.bytes(v.startColor) }
        if fields.contains(.endColor) { w.bytes(v.endColor) }
        if fields.contains(.label) { w.str8(v.label) }
        if fields.contains(.labelColor) { w.bytes(v.labelColor) }
    }
}
