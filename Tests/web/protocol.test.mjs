// The page's decoder gives JSON and binary messages one shape. Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { decode, ProtocolError } from "../../web/protocol.js";

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

// BinaryFrameTests.shaped: ring r (radius 50) at (100, 100) in landscape, (180, 300) in portrait.
const jsonLayout = JSON.stringify({
  type: "layout", board: "b", title: "Builds", background: "#0000ffff",
  rings: [{ id: "r", title: "R", kind: "plain", r: 50, thickness: 10, track: "#2c2c2eff", titleColor: "#8e8e93ff" }],
  arrangements: [
    { name: "landscape", width: 640, height: 360, rings: [{ id: "r", cx: 100, cy: 100, r: 50, thickness: 10,
      titleText: { x: 100, y: 170, size: 12, align: "center" }, labelText: { x: 100, y: 100, size: 20, align: "center" } }] },
    { name: "portrait", width: 360, height: 640, rings: [{ id: "r", cx: 180, cy: 300, r: 50, thickness: 10,
      titleText: { x: 180, y: 370, size: 12, align: "center", width: 300 }, labelText: { x: 180, y: 300, size: 20, align: "center" } }] },
  ],
});

const binaryLayout = bytes((w) => {
  w.raw(0x52, 0x03, 0x01, 0x00);
  w.str8("b"); w.str8("Builds"); w.raw(0x00, 0x00, 0xff, 0xff);
  w.u8(1);
  w.str8("r"); w.str8("R"); w.u8(0); w.u8(0); w.f32(50); w.f32(10);
  w.raw(0x2c, 0x2c, 0x2e, 0xff); w.raw(0x8e, 0x8e, 0x93, 0xff);
  w.u8(2);
  for (const [name, width, height, cx, cy, title, label] of [
    ["landscape", 640, 360, 100, 100, [100, 170, 12, 0], [100, 100, 20, 0]],
    ["portrait", 360, 640, 180, 300, [180, 370, 12, 300], [180, 300, 20, 0]],
  ]) {
    w.str8(name); w.f32(width); w.f32(height);
    w.f32(cx); w.f32(cy); w.f32(0); w.f32(-50);
    for (const [x, y, size, maxWidth] of [title, label]) { w.f32(x); w.f32(y); w.f32(size); w.u8(1); w.f32(maxWidth); }
  }
});

// BinaryFrameTests.keyframe_matchesTheGoldenBytes (ring r at p = 0.5) and the same frame in JSON,
// as FrameEncoder writes it.
const binaryFrame = new Uint8Array([
  0x52, 0x03, 0x02, 0x01, 0x07, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x44, 0x8f, 0x40,
  0x00, 0x00, 0x00, 0xff, 0xf2, 0xf2, 0xf7, 0xff, 0x00, 0x01, 0x00, 0xff, 0x07,
  0x00, 0x00, 0x00, 0x3f, 0xdb, 0x0f, 0xc9, 0x3f,
  0x00, 0x00, 0x20, 0x03, 0xdc, 0xfc, 0xe7, 0xff,
  0x00, 0x80, 0xff, 0xbf, 0xff, 0x00, 0x00, 0xff, 0x00, 0x00, 0xff, 0xff,
  0x03, 0x35, 0x30, 0x25, 0xff, 0xff, 0xff, 0xff,
]).buffer;
const jsonFrame = JSON.stringify({
  type: "frame", board: "b", seq: 7, t: 1000.5, keyframe: true,
  rings: [{
    id: "r", p: 0.5, a0: -Math.PI / 2, a1: Math.PI / 2,
    gradient: { start: -Math.PI / 2, stops: [[0, "#ff0000ff"], [0.5, "#0000ffff"], [0.75, "#0000ffff"], [0.75, "#ff0000ff"], [1, "#ff0000ff"]] },
    cap: { x: 0, y: -50, color: "#ff0000ff", visible: true },
    tip: { x: 3.061616997868383e-15, y: 50, color: "#0000ffff", visible: false,
      shadow: { dx: -3.1395259764656687, dy: -0.09866357858642185, blur: 2, alpha: 0.15 } },
    label: "50%", labelColor: "#ffffffff",
  }],
  background: { color: "#000000ff", text: "#f2f2f7ff", splash: [] },
});

test("a layout decodes alike from JSON and binary: rings, and each arrangement's places", () => {
  const fromJSON = decode(jsonLayout);
  const fromBinary = decode(binaryLayout);
  assert.deepEqual(fromBinary, fromJSON);
  assert.equal(fromJSON.arrangements[1].rings[0].titleText.width, 300);
  assert.equal(fromJSON.arrangements[0].rings[0].titleText.width, null);
});

test("ring-relative cap and tip decode alike from JSON and binary", () => {
  decode(binaryLayout);
  const [fromBinary] = decode(binaryFrame).rings;
  const [fromJSON] = decode(jsonFrame).rings;
  assert.deepEqual(fromBinary.cap, fromJSON.cap);
  for (const axis of ["x", "y"]) {
    assert.ok(Math.abs(fromBinary.tip[axis] - fromJSON.tip[axis]) <= 1 / 32, `tip.${axis}`);
  }
  assert.deepEqual([fromBinary.cap.x, fromBinary.cap.y, fromBinary.tip.x, fromBinary.tip.y], [0, -50, 0, 50]);
});

test("a JSON splash layer carries one shape per arrangement", () => {
  const frame = JSON.parse(jsonFrame);
  frame.background.splash = [{ style: "circle", color: "#4533c9ff", progress: 0.5,
    shapes: [{ circle: { cx: 320, cy: 180, r: 100 } }, { polygon: [[0, 0], [10, 0], [0, 10]] }] }];
  const [layer] = decode(JSON.stringify(frame)).background.splash;
  assert.deepEqual(layer.shapes, [{ circle: { cx: 320, cy: 180, r: 100 } }, { polygon: [[0, 0], [10, 0], [0, 10]] }]);
});

test("an arrangement that does not place every ring in order is refused", () => {
  const layout = JSON.parse(jsonLayout);
  layout.arrangements[1].rings = [];
  assert.throws(() => decode(JSON.stringify(layout)), ProtocolError);
  layout.arrangements = [];
  assert.throws(() => decode(JSON.stringify(layout)), ProtocolError);
});

test("an event decodes alike from JSON and binary", () => {
  const json = JSON.stringify({ type: "event", event: "countdownEnded", board: "main", ring: "countdown", seq: 16909060, t: 1.5 });
  const binary = new Uint8Array([
    0x52, 0x03, 0x04, 0x00, 0x01, 0x04, 0x03, 0x02, 0x01,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f,
    0x04, ...new TextEncoder().encode("main"), 0x09, ...new TextEncoder().encode("countdown"),
  ]).buffer;
  assert.deepEqual(decode(binary), decode(json));
  assert.equal(decode(json).event, "countdownEnded");
  assert.throws(() => decode(JSON.stringify({ type: "event", event: "countdownEnded", board: "main", seq: 1, t: 1 })), ProtocolError);
});

test("a layout ring's style is seed only when the server says so", () => {
  const seeded = JSON.parse(jsonLayout);
  seeded.rings[0].style = "seed";
  assert.equal(decode(JSON.stringify(seeded)).rings[0].style, "seed");
  assert.equal(decode(jsonLayout).rings[0].style, "ring");
  seeded.rings[0].style = "hologram";
  assert.equal(decode(JSON.stringify(seeded)).rings[0].style, "ring");
});
