// The page's binary decoder against the golden bytes of the Swift encoder's test
// (Tests/RingCastCoreTests/BinaryFrameTests.swift). Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBinaryDecoder, BinaryProtocolError } from "../../web/binary.js";

// Little-endian writer for hand-made messages.
function bytes(build) {
  const out = [];
  const view = new DataView(new ArrayBuffer(8));
  const w = {
    u8: (v) => out.push(v),
    f32: (v) => { view.setFloat32(0, v, true); for (let i = 0; i < 4; i++) out.push(view.getUint8(i)); },
    str8: (s) => { const b = new TextEncoder().encode(s); out.push(b.length, ...b); },
    raw: (...b) => out.push(...b),
  };
  build(w);
  return new Uint8Array(out).buffer;
}

// A version 3 layout: rings (id, title, automatic title colour?) and arrangements that place each
// one (centre, cap relative to it, title and label spots with an optional width).
function layoutMessage({ board = "b", title = "b", rings, arrangements }) {
  return bytes((w) => {
    w.raw(0x52, 0x03, 0x01, 0x00);
    w.str8(board); w.str8(title); w.raw(0x00, 0x00, 0xff, 0xff);
    w.u8(rings.length);
    for (const ring of rings) {
      w.str8(ring.id); w.str8(ring.title); w.u8(0);
      w.u8(ring.automaticTitle ? 0x01 : 0x00); // ringFlags
      w.f32(50); w.f32(10); // r, thickness
      w.raw(0x2c, 0x2c, 0x2e, 0xff);
      if (ring.automaticTitle) w.raw(0, 0, 0, 0); else w.raw(0x8e, 0x8e, 0x93, 0xff);
    }
    w.u8(arrangements.length);
    for (const a of arrangements) {
      w.str8(a.name); w.f32(a.width); w.f32(a.height);
      for (const place of a.places) {
        for (const v of [place.cx, place.cy, 0, -50]) w.f32(v); // centre, cap (0, −r) from it
        for (const t of [place.title, place.label]) {
          w.f32(t.x); w.f32(t.y); w.f32(t.size); w.u8(1); w.f32(t.width ?? 0);
        }
      }
    }
  });
}

// The layout BinaryFrame.encode(Layout) writes for the Swift test's ring "r" (one arrangement).
// `automaticTitle`: the layout of BinaryFrameTests.layoutWithAnAutomaticTitleColour_matchesTheGoldenBytes.
function layoutBytes({ automaticTitle = false } = {}) {
  return layoutMessage({
    rings: [{ id: "r", title: "R", automaticTitle }],
    arrangements: [
      {
        name: "landscape", width: 640, height: 360,
        places: [{ cx: 100, cy: 100, title: { x: 100, y: 170, size: 12 }, label: { x: 100, y: 100, size: 20 } }],
      },
    ],
  });
}
const layout = layoutBytes();

// BinaryFrameTests.shaped: the same ring, and a portrait arrangement placing it at (180, 300).
const shaped = layoutMessage({
  title: "Builds",
  rings: [{ id: "r", title: "R" }],
  arrangements: [
    {
      name: "landscape", width: 640, height: 360,
      places: [{ cx: 100, cy: 100, title: { x: 100, y: 170, size: 12 }, label: { x: 100, y: 100, size: 20 } }],
    },
    {
      name: "portrait", width: 360, height: 640,
      places: [{ cx: 180, cy: 300, title: { x: 180, y: 370, size: 12, width: 300 }, label: { x: 180, y: 300, size: 20 } }],
    },
  ],
});

// BinaryFrameTests.keyframe_matchesTheGoldenBytes: ring r at p = 0.5.
const golden = new Uint8Array([
  0x52, 0x03, 0x02, 0x01, 0x07, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x44, 0x8f, 0x40,
  0x00, 0x00, 0x00, 0xff, 0xf2, 0xf2, 0xf7, 0xff, 0x00, 0x01, 0x00, 0xff, 0x07,
  0x00, 0x00, 0x00, 0x3f, 0xdb, 0x0f, 0xc9, 0x3f,
  0x00, 0x00, 0x20, 0x03, 0xdc, 0xfc, 0xe7, 0xff,
  0x00, 0x80, 0xff, 0xbf, 0xff, 0x00, 0x00, 0xff, 0x00, 0x00, 0xff, 0xff,
  0x03, 0x35, 0x30, 0x25, 0xff, 0xff, 0xff, 0xff,
]).buffer;

test("a layout decodes to the JSON layout's shape", () => {
  const decoded = createBinaryDecoder().decode(layout);
  assert.equal(decoded.type, "layout");
  assert.equal(decoded.board, "b");
  assert.equal(decoded.title, "b");
  assert.equal(decoded.background, "#0000ffff");
  assert.deepEqual(decoded.rings.map((r) => [r.id, r.title, r.kind, r.r, r.thickness, r.track]), [["r", "R", "plain", 50, 10, "#2c2c2eff"]]);
  assert.equal(decoded.rings[0].titleColor, "#8e8e93ff");
  assert.deepEqual(decoded.arrangements.map((a) => [a.name, a.width, a.height]), [["landscape", 640, 360]]);
  const [place] = decoded.arrangements[0].rings;
  assert.deepEqual([place.id, place.cx, place.cy], ["r", 100, 100]);
  assert.deepEqual(place.labelText, { x: 100, y: 100, size: 20, align: "center", width: null });
});

test("a layout with two arrangements places the ring in each, with text widths", () => {
  const decoded = createBinaryDecoder().decode(shaped);
  assert.equal(decoded.title, "Builds");
  assert.deepEqual(decoded.arrangements.map((a) => [a.name, a.width, a.height, a.rings[0].cx, a.rings[0].cy]), [
    ["landscape", 640, 360, 100, 100],
    ["portrait", 360, 640, 180, 300],
  ]);
  assert.deepEqual(decoded.arrangements[1].rings[0].titleText, { x: 180, y: 370, size: 12, align: "center", width: 300 });
});

test("an automatic title colour decodes to null", () => {
  const decoded = createBinaryDecoder().decode(layoutBytes({ automaticTitle: true }));
  assert.equal(decoded.rings[0].titleColor, null);
  assert.deepEqual(decoded.arrangements[0].rings[0].titleText, { x: 100, y: 170, size: 12, align: "center", width: null });
});

test("the golden keyframe decodes to the ring the server composed", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(layout);
  const frame = decoder.decode(golden);
  assert.equal(frame.type, "frame");
  assert.equal(frame.seq, 7);
  assert.equal(frame.t, 1000.5);
  assert.equal(frame.keyframe, true);
  assert.deepEqual(frame.background, { color: "#000000ff", text: "#f2f2f7ff", splash: [] });
  const [ring] = frame.rings;
  assert.equal(ring.id, "r");
  assert.equal(ring.p, 0.5);
  assert.equal(ring.a0, -Math.PI / 2);
  assert.equal(ring.a1, Math.fround(Math.PI / 2));
  // Relative to the ring's centre: the cap at 12 o'clock, the tip at 6 o'clock for p = 0.5.
  assert.deepEqual(ring.cap, { x: 0, y: -50, color: "#ff0000ff", visible: true });
  assert.deepEqual(ring.tip, { x: 0, y: 50, color: "#0000ffff", visible: false, shadow: { dx: -804 / 256, dy: -25 / 256, blur: 2, alpha: 0.15 } });
  assert.deepEqual(ring.gradient, {
    start: -Math.PI / 2,
    stops: [[0, "#ff0000ff"], [32768 / 65535, "#0000ffff"], [49151 / 65535, "#0000ffff"], [49151 / 65535, "#ff0000ff"], [1, "#ff0000ff"]],
  });
  assert.equal(ring.label, "50%");
  assert.equal(ring.labelColor, "#ffffffff");
});

test("a delta updates only the fields it carries and keeps the rest", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(layout);
  decoder.decode(golden);
  const delta = bytes((w) => {
    w.raw(0x52, 0x03, 0x03, 0x00, 0x08, 0x00, 0x00, 0x00);
    w.raw(0, 0, 0, 0, 0, 0x44, 0x8f, 0x40); // t 1000.5
    w.u8(1); w.u8(0); w.u8(0x02 | 0x40);
    w.f32(0.75); w.f32(Math.PI); w.str8("75%");
  });
  const frame = decoder.decode(delta);
  assert.equal(frame.keyframe, false);
  assert.equal(frame.background, null);
  const [ring] = frame.rings;
  assert.equal(ring.p, 0.75);
  assert.equal(ring.a1, Math.fround(Math.PI));
  assert.equal(ring.label, "75%");
  assert.equal(ring.tip.y, 50); // kept from the keyframe
  assert.equal(ring.cap.color, "#ff0000ff");
});

test("a delta with a new background carries its text colour", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(layout);
  decoder.decode(golden);
  const delta = bytes((w) => {
    w.raw(0x52, 0x03, 0x03, 0x01, 0x08, 0x00, 0x00, 0x00);
    w.raw(0, 0, 0, 0, 0, 0x44, 0x8f, 0x40); // t 1000.5
    w.raw(0xff, 0xff, 0xff, 0xff, 0x1c, 0x1c, 0x1e, 0xff, 0x00); // white, dark text, no splash
    w.u8(0); // no rings changed
  });
  const frame = decoder.decode(delta);
  assert.deepEqual(frame.background, { color: "#ffffffff", text: "#1c1c1eff", splash: [] });
  assert.deepEqual(frame.rings, []);
});

test("a tip left of and above the centre decodes to negative coordinates", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(layout);
  decoder.decode(golden);
  const delta = bytes((w) => {
    w.raw(0x52, 0x03, 0x03, 0x00, 0x08, 0x00, 0x00, 0x00);
    w.raw(0, 0, 0, 0, 0, 0x44, 0x8f, 0x40);
    w.u8(1); w.u8(0); w.u8(0x04);
    w.raw(0xe0, 0xfc, 0xc8, 0xfd); // tip (−50, −35.5) in 1/16: −800, −568
    w.raw(0x00, 0x00, 0x00, 0x00); // no shadow offset
  });
  const [ring] = decoder.decode(delta).rings;
  assert.deepEqual([ring.tip.x, ring.tip.y], [-50, -35.5]);
});

test("a splash layer carries one shape per arrangement", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(shaped);
  const frame = decoder.decode(bytes((w) => {
    w.raw(0x52, 0x03, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00);
    w.raw(0, 0, 0, 0, 0, 0, 0, 0); // t 0
    w.raw(0, 0, 0, 0xff, 0xf2, 0xf2, 0xf7, 0xff);
    w.u8(1); // one layer
    w.u8(4); w.raw(0xff, 0, 0, 0xff); w.f32(0.5); // circle, red, halfway
    w.u8(2); // two shapes
    w.u8(1); w.f32(320); w.f32(180); w.f32(1000);
    w.u8(1); w.f32(180); w.f32(320); w.f32(1000);
    w.u8(0); // no rings
  }));
  const [layer] = frame.background.splash;
  assert.deepEqual(layer.shapes, [{ circle: { cx: 320, cy: 180, r: 1000 } }, { circle: { cx: 180, cy: 320, r: 1000 } }]);
});

test("a layout mid-stream replaces the ring indices: frames after it refer to the new rings", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(layout);
  decoder.decode(golden);
  // The board changed: ring "s" now comes first, "r" second.
  const place = { cx: 100, cy: 100, title: { x: 0, y: 0, size: 12 }, label: { x: 0, y: 0, size: 20 } };
  decoder.decode(layoutMessage({
    rings: [{ id: "s", title: "S" }, { id: "r", title: "R" }],
    arrangements: [{ name: "landscape", width: 640, height: 360, places: [place, { ...place, cx: 300 }] }],
  }));
  const deltaForIndex0 = bytes((w) => {
    w.raw(0x52, 0x03, 0x03, 0x00, 0x08, 0x00, 0x00, 0x00);
    w.raw(0, 0, 0, 0, 0, 0x44, 0x8f, 0x40);
    w.u8(1); w.u8(0); w.u8(0x40); w.str8("9%");
  });
  // The values held for the old layout's ring 0 are gone: a delta needs the new keyframe first.
  assert.throws(() => decoder.decode(deltaForIndex0), BinaryProtocolError);
  const keyframe = new Uint8Array(golden.slice(0));
  const [ring] = decoder.decode(keyframe.buffer).rings;
  assert.equal(ring.id, "s");
  assert.equal(decoder.decode(deltaForIndex0).rings[0].id, "s");
});

test("a version 2 message is refused", () => {
  assert.throws(() => createBinaryDecoder().decode(new Uint8Array([0x52, 0x02, 0x01, 0x00]).buffer), BinaryProtocolError);
});

test("bad input throws BinaryProtocolError, never anything else", () => {
  const decoder = createBinaryDecoder();
  assert.throws(() => decoder.decode(new Uint8Array([]).buffer), BinaryProtocolError);
  assert.throws(() => decoder.decode(new Uint8Array([0x41, 1, 1, 0]).buffer), BinaryProtocolError);
  assert.throws(() => decoder.decode(golden), BinaryProtocolError, "a frame before the layout");
  decoder.decode(layout);
  assert.throws(() => decoder.decode(golden.slice(0, 30)), BinaryProtocolError);
});

// CountdownOptionsTests.eventMessages_haveTheDocumentedShapeAndBytes: countdownEnded on board main,
// ring countdown, seq 0x01020304, t 1.5.
const eventBytes = new Uint8Array([
  0x52, 0x03, 0x04, 0x00, 0x01, 0x04, 0x03, 0x02, 0x01,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f,
  0x04, ...new TextEncoder().encode("main"), 0x09, ...new TextEncoder().encode("countdown"),
]).buffer;

test("an event decodes without a layout, and leaves the ring values alone", () => {
  const decoder = createBinaryDecoder();
  assert.deepEqual(decoder.decode(eventBytes), {
    type: "event", event: "countdownEnded", board: "main", ring: "countdown", seq: 0x01020304, t: 1.5,
  });
  decoder.decode(layout);
  decoder.decode(golden);
  decoder.decode(eventBytes);
  const delta = new Uint8Array([0x52, 0x03, 0x03, 0x00, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0x44, 0x8f, 0x40, 0x00]).buffer;
  assert.equal(decoder.decode(delta).type, "frame", "a delta after the event still finds its base");
});

test("the seed style flag decodes to style seed; without it, no key, as in JSON", () => {
  const seeded = new Uint8Array(layout.slice(0));
  const flagsAt = 4 + 2 + 2 + 4 + 1 + 2 + 2 + 1; // header, board, title, background, count, id, title, kind
  assert.equal(seeded[flagsAt], 0x00);
  seeded[flagsAt] = 0x02;
  assert.equal(createBinaryDecoder().decode(seeded.buffer).rings[0].style, "seed");
  assert.equal(createBinaryDecoder().decode(layout).rings[0].style, undefined); // protocol.js reads it as "ring"
});
