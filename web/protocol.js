// Decoding of the server's WebSocket messages (contract: protocol-json.md).
//
// decode(data) turns one message into a plain object of one fixed shape, whatever the encoding,
// so the rest of the page never sees JSON or bytes: text messages are JSON, ArrayBuffer messages
// the binary encoding (binary.js), and both pass the same checks into the same shapes:
//
//   {type: "layout", board, title, background, rings: [Ring], arrangements: [Arrangement]}
//   Ring: {id, title, kind, r, thickness, track, titleColor, style} (titleColor null when automatic:
//         drawn in the last frame's background.text; style "seed" for seed 004's countdown look,
//         else "ring"); a widget adds its kind's sizes: counter {digits, decimals, sign, grouping,
//         unit}, text {waveWidth}, indicator {lineWidth, dash, dashPhase}, gradient {width, height,
//         corner}
//   Arrangement: {name, width, height, rings: [Place]}, one Place per ring in the layout's order:
//         {id, cx, cy, titleText, labelText}, texts {x, y, size, align, width} (width null: none)
//   {type: "frame", board, seq, t, rings: [RingValues], background: {color, text, splash: [Splash]} | null}
//   (a ring's cap and tip are relative to its centre, so one frame serves every arrangement)
//   A widget's RingValues are {id, kind, label, labelColor} and its kind's values instead: counter
//         {value, sign, digits: [[digit, fraction], …]}, text {text, scales}, indicator {p, a0, a1,
//         color}, gradient {stops: [[offset, colour], …]}
//   Splash: {style, color, progress, shapes: [Shape]}, one Shape per arrangement, in the layout's
//         order: {polygon: [[x, y], …]} | {circle: {cx, cy, r}}
//   Every RingValues also has `stale` while the ring or widget is stale (DESIGN §13): the server's
//         "updated … ago" text; no key while it is fresh
//   A ring's RingValues also has `spark` while it has a sparkline (issue 33): [x0, y0, x1, y1, …],
//         oldest first, each in [0, 1] (draw.js draws it in the band under the label); no key without
//         one. A JSON delta's entry without `spark` keeps the line held (`[]`: none any more), so the
//         page is handed every ring's whole line, as the binary decoder hands it.
//   {type: "event", event, board, ring, seq, t}: a countdown ring reached 0 (event "countdownEnded")
//   null for a message type this page does not know (to be ignored)
//
// A malformed message throws ProtocolError. Every field the page draws with is checked here, so
// draw.js can hand the values to the canvas without checks of its own.

import { createBinaryDecoder } from "./binary.js";

export class ProtocolError extends Error {
  constructor(message) {
    super(message);
    this.name = "ProtocolError";
  }
}

// One binary decoder for the page: it keeps the last values of each ring for deltas and starts
// over at every layout, which every (re)connection begins with.
const binary = createBinaryDecoder();
// The JSON frames' sparklines by ring id: a delta's entry carries its `spark` only when it changed.
// Started over at every layout and keyframe, which carry every line.
const heldSparks = new Map();

export function decode(data) {
  if (typeof data === "string") {
    return decodeJSON(data);
  }
  if (data instanceof ArrayBuffer) {
    let message;
    try {
      message = binary.decode(data);
    } catch (error) {
      throw new ProtocolError(error instanceof Error ? error.message : String(error));
    }
    if (message === null) return null; // an event this page does not know
    if (message.type === "event") return event(message);
    return message.type === "layout" ? layout(message) : frame(message);
  }
  throw new ProtocolError("a message that is neither text nor binary");
}

function decodeJSON(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    throw new ProtocolError("message is not valid JSON");
  }
  const m = object(message, "message");
  switch (m.type) {
    case "error":
      return refusal(m);
    case "layout":
      heldSparks.clear();
      return layout(m);
    case "frame":
      return holdSparks(m, frame(m));
    case "event":
      return event(m);
    default:
      return null;
  }
}

// Why the server will not stream this board to this page (docs/PROTOCOL.md, "error").
function refusal(m) {
  return {
    type: "error",
    status: number(m.status, "error.status"),
    code: string(m.code, "error.code"),
    message: string(m.message, "error.message"),
    field: optional(m.field, "error.field", string),
    boards: optional(m.boards, "error.boards", (value, at) => array(value, at).map((b, i) => string(b, `${at}[${i}]`))),
    retryAfter: optional(m.retryAfter, "error.retryAfter", number),
  };
}

function layout(m) {
  const rings = array(m.rings, "layout.rings").map((r, i) => ring(r, `layout.rings[${i}]`));
  const arrangements = array(m.arrangements, "layout.arrangements").map((a, i) =>
    arrangement(a, `layout.arrangements[${i}]`, rings),
  );
  if (arrangements.length === 0) {
    throw new ProtocolError("layout.arrangements must not be empty");
  }
  const board = string(m.board, "layout.board");
  return {
    type: "layout",
    board,
    title: m.title === undefined ? board : string(m.title, "layout.title"),
    background: colour(m.background, "layout.background"),
    rings,
    arrangements,
  };
}

// Something that happened on the board on tick `seq` (docs/PROTOCOL.md, "event").
function event(m) {
  return {
    type: "event",
    event: string(m.event, "event.event"),
    board: string(m.board, "event.board"),
    ring: string(m.ring, "event.ring"),
    seq: number(m.seq, "event.seq"),
    t: number(m.t, "event.t"),
  };
}

function ring(value, at) {
  const r = object(value, at);
  const kind = r.kind === undefined ? "plain" : string(r.kind, `${at}.kind`);
  return {
    id: string(r.id, `${at}.id`),
    title: r.title === undefined ? "" : string(r.title, `${at}.title`),
    kind,
    r: positive(r.r, `${at}.r`),
    thickness: positive(r.thickness, `${at}.thickness`),
    track: colour(r.track, `${at}.track`),
    titleColor: optional(r.titleColor, `${at}.titleColor`, colour),
    style: r.style === "seed" ? "seed" : "ring", // a style this page does not know draws as a ring
    ...widgetLayout(kind, r, at),
  };
}

// What a widget's layout entry adds (DESIGN §12): how it is sized, never a value.
function widgetLayout(kind, r, at) {
  switch (kind) {
    case "counter":
      return {
        digits: optional(r.digits, `${at}.digits`, number),
        decimals: count(r.decimals, `${at}.decimals`),
        sign: boolean(r.sign, `${at}.sign`),
        grouping: optional(r.grouping, `${at}.grouping`, string),
        unit: optional(r.unit, `${at}.unit`, string),
      };
    case "text":
      return { waveWidth: number(r.waveWidth, `${at}.waveWidth`) };
    case "indicator":
      return {
        lineWidth: positive(r.lineWidth, `${at}.lineWidth`),
        dash: array(r.dash, `${at}.dash`).map((d, i) => nonNegative(d, `${at}.dash[${i}]`)),
        dashPhase: number(r.dashPhase, `${at}.dashPhase`),
      };
    case "gradient":
      return {
        width: positive(r.width, `${at}.width`),
        height: positive(r.height, `${at}.height`),
        corner: nonNegative(r.corner, `${at}.corner`), // roundRect throws on a negative radius
      };
    default:
      return {};
  }
}

// One place per ring, in the layout's ring order, so that draw.js can pair them by index.
function arrangement(value, at, rings) {
  const a = object(value, at);
  const places = array(a.rings, `${at}.rings`);
  if (places.length !== rings.length) {
    throw new ProtocolError(`${at}.rings must place each of the layout's ${rings.length} rings`);
  }
  return {
    name: string(a.name, `${at}.name`),
    width: positive(a.width, `${at}.width`),
    height: positive(a.height, `${at}.height`),
    rings: places.map((p, i) => {
      const place = object(p, `${at}.rings[${i}]`);
      if (place.id !== rings[i].id) {
        throw new ProtocolError(`${at}.rings[${i}].id must be "${rings[i].id}", the layout's ring ${i}`);
      }
      return {
        id: place.id,
        cx: number(place.cx, `${at}.rings[${i}].cx`),
        cy: number(place.cy, `${at}.rings[${i}].cy`),
        titleText: optional(place.titleText, `${at}.rings[${i}].titleText`, textSpot),
        labelText: optional(place.labelText, `${at}.rings[${i}].labelText`, textSpot),
      };
    }),
  };
}

const ALIGNS = new Set(["left", "center", "right"]);

function textSpot(value, at) {
  const t = object(value, at);
  if (!ALIGNS.has(t.align)) {
    throw new ProtocolError(`${at}.align must be "left", "center" or "right"`);
  }
  return {
    x: number(t.x, `${at}.x`),
    y: number(t.y, `${at}.y`),
    size: positive(t.size, `${at}.size`),
    align: t.align,
    // fillText's maxWidth; null (or the binary's 0): as wide as the text.
    width: t.width === undefined || t.width === null || t.width === 0 ? null : positive(t.width, `${at}.width`),
  };
}

function frame(m) {
  const background = optional(m.background, "frame.background", (value, at) => {
    const b = object(value, at);
    return {
      color: colour(b.color, `${at}.color`),
      text: colour(b.text, `${at}.text`),
      splash:
        b.splash === undefined ? [] : array(b.splash, `${at}.splash`).map((l, i) => splash(l, `${at}.splash[${i}]`)),
    };
  });
  return {
    type: "frame",
    board: string(m.board, "frame.board"),
    seq: number(m.seq, "frame.seq"),
    t: number(m.t, "frame.t"),
    rings: array(m.rings, "frame.rings").map((r, i) => ringValues(r, `frame.rings[${i}]`)),
    background,
  };
}

// A JSON frame's rings with the lines the page holds for entries without `spark` (a delta's, for a
// line that did not change); each line sent replaces the one held.
function holdSparks(m, decoded) {
  if (m.keyframe === true) {
    heldSparks.clear();
  }
  decoded.rings.forEach((ring, i) => {
    if (ring.kind !== undefined) {
      return; // a widget has no sparkline
    }
    if (m.rings[i].spark === undefined) {
      const held = heldSparks.get(ring.id);
      if (held !== undefined) {
        ring.spark = held;
      }
    } else if (ring.spark === undefined) {
      heldSparks.delete(ring.id);
    } else {
      heldSparks.set(ring.id, ring.spark);
    }
  });
  return decoded;
}

const WIDGETS = new Set(["counter", "text", "indicator", "gradient"]);

function ringValues(value, at) {
  const r = object(value, at);
  if (r.kind !== undefined) {
    return widgetValues(r, at);
  }
  const gradient = object(r.gradient, `${at}.gradient`);
  const cap = object(r.cap, `${at}.cap`);
  const tip = object(r.tip, `${at}.tip`);
  const shadow = object(tip.shadow, `${at}.tip.shadow`);
  return {
    id: string(r.id, `${at}.id`),
    p: r.p === null ? null : number(r.p, `${at}.p`),
    a0: number(r.a0, `${at}.a0`),
    a1: number(r.a1, `${at}.a1`),
    gradient: {
      start: number(gradient.start, `${at}.gradient.start`),
      stops: array(gradient.stops, `${at}.gradient.stops`).map((s, i) =>
        colourStop(s, `${at}.gradient.stops[${i}]`),
      ),
    },
    cap: {
      x: number(cap.x, `${at}.cap.x`),
      y: number(cap.y, `${at}.cap.y`),
      color: colour(cap.color, `${at}.cap.color`),
      visible: boolean(cap.visible, `${at}.cap.visible`),
    },
    tip: {
      x: number(tip.x, `${at}.tip.x`),
      y: number(tip.y, `${at}.tip.y`),
      color: colour(tip.color, `${at}.tip.color`),
      visible: boolean(tip.visible, `${at}.tip.visible`),
      shadow: {
        dx: number(shadow.dx, `${at}.tip.shadow.dx`),
        dy: number(shadow.dy, `${at}.tip.shadow.dy`),
        blur: number(shadow.blur, `${at}.tip.shadow.blur`),
        alpha: number(shadow.alpha, `${at}.tip.shadow.alpha`),
      },
    },
    label: string(r.label, `${at}.label`),
    labelColor: colour(r.labelColor, `${at}.labelColor`),
    ...staleText(r, at),
    ...sparkLine(r, at),
  };
}

// `{spark}` while the ring has a line ([x0, y0, …], each in [0, 1]), else nothing (absent, null or `[]`).
function sparkLine(r, at) {
  if (r.spark === undefined || r.spark === null) {
    return {};
  }
  const line = array(r.spark, `${at}.spark`);
  if (line.length % 2 !== 0 || line.length === 2) {
    throw new ProtocolError(`${at}.spark must be [x0, y0, x1, y1, …], at least two points`);
  }
  line.forEach((value, i) => {
    if (number(value, `${at}.spark[${i}]`) < 0 || value > 1) {
      throw new ProtocolError(`${at}.spark[${i}] must be from 0 to 1`);
    }
  });
  return line.length === 0 ? {} : { spark: line };
}

// A widget's entry (DESIGN §12): id, kind, label, labelColor and its kind's values, in the wire's
// shape. A frame entry replaces the widget's last one whole, as a ring's does.
function widgetValues(r, at) {
  const kind = string(r.kind, `${at}.kind`);
  if (!WIDGETS.has(kind)) {
    throw new ProtocolError(`${at}.kind must be "counter", "text", "indicator" or "gradient"`);
  }
  const common = {
    id: string(r.id, `${at}.id`),
    kind,
    label: string(r.label, `${at}.label`),
    labelColor: colour(r.labelColor, `${at}.labelColor`),
    ...staleText(r, at),
  };
  switch (kind) {
    case "counter":
      return {
        ...common,
        value: r.value === null ? null : number(r.value, `${at}.value`),
        sign: string(r.sign, `${at}.sign`),
        digits: array(r.digits, `${at}.digits`).map((column, i) => {
          if (!Array.isArray(column) || column.length !== 2) {
            throw new ProtocolError(`${at}.digits[${i}] must be [digit, fraction]`);
          }
          const digit = number(column[0], `${at}.digits[${i}][0]`);
          if (!Number.isInteger(digit) || digit < 0 || digit > 9) {
            throw new ProtocolError(`${at}.digits[${i}][0] must be a digit 0 to 9`);
          }
          return [digit, number(column[1], `${at}.digits[${i}][1]`)];
        }),
      };
    case "text":
      return {
        ...common,
        text: string(r.text, `${at}.text`),
        scales: array(r.scales, `${at}.scales`).map((s, i) => number(s, `${at}.scales[${i}]`)),
      };
    case "indicator":
      return {
        ...common,
        p: r.p === null ? null : number(r.p, `${at}.p`),
        a0: number(r.a0, `${at}.a0`),
        a1: number(r.a1, `${at}.a1`),
        color: colour(r.color, `${at}.color`),
      };
    default:
      return {
        ...common,
        stops: array(r.stops, `${at}.stops`).map((s, i) => colourStop(s, `${at}.stops[${i}]`)),
      };
  }
}

// `{stale}` while the entry is stale (the server's text), else nothing: fresh entries keep their keys.
function staleText(r, at) {
  return r.stale === undefined || r.stale === null ? {} : { stale: string(r.stale, `${at}.stale`) };
}

// A splash layer, in the wire's shape (binary.js yields the same): {style, angle?, color,
// progress, shapes: [{polygon: [[x, y], …]} | {circle: {cx, cy, r}}]}, one shape per arrangement.
// Only colour and shapes are drawn; style and progress are for people.
function splash(value, at) {
  const l = object(value, at);
  return {
    style: string(l.style, `${at}.style`),
    color: colour(l.color, `${at}.color`),
    progress: number(l.progress, `${at}.progress`),
    shapes: array(l.shapes, `${at}.shapes`).map((s, i) => splashShape(s, `${at}.shapes[${i}]`)),
  };
}

function splashShape(value, at) {
  const shape = object(value, at);
  if (shape.polygon !== undefined) {
    const polygon = array(shape.polygon, `${at}.polygon`).map((point, i) => {
      if (!Array.isArray(point) || point.length !== 2) {
        throw new ProtocolError(`${at}.polygon[${i}] must be [x, y]`);
      }
      return [number(point[0], `${at}.polygon[${i}][0]`), number(point[1], `${at}.polygon[${i}][1]`)];
    });
    return { polygon };
  }
  const circle = object(shape.circle, `${at}.circle`);
  const r = number(circle.r, `${at}.circle.r`);
  if (r < 0) {
    throw new ProtocolError(`${at}.circle.r must not be negative`);
  }
  return { circle: { cx: number(circle.cx, `${at}.circle.cx`), cy: number(circle.cy, `${at}.circle.cy`), r } };
}

// addColorStop throws on an offset outside [0, 1] or an unparsable colour: refuse both here.
function colourStop(value, at) {
  if (!Array.isArray(value) || value.length !== 2) {
    throw new ProtocolError(`${at} must be [offset, colour]`);
  }
  const offset = number(value[0], `${at}[0]`);
  if (offset < 0 || offset > 1) {
    throw new ProtocolError(`${at}[0] must lie in [0, 1]`);
  }
  return [offset, colour(value[1], `${at}[1]`)];
}

// --- field checks ------------------------------------------------------------------------------

function object(value, at) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ProtocolError(`${at} must be an object`);
  }
  return value;
}

function array(value, at) {
  if (!Array.isArray(value)) {
    throw new ProtocolError(`${at} must be an array`);
  }
  return value;
}

function string(value, at) {
  if (typeof value !== "string") {
    throw new ProtocolError(`${at} must be a string`);
  }
  return value;
}

function number(value, at) {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new ProtocolError(`${at} must be a finite number`);
  }
  return value;
}

function positive(value, at) {
  if (number(value, at) <= 0) {
    throw new ProtocolError(`${at} must be positive`);
  }
  return value;
}

function nonNegative(value, at) {
  if (number(value, at) < 0) {
    throw new ProtocolError(`${at} must not be negative`);
  }
  return value;
}

function count(value, at) {
  if (!Number.isInteger(number(value, at)) || value < 0) {
    throw new ProtocolError(`${at} must be a whole number, 0 or more`);
  }
  return value;
}

function boolean(value, at) {
  if (typeof value !== "boolean") {
    throw new ProtocolError(`${at} must be true or false`);
  }
  return value;
}

const COLOUR = /^#[0-9a-f]{8}$/i;

function colour(value, at) {
  if (typeof value !== "string" || !COLOUR.test(value)) {
    throw new ProtocolError(`${at} must be a colour "#rrggbbaa"`);
  }
  return value;
}

function optional(value, at, check) {
  return value === undefined || value === null ? null : check(value, at);
}
