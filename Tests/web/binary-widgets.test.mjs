// The page's binary decoder against version 4 messages the Swift encoder wrote for a board of every
// widget kind mid-animation (Tests/web/fixtures/widgets.json, kept equal to the encoder by
// BinaryWidgetTests.webFixture_matchesTheEncoder), with the JSON of the same frames: the decoded
// objects have the JSON's shape, so the page draws them alike. Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createBinaryDecoder } from "../../web/binary.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/widgets.json", import.meta.url), "utf8"));
const buffer = (bytes) => new Uint8Array(bytes).buffer;

// The largest quantisation step of version 4 (a wave scale's 1/4096, halved), above float32's.
const TOLERANCE = 1 / 8192;

// A ring's tip is in 1/16 unit (version 3's quantisation, unchanged).
const RING_TOLERANCE = 1 / 32;

// Equal keys, strings, booleans and nulls; numbers within `tolerance` (relative past 64, for float32).
function assertAgrees(actual, expected, path = "", tolerance = TOLERANCE) {
  if (typeof expected === "number") {
    assert.equal(typeof actual, "number", `${path}: ${actual}`);
    assert.ok(Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected) / 64), `${path}: ${actual} ≠ ${expected}`);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), path);
    assert.equal(actual.length, expected.length, `${path}: length`);
    expected.forEach((e, i) => assertAgrees(actual[i], e, `${path}[${i}]`, tolerance));
  } else if (expected !== null && typeof expected === "object") {
    assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), `${path}: keys`);
    for (const key of Object.keys(expected)) assertAgrees(actual[key], expected[key], `${path}.${key}`, tolerance);
  } else {
    assert.equal(actual, expected, path);
  }
}

test("a version 4 layout gives every widget's JSON layout keys", () => {
  const decoder = createBinaryDecoder();
  const layout = decoder.decode(buffer(fixture.layout));
  const json = JSON.parse(fixture.jsonLayout);
  assert.equal(fixture.layout[1], 4);
  assert.deepEqual(layout.rings.map((ring) => ring.kind), ["plain", "counter", "text", "indicator", "gradient"]);
  layout.rings.forEach((ring, i) => {
    // capX/capY are the binary decoder's own (the cap of a ring's frame entry), not a JSON layout key.
    const { capX, capY, ...keys } = ring;
    assertAgrees(keys, json.rings[i], `rings[${i}]`);
  });
});

test("a version 4 keyframe gives the JSON frame's entries, rings and widgets alike", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(buffer(fixture.layout));
  const frame = decoder.decode(buffer(fixture.keyframe));
  const json = JSON.parse(fixture.jsonKeyframe);
  assert.equal(frame.keyframe, true);
  assert.equal(frame.rings.length, json.rings.length);
  frame.rings.forEach((ring, i) =>
    assertAgrees(ring, json.rings[i], `rings[${i}]`, ring.kind ? TOLERANCE : RING_TOLERANCE));
  assert.deepEqual(frame.rings.map((ring) => ring.kind), [undefined, "counter", "text", "indicator", "gradient"]);
});

test("a delta's widget entries, merged with the keyframe's, are the next frame's JSON entries", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(buffer(fixture.layout));
  decoder.decode(buffer(fixture.keyframe));
  const delta = decoder.decode(buffer(fixture.delta));
  const json = JSON.parse(fixture.jsonSecond);
  assert.equal(delta.keyframe, false);
  assert.ok(delta.rings.some((ring) => ring.kind === "counter"), "the rolling counter is in the delta");
  for (const ring of delta.rings) {
    const expected = json.rings.find((entry) => entry.id === ring.id);
    assertAgrees(ring, expected, ring.id, ring.kind ? TOLERANCE : RING_TOLERANCE);
  }
});

test("a widget entry with a ring's fields is refused", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(buffer(fixture.layout));
  const bytes = [0x52, 0x04, 0x02, 0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0x02, 0, 0, 0, 0, 0, 0, 0, 0];
  assert.throws(() => decoder.decode(buffer(bytes)), /ring fields/);
});
