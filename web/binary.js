// Decoder for RingCast's binary frames (format=binary), versions 3 to 6 (4: widgets; 5: a frame's
// stale section; 6: its spark section; a message without any of them is still version 3, byte for
// byte). The byte diagram is in docs/PROTOCOL.md and on BinaryFrame in
// Sources/RingCastCore/Wire/BinaryFrame.swift.
//
// It turns each message into the same plain objects the JSON decoder yields, so the rest of the
// page does not know which encoding arrived. Deltas carry only the fields that changed; the
// decoder keeps each ring's last wire values and returns whole ring objects for every ring a
// frame mentions. Rebuilding the JSON shapes takes no arithmetic: a0 is fixed at -π/2, the cap
// sits where the layout says (relative to the ring's centre, like the tip, so the same in every
// arrangement), and the gradient stops are laid out from the offsets the server sent. Ring indices
// refer to the newest layout: a layout arriving mid-stream (the board's structure changed) starts
// the ring values over, and a keyframe follows it. A widget's entry (counter, text, indicator,
// gradient) comes out as the JSON frame's entry of its kind, built from the values field its layout
// kind says how to read. A stale ring's object carries `stale`, the server's text, as its JSON entry does;
// the stale section (version 5) keeps each ring's text until a frame changes it. Likewise a ring's sparkline
// (version 6's spark section) comes out as its JSON entry's `spark`, [x0, y0, x1, y1, …], kept until a frame
// changes it (0 points: it has none any more).

const MAGIC = 0x52;
const VERSIONS = [3, 4, 5, 6];
const FLAG_BACKGROUND = 0x01;
const FLAG_STALE = 0x02;
const FLAG_SPARK = 0x04;
const RING_AUTOMATIC_TITLE_COLOR = 0x01;
const RING_SEED_STYLE = 0x02;
const KIND_LAYOUT = 1;
const KIND_KEYFRAME = 2;
const KIND_DELTA = 3;
const KIND_EVENT = 4;
const EVENT_NAME = [undefined, "countdownEnded"];
const A0 = -Math.PI / 2;
const SHADOW_BLUR = 2;
const SHADOW_ALPHA = 0.15;
const ALIGN = ["left", "center", "right"];
const RING_KIND = ["plain", "derived", "countdown", "counter", "text", "indicator", "gradient"];
const WIDGET_KINDS = new Set(["counter", "text", "indicator", "gradient"]);
const SIGN = ["", "-", "+"];
const SPLASH_STYLE = ["leftToRight", "rightToLeft", "topToBottom", "bottomToTop", "circle", "angle"];

export class BinaryProtocolError extends Error {}

class Reader {
  constructor(buffer) {
    this.view = new DataView(buffer);
    this.bytes = new Uint8Array(buffer);
    this.at = 0;
  }
  need(count) {
    if (this.at + count > this.view.byteLength) throw new BinaryProtocolError(`truncated message at byte ${this.at}`);
  }
  u8() { this.need(1); return this.view.getUint8(this.at++); }
  u16() { this.need(2); const v = this.view.getUint16(this.at, true); this.at += 2; return v; }
  i16() { this.need(2); const v = this.view.getInt16(this.at, true); this.at += 2; return v; }
  u32() { this.need(4); const v = this.view.getUint32(this.at, true); this.at += 4; return v; }
  f32() { this.need(4); const v = this.view.getFloat32(this.at, true); this.at += 4; return v; }
  f64() { this.need(8); const v = this.view.getFloat64(this.at, true); this.at += 8; return v; }
  color() {
    this.need(4);
    let hex = "#";
    for (let i = 0; i < 4; i++) hex += this.bytes[this.at + i].toString(16).padStart(2, "0");
    this.at += 4;
    return hex;
  }
  str8() {
    const length = this.u8();
    this.need(length);
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  }
  end() {
    if (this.at !== this.view.byteLength) throw new BinaryProtocolError(`${this.view.byteLength - this.at} trailing bytes`);
  }
}

/** A stateful decoder: one per connection, reset by every layout. */
export function createBinaryDecoder() {
  let layout = null;
  let wire = new Map(); // ring index → last wire values

  function decodeLayout(r) {
    const board = r.str8();
    const title = r.str8();
    const background = r.color();
    const count = r.u8();
    const rings = [];
    for (let i = 0; i < count; i++) {
      const id = r.str8();
      const ringTitle = r.str8();
      const kind = RING_KIND[r.u8()] ?? "plain";
      const ringFlags = r.u8();
      const [rr, thickness] = [r.f32(), r.f32()];
      const track = r.color();
      const wireTitleColor = r.color();
      // null: automatic, the page draws the title in the frame's background.text.
      const titleColor = ringFlags & RING_AUTOMATIC_TITLE_COLOR ? null : wireTitleColor;
      // `style` only for seed 004's look (draw.js), as in a JSON layout, which has no key otherwise.
      const style = ringFlags & RING_SEED_STYLE ? { style: "seed" } : {};
      rings.push({ id, title: ringTitle, kind, r: rr, thickness, track, titleColor, ...style, ...readWidgetLayout(r, kind) });
    }
    const text = () => {
      const spot = { x: r.f32(), y: r.f32(), size: r.f32(), align: ALIGN[r.u8()] ?? "center" };
      const width = r.f32();
      spot.width = width > 0 ? width : null;
      return spot;
    };
    const arrangements = [];
    for (let n = r.u8(); n > 0; n--) {
      const name = r.str8();
      const width = r.f32();
      const height = r.f32();
      const places = rings.map((ring) => {
        const [cx, cy, capX, capY] = [r.f32(), r.f32(), r.f32(), r.f32()];
        // The cap is relative to the centre, the same in every arrangement: the ring keeps one.
        ring.capX ??= capX;
        ring.capY ??= capY;
        return { id: ring.id, cx, cy, titleText: text(), labelText: text() };
      });
      arrangements.push({ name, width, height, rings: places });
    }
    r.end();
    layout = { type: "layout", board, title, background, rings, arrangements };
    wire = new Map();
    return layout;
  }

  // Version 4: a widget's layout keys after the ring's, as JSON names them.
  function readWidgetLayout(r, kind) {
    switch (kind) {
      case "counter": {
        const digits = r.u8();
        const decimals = r.u8();
        const flags = r.u8();
        const grouping = r.str8();
        const unit = r.str8();
        return {
          digits: digits === 0 ? null : digits, decimals, sign: (flags & 0x01) !== 0,
          grouping: flags & 0x02 ? grouping : null, unit: flags & 0x04 ? unit : null,
        };
      }
      case "text": return { waveWidth: r.f32() };
      case "indicator": return { lineWidth: r.f32(), dash: [r.f32(), r.f32()], dashPhase: r.f32() };
      case "gradient": return { width: r.f32(), height: r.f32(), corner: r.f32() };
      default: return {};
    }
  }

  // A widget's values field (0x01), by its layout kind: the JSON entry's keys of that kind.
  function readWidgetValues(r, kind) {
    switch (kind) {
      case "counter": {
        const hasData = r.u8() !== 0;
        const value = r.f64();
        const sign = SIGN[r.u8()] ?? "";
        const digits = [];
        for (let n = r.u8(); n > 0; n--) digits.push([r.u8(), r.u16() / 65536]);
        return { value: hasData ? value : null, sign, digits };
      }
      case "text": {
        const text = r.str8();
        const scales = [];
        for (let n = r.u8(); n > 0; n--) scales.push(r.u16() / 4096);
        return { text, scales };
      }
      case "indicator": {
        const hasData = r.u8() !== 0;
        const p = r.f32();
        const a1 = r.f32();
        return { p: hasData ? p : null, a0: 0, a1, color: r.color() };
      }
      case "gradient": {
        const stops = [];
        for (let n = r.u8(); n > 0; n--) stops.push([r.u16() / 65535, r.color()]);
        return { stops };
      }
      default: throw new BinaryProtocolError(`${kind} is not a widget kind`);
    }
  }

  function readWidget(r, spec, previous) {
    const fields = r.u8();
    if (fields & 0x3e) throw new BinaryProtocolError(`widget ${spec.id} has ring fields`);
    const v = previous ? { ...previous } : {};
    if (fields & 0x01) v.values = readWidgetValues(r, spec.kind);
    if (fields & 0x40) v.label = r.str8();
    if (fields & 0x80) v.labelColor = r.color();
    return v;
  }

  function widgetObject(spec, v) {
    return { id: spec.id, kind: spec.kind, label: v.label, labelColor: v.labelColor, ...v.values, ...staleKey(v) };
  }

  // `stale` only while the ring is stale, as in a JSON entry.
  function staleKey(v) {
    return v.stale ? { stale: v.stale } : {};
  }

  function decodeSplash(r) {
    const style = SPLASH_STYLE[r.u8()];
    if (style === undefined) throw new BinaryProtocolError("unknown splash style");
    const layer = { style };
    if (style === "angle") layer.angle = r.f32();
    layer.color = r.color();
    layer.progress = r.f32();
    layer.shapes = [];
    for (let n = r.u8(); n > 0; n--) layer.shapes.push(decodeShape(r));
    return layer;
  }

  function decodeShape(r) {
    const shape = r.u8();
    if (shape === 0) {
      const points = [];
      for (let n = r.u8(); n > 0; n--) points.push([r.f32(), r.f32()]);
      return { polygon: points };
    }
    if (shape === 1) return { circle: { cx: r.f32(), cy: r.f32(), r: r.f32() } };
    throw new BinaryProtocolError("unknown splash shape");
  }

  function readRing(r, previous) {
    const fields = r.u8();
    const v = previous ? { ...previous } : {};
    if (fields & 0x01) v.state = r.u8();
    if (fields & 0x02) { v.p = r.f32(); v.a1 = r.f32(); }
    if (fields & 0x04) { v.tipX = r.i16() / 16; v.tipY = r.i16() / 16; v.dx = r.i16() / 256; v.dy = r.i16() / 256; }
    if (fields & 0x08) { v.o1 = r.u16() / 65535; v.o2 = r.u16() / 65535; }
    if (fields & 0x10) v.start = r.color();
    if (fields & 0x20) v.end = r.color();
    if (fields & 0x40) v.label = r.str8();
    if (fields & 0x80) v.labelColor = r.color();
    return v;
  }

  // The JSON shape of one ring from its wire values (see PROTOCOL.md, "Binary encoding").
  function ringObject(spec, v) {
    const hasData = (v.state & 0x01) !== 0;
    const beyond = (v.state & 0x10) !== 0;
    const stops = beyond
      ? [[0, v.start], [1, v.end]]
      : [[0, v.start], [v.o1, v.end], [v.o2, v.end], [v.o2, v.start], [1, v.start]];
    return {
      id: spec.id,
      p: hasData ? v.p : null,
      a0: A0,
      a1: hasData ? v.a1 : A0,
      gradient: { start: beyond ? v.a1 : A0, stops },
      cap: { x: spec.capX, y: spec.capY, color: v.start, visible: (v.state & 0x04) !== 0 },
      tip: {
        x: v.tipX, y: v.tipY, color: v.end, visible: (v.state & 0x08) !== 0,
        shadow: { dx: v.dx, dy: v.dy, blur: SHADOW_BLUR, alpha: SHADOW_ALPHA },
      },
      label: v.label,
      labelColor: v.labelColor,
      ...staleKey(v),
      ...(v.spark ? { spark: v.spark } : {}),
    };
  }

  function decodeFrame(r, kind, flags) {
    if (!layout) throw new BinaryProtocolError("a frame before any layout");
    const seq = r.u32();
    const t = r.f64();
    let background = null;
    if (flags & FLAG_BACKGROUND) {
      const color = r.color();
      const text = r.color();
      const splash = [];
      for (let n = r.u8(); n > 0; n--) splash.push(decodeSplash(r));
      background = { color, text, splash };
    }
    const mentioned = []; // ring indices in the order the message names them
    const specOf = (index) => {
      const spec = layout.rings[index];
      if (!spec) throw new BinaryProtocolError(`ring index ${index} is not in the layout`);
      return spec;
    };
    for (let n = r.u8(); n > 0; n--) {
      const index = r.u8();
      const spec = specOf(index);
      const previous = kind === KIND_DELTA ? wire.get(index) : undefined;
      if (kind === KIND_DELTA && !previous) throw new BinaryProtocolError(`a delta for ring ${spec.id} before its keyframe`);
      const values = WIDGET_KINDS.has(spec.kind) ? readWidget(r, spec, previous) : readRing(r, previous);
      wire.set(index, values);
      mentioned.push(index);
    }
    // Version 5: each stale ring's text (a keyframe), or each changed one ("" no longer stale, a delta).
    if (flags & FLAG_STALE) {
      for (let n = r.u8(); n > 0; n--) {
        const index = r.u8();
        const spec = specOf(index);
        const values = wire.get(index);
        if (!values) throw new BinaryProtocolError(`a stale text for ring ${spec.id} before its keyframe`);
        values.stale = r.str8();
        if (!mentioned.includes(index)) mentioned.push(index);
      }
    }
    // Version 6: each ring's line (a keyframe), or each changed one (0 points: no line any more, a delta), in
    // thousandths: the JSON's values exactly.
    if (flags & FLAG_SPARK) {
      for (let n = r.u8(); n > 0; n--) {
        const index = r.u8();
        const spec = specOf(index);
        const values = wire.get(index);
        if (!values) throw new BinaryProtocolError(`a sparkline for ring ${spec.id} before its keyframe`);
        const line = [];
        for (let points = r.u8(); points > 0; points--) line.push(r.u16() / 1000, r.u16() / 1000);
        values.spark = line.length > 0 ? line : undefined;
        if (!mentioned.includes(index)) mentioned.push(index);
      }
    }
    r.end();
    const rings = mentioned.map((index) => {
      const spec = layout.rings[index];
      const values = wire.get(index);
      return WIDGET_KINDS.has(spec.kind) ? widgetObject(spec, values) : ringObject(spec, values);
    });
    return { type: "frame", board: layout.board, seq, t, keyframe: kind === KIND_KEYFRAME, rings, background };
  }

  // An event (a countdown ring reached 0): independent of the layout and of ring values.
  function decodeEvent(r) {
    const name = EVENT_NAME[r.u8()];
    const seq = r.u32();
    const t = r.f64();
    const board = r.str8();
    const ring = r.str8();
    r.end();
    return name === undefined ? null : { type: "event", event: name, board, ring, seq, t };
  }

  return {
    /** Decodes one binary message (an ArrayBuffer); throws BinaryProtocolError on bad input. */
    decode(buffer) {
      const r = new Reader(buffer);
      if (r.u8() !== MAGIC) throw new BinaryProtocolError("not a RingCast binary message");
      if (!VERSIONS.includes(r.u8())) throw new BinaryProtocolError("unsupported binary version");
      const kind = r.u8();
      const flags = r.u8();
      if (kind === KIND_LAYOUT) return decodeLayout(r);
      if (kind === KIND_KEYFRAME || kind === KIND_DELTA) return decodeFrame(r, kind, flags);
      if (kind === KIND_EVENT) return decodeEvent(r);
      throw new BinaryProtocolError(`unknown message kind ${kind}`);
    },
  };
}
