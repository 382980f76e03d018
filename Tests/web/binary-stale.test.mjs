// The page's decoders against stale frames the Swift encoder wrote (Tests/web/fixtures/stale.json, kept
// equal to the encoder by StaleTests.webFixture_matchesTheEncoder): a widget board whose every entry goes
// stale a minute after its last write, then a push that clears it. Binary version 5's stale section comes
// out as the JSON entries' `stale` key, and protocol.js hands the page the same objects from both.
// Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createBinaryDecoder } from "../../web/binary.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/stale.json", import.meta.url), "utf8"));
const buffer = (bytes) => new Uint8Array(bytes).buffer;

function decoded() {
  const decoder = createBinaryDecoder();
  decoder.decode(buffer(fixture.layout));
  decoder.decode(buffer(fixture.keyframe));
  return decoder;
}

test("a keyframe of a fresh board has no stale key, in version 4", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(buffer(fixture.layout));
  const frame = decoder.decode(buffer(fixture.keyframe));
  assert.equal(fixture.keyframe[1], 4);
  assert.ok(frame.rings.every((ring) => !("stale" in ring)));
});

test("a version 5 delta makes every entry stale with the JSON frame's text, though no value changed", () => {
  const decoder = decoded();
  assert.equal(fixture.staleDelta[1], 5);
  const frame = decoder.decode(buffer(fixture.staleDelta));
  const json = JSON.parse(fixture.jsonStale);
  assert.deepEqual(
    frame.rings.map((ring) => [ring.id, ring.stale]),
    json.rings.map((ring) => [ring.id, ring.stale]),
  );
  assert.ok(json.rings.every((ring) => ring.stale === "updated 1 min ago"));
  // The widgets keep their values: the counter still shows 7.
  assert.equal(frame.rings.find((ring) => ring.id === "tests").value, 7);
});

test("the next write clears every stale text, and the cleared entries match the JSON frame's keys", () => {
  const decoder = decoded();
  decoder.decode(buffer(fixture.staleDelta));
  const frame = decoder.decode(buffer(fixture.clearedDelta));
  const json = JSON.parse(fixture.jsonCleared);
  assert.equal(frame.rings.length, json.rings.length);
  for (const ring of frame.rings) {
    const expected = json.rings.find((entry) => entry.id === ring.id);
    assert.deepEqual(Object.keys(ring).sort(), Object.keys(expected).sort(), ring.id);
    assert.ok(!("stale" in ring), ring.id);
  }
});

test("a stale text for a ring the layout does not have, or before any keyframe, is refused", () => {
  const bad = [...fixture.staleDelta];
  bad[bad.length - 19] = 9; // the last stale entry's index: no ring 9
  assert.throws(() => decoded().decode(buffer(bad)), /not in the layout/);
  const decoder = createBinaryDecoder();
  decoder.decode(buffer(fixture.layout));
  const keyframe = [...fixture.staleDelta];
  keyframe[2] = 2; // the same bytes as a keyframe: no entry, yet a stale text
  assert.throws(() => decoder.decode(buffer(keyframe)), /before its keyframe/);
});

test("protocol.js gives the page the same stale text from a JSON frame, and refuses one that is not a string", async () => {
  const { decode, ProtocolError } = await import("../../web/protocol.js");
  const frame = decode(fixture.jsonStale);
  assert.ok(frame.rings.every((ring) => ring.stale === "updated 1 min ago"));
  assert.ok(decode(fixture.jsonCleared).rings.every((ring) => !("stale" in ring)));
  const bad = JSON.parse(fixture.jsonStale);
  bad.rings[0].stale = 5;
  assert.throws(() => decode(JSON.stringify(bad)), ProtocolError);
});
