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

// The layout BinaryFrame.encode(Layout) writes for the Swift test's ring "r".
// `automaticTitle`: the layout of BinaryFrameTests.layoutWithAnAutomaticTitleColour_matchesTheGoldenBytes.
function layoutBytes({ automaticTitle = false } = {}) {
  return bytes((w) => {
    w.raw(0x52, 0x02, 0x01, 0x00);
    w.f32(640); w.f32(360); w.raw(0x00, 0x00, 0xff, 0xff); w.str8("b");
    w.u8(1);
    w.str8("r"); w.str8("R"); w.u8(0);
    w.u8(automaticTitle ? 0x01 : 0x00); // ringFlags
    for (const v of [100, 100, 50, 10, 100, 50]) w.f32(v);
    w.raw(0x2c, 0x2c, 0x2e, 0xff);
    if (automaticTitle) w.raw(0, 0, 0, 0); else w.raw(0x8e, 0x8e, 0x93, 0xff);
    w.f32(100); w.f32(170); w.f32(12); w.u8(1);
    w.f32(100); w.f32(100); w.f32(20); w.u8(1);
  });
}
const layout = layoutBytes();

// BinaryFrameTests.keyframe_matchesTheGoldenBytes: ring r at p = 0.5.
const golden = new Uint8Array([
  0x52, 0x02, 0x02, 0x01, 0x07, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x44, 0x8f, 0x40,
  0x00, 0x00, 0x00, 0xff, 0xf2, 0xf2, 0xf7, 0xff, 0x00, 0x01, 0x00, 0xff, 0x07,
  0x00, 0x00, 0x00, 0x3f, 0xdb, 0x0f, 0xc9, 0x3f,
  0x40, 0x06, 0x60, 0x09, 0xdc, 0xfc, 0xe7, 0xff,
  0x00, 0x80, 0xff, 0xbf, 0xff, 0x00, 0x00, 0xff, 0x00, 0x00, 0xff, 0xff,
  0x03, 0x35, 0x30, 0x25, 0xff, 0xff, 0xff, 0xff,
]).buffer;

test("a layout decodes to the JSON layout's shape", () => {
  const decoded = createBinaryDecoder().decode(layout);
  assert.equal(decoded.type, "layout");
  assert.equal(decoded.board, "b");
  assert.equal(decoded.width, 640);
  assert.equal(decoded.background, "#0000ffff");
  assert.deepEqual(decoded.rings.map((r) => [r.id, r.title, r.kind, r.cx, r.r, r.track]), [["r", "R", "plain", 100, 50, "#2c2c2eff"]]);
  assert.deepEqual(decoded.rings[0].labelText, { x: 100, y: 100, size: 20, align: "center" });
  assert.equal(decoded.rings[0].titleColor, "#8e8e93ff");
});

test("an automatic title colour decodes to null", () => {
  const decoded = createBinaryDecoder().decode(layoutBytes({ automaticTitle: true }));
  assert.equal(decoded.rings[0].titleColor, null);
  assert.deepEqual(decoded.rings[0].titleText, { x: 100, y: 170, size: 12, align: "center" });
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
  assert.deepEqual(ring.cap, { x: 100, y: 50, color: "#ff0000ff", visible: true });
  assert.deepEqual(ring.tip, { x: 100, y: 150, color: "#0000ffff", visible: false, shadow: { dx: -804 / 256, dy: -25 / 256, blur: 2, alpha: 0.15 } });
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
    w.raw(0x52, 0x02, 0x03, 0x00, 0x08, 0x00, 0x00, 0x00);
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
  assert.equal(ring.tip.x, 100); // kept from the keyframe
  assert.equal(ring.cap.color, "#ff0000ff");
});

test("a delta with a new background carries its text colour", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(layout);
  decoder.decode(golden);
  const delta = bytes((w) => {
    w.raw(0x52, 0x02, 0x03, 0x01, 0x08, 0x00, 0x00, 0x00);
    w.raw(0, 0, 0, 0, 0, 0x44, 0x8f, 0x40); // t 1000.5
    w.raw(0xff, 0xff, 0xff, 0xff, 0x1c, 0x1c, 0x1e, 0xff, 0x00); // white, dark text, no splash
    w.u8(0); // no rings changed
  });
  const frame = decoder.decode(delta);
  assert.deepEqual(frame.background, { color: "#ffffffff", text: "#1c1c1eff", splash: [] });
  assert.deepEqual(frame.rings, []);
});

test("a version 1 message is refused", () => {
  assert.throws(() => createBinaryDecoder().decode(new Uint8Array([0x52, 0x01, 0x01, 0x00]).buffer), BinaryProtocolError);
});

test("bad input throws BinaryProtocolError, never anything else", () => {
  const decoder = createBinaryDecoder();
  assert.throws(() => decoder.decode(new Uint8Array([]).buffer), BinaryProtocolError);
  assert.throws(() => decoder.decode(new Uint8Array([0x41, 1, 1, 0]).buffer), BinaryProtocolError);
  assert.throws(() => decoder.decode(golden), BinaryProtocolError, "a frame before the layout");
  decoder.decode(layout);
  assert.throws(() => decoder.decode(golden.slice(0, 30)), BinaryProtocolError);
});
