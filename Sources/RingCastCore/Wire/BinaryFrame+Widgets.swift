/// Version 4: widgets in the layout and in frames (the byte diagram on `BinaryFrame`).
extension BinaryFrame {
    /// The layout's kind code of `kind` (0 for an unknown name, as version 3 did).
    static func kindCode(_ kind: String) -> UInt8 {
        UInt8(kindNames.firstIndex(of: kind) ?? 0)
    }

    /// The layout's kind code of a widget: 3 counter, 4 text, 5 indicator, 6 gradient.
    static func kindCode(of widget: WidgetLayout) -> UInt8 {
        switch widget {
        case .counter: 3
        case .text: 4
        case .indicator: 5
        case .gradient: 6
        }
    }

    /// A widget's layout fields, after the ring fields every entry has.
    static func write(_ widget: WidgetLayout, to w: inout BinaryWriter) {
        switch widget {
        case .counter(let format):
            w.u8(UInt8(clamping: format.digits ?? 0))
            w.u8(UInt8(clamping: format.decimals))
            var flags: UInt8 = format.sign ? 0x01 : 0
            if format.grouping != nil { flags |= 0x02 }
            if format.unit != nil { flags |= 0x04 }
            w.u8(flags)
            w.str8(format.grouping ?? "")
            w.str8(format.unit ?? "")
        case .text(let waveWidth):
            w.f32(Float(waveWidth))
        case .indicator(let lineWidth, let dash, let dashPhase):
            w.f32(Float(lineWidth))
            w.f32(Float(dash.first ?? 0))
            w.f32(Float(dash.count > 1 ? dash[1] : 0))
            w.f32(Float(dashPhase))
        case .gradient(let width, let height, let corner):
            for value in [width, height, corner] { w.f32(Float(value)) }
        }
    }

    /// A widget's layout fields for kind code `code` (3…6).
    static func readWidgetLayout(code: UInt8, from r: inout BinaryReader) throws(DecodingError) -> WidgetLayout {
        switch code {
        case 3:
            let digits = Int(try r.u8())
            let decimals = Int(try r.u8())
            let flags = try r.u8()
            let grouping = try r.str8()
            let unit = try r.str8()
            return .counter(
                CounterFormat(
                    digits: digits == 0 ? nil : digits, decimals: decimals, sign: flags & 0x01 != 0,
                    grouping: flags & 0x02 != 0 ? grouping : nil, unit: flags & 0x04 != 0 ? unit : nil))
        case 4:
            return .text(waveWidth: Double(try r.f32()))
        case 5:
            let lineWidth = Double(try r.f32())
            let dash = [Double(try r.f32()), Double(try r.f32())]
            return .indicator(lineWidth: lineWidth, dash: dash, dashPhase: Double(try r.f32()))
        case 6:
            return .gradient(width: Double(try r.f32()), height: Double(try r.f32()), corner: Double(try r.f32()))
        default:
            throw DecodingError(description: "unknown ring kind \(code)")
        }
    }

    /// The values field (0x01) of a widget's frame entry, quantised as the diagram says. Its bytes are also
    /// what a delta compares: the entry's values are sent again only when these bytes change.
    static func widgetPayload(_ widget: WidgetFrame, of ring: RingFrame) -> [UInt8] {
        var w = BinaryWriter(capacity: 32)
        switch widget {
        case .counter(let value, let sign, let digits):
            w.u8(value == nil ? 0 : 1)
            w.f64(value ?? 0)
            w.u8(sign == "-" ? 1 : sign == "+" ? 2 : 0)
            let columns = digits.prefix(255)
            w.u8(UInt8(columns.count))
            for column in columns {
                w.u8(UInt8(clamping: column.digit))
                w.u16(roll(column.fraction))
            }
        case .text(let text, let scales):
            // One scale per character of the text as sent (the composer has cut it to whole characters within
            // 255 bytes; `Limits.fitting` changes nothing then, and keeps any other text whole too).
            let sent = Limits.fitting(text)
            w.str8(sent)
            let kept = scales.prefix(min(sent.count, 255))
            w.u8(UInt8(kept.count))
            for value in kept { w.u16(scale(value)) }
        case .indicator(let color):
            w.u8(ring.p == nil ? 0 : 1)
            w.f32(Float(ring.p ?? 0))
            w.f32(Float(ring.a1))
            w.bytes(rgba(color))
        case .gradient(let stops):
            let kept = stops.prefix(255)
            w.u8(UInt8(kept.count))
            for stop in kept {
                w.u16(fraction(stop.offset))
                w.bytes(rgba(stop.color))
            }
        }
        return w.bytes
    }

    /// Reads a widget's values field of kind code `code`, to find where it ends and check it is whole.
    static func skipWidgetPayload(code: UInt8, from r: inout BinaryReader) throws(DecodingError) {
        switch code {
        case 3: _ = try r.take(3 * Int(try r.take(11)[10]))  // hasData, value, sign, columnCount; columns
        case 4:
            _ = try r.take(Int(try r.u8()))
            _ = try r.take(2 * Int(try r.u8()))
        case 5: _ = try r.take(13)
        case 6: _ = try r.take(6 * Int(try r.u8()))
        default: throw DecodingError(description: "unknown widget kind \(code)")
        }
    }

    /// The JSON frame's entry for a widget of `layout` (its entry in `DecodedLayout.widgets`) from its wire
    /// values (a keyframe's, or a delta's merged by `apply`): what a viewer of the JSON frame sees, within the
    /// quantisation of the diagram. The ring fields a widget entry does not carry rest at zero, as
    /// `FrameComposer` leaves them.
    public static func widgetEntry(id: String, layout: WidgetLayout, values: RingValues) throws(DecodingError) -> RingFrame {
        var r = BinaryReader(values.widget)
        var p: Double?
        var a1 = 0.0
        let widget: WidgetFrame
        switch layout {
        case .counter:
            let hasData = try r.u8() != 0
            let value = try r.f64()
            let sign = ["", "-", "+"][Int(min(try r.u8(), 2))]
            var digits: [Odometer.Column] = []
            for _ in 0..<(try r.u8()) {
                digits.append(Odometer.Column(digit: Int(try r.u8()), fraction: Double(try r.u16()) / 65_536))
            }
            p = hasData ? value : nil
            widget = .counter(value: p, sign: sign, digits: digits)
        case .text:
            let text = try r.str8()
            var scales: [Double] = []
            for _ in 0..<(try r.u8()) { scales.append(Double(try r.u16()) / 4_096) }
            widget = .text(text: text, scales: scales)
        case .indicator:
            let hasData = try r.u8() != 0
            let progress = Double(try r.f32())
            a1 = Double(try r.f32())
            p = hasData ? progress : nil
            widget = .indicator(color: color(try r.take(4)))
        case .gradient:
            var stops: [ConicGradient.Stop] = []
            for _ in 0..<(try r.u8()) {
                stops.append(ConicGradient.Stop(offset: Double(try r.u16()) / 65_535, color: color(try r.take(4))))
            }
            widget = .gradient(stops: stops)
        }
        try r.end()
        let black = RGBAColor(red: 0, green: 0, blue: 0)
        return RingFrame(
            id: id, p: p, a0: 0, a1: a1, gradient: ConicGradient(start: 0, stops: []),
            cap: RingFrame.Cap(x: 0, y: 0, color: black, visible: false),
            tip: RingFrame.Tip(
                x: 0, y: 0, color: black, visible: false, shadow: RingFrame.Shadow(dx: 0, dy: 0, blur: 0, alpha: 0)),
            label: String(decoding: values.label, as: UTF8.self),
            labelColor: values.labelColor.count == 4 ? color(values.labelColor) : black,
            widget: widget)
    }

    private static func color(_ bytes: [UInt8]) -> RGBAColor {
        RGBAColor(
            red: Double(bytes[0]) / 255, green: Double(bytes[1]) / 255, blue: Double(bytes[2]) / 255,
            alpha: Double(bytes[3]) / 255)
    }
}
