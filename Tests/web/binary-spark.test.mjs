// The page's decoders against sparkline frames the Swift encoder wrote (Tests/web/fixtures/spark.json, kept
// equal to the encoder by BinarySparkTests.webFixture_matchesTheEncoder): a ring with a line in a keyframe, a
// delta that changes it, one that does not (no spark section, no `spark` key), and one that takes it away.
// Binary version 6's spark section comes out as the JSON entries' `spark`, each ring's line kept until a frame
// changes it, and protocol.js hands the page the same lines from both encodings.
// Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createBinaryDecoder } from "../../web/binary.js";
import { decode, ProtocolError } from "../../web/protocol.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/spark.json", import.meta.url), "utf8"));
const buffer = (bytes) => new Uint8Array(bytes).buffer;
const sparkOf = (frame, id) => frame.rings.find((ring) => ring.id === id)?.spark;
const jsonSpark = (text, id) => JSON.parse(text).rings.find((ring) => ring.id === id)?.spark;
const STEPS = ["keyframe", "changed", "unchanged", "removed"];
const JSON_STEPS = { keyframe: "jsonKeyframe", changed: "jsonChanged", unchanged: "jsonUnchanged", removed: "jsonRemoved" };

test("the binary keyframe is version 6 and its line is the JSON keyframe's, value for value", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(buffer(fixture.layout));
  assert.equal(fixture.keyframe[1], 6);
  const frame = decoder.decode(buffer(fixture.keyframe));
  assert.deepEqual(sparkOf(frame, "build"), jsonSpark(fixture.jsonKeyframe, "build"));
  assert.deepEqual(sparkOf(frame, "build"), [0, 0.2, 0.5, 0.6, 1, 0.4]);
  assert.equal(sparkOf(frame, "tests"), undefined);
});

test("a delta's changed line replaces the one held; a delta without one keeps it; a removal drops it", () => {
  const decoder = createBinaryDecoder();
  decoder.decode(buffer(fixture.layout));
  const frames = STEPS.map((step) => decoder.decode(buffer(fixture[step])));
  const changed = jsonSpark(fixture.jsonChanged, "build");
  assert.deepEqual(changed, [0, 0.2, 0.333, 0.6, 0.667, 0.4, 1, 0.9]);
  assert.deepEqual(sparkOf(frames[1], "build"), changed);
  // The unchanged delta is version 3's bytes and names no line (build itself is not in it).
  assert.equal(fixture.unchanged[1], 3);
  assert.equal(jsonSpark(fixture.jsonUnchanged, "build"), undefined);
  assert.equal(frames[2].rings.find((ring) => ring.id === "build"), undefined);
  // The removal names build with no line.
  assert.deepEqual(jsonSpark(fixture.jsonRemoved, "build"), []);
  const removed = frames[3].rings.find((ring) => ring.id === "build");
  assert.ok(removed !== undefined && !("spark" in removed));
});

test("protocol.js hands the page every ring's whole line from both encodings, the same", () => {
  const binary = [decode(buffer(fixture.layout)), ...STEPS.map((step) => decode(buffer(fixture[step])))];
  const json = [decode(fixture.jsonLayout), ...STEPS.map((step) => decode(fixture[JSON_STEPS[step]]))];
  const held = (messages) => {
    const lines = new Map();
    return messages.slice(1).map((frame) => {
      for (const ring of frame.rings) lines.set(ring.id, ring.spark ?? null);
      return lines.get("build");
    });
  };
  const lines = held(json);
  assert.deepEqual(held(binary), lines);
  assert.deepEqual(lines[0], [0, 0.2, 0.5, 0.6, 1, 0.4]);
  assert.deepEqual(lines[1], jsonSpark(fixture.jsonChanged, "build"));
  assert.deepEqual(lines[2], lines[1], "a delta without the line keeps it");
  assert.equal(lines[3], null, "an empty line takes it away");
});

test("a JSON delta's entry without spark keeps the held line; a keyframe or a layout starts over", () => {
  decode(fixture.jsonLayout);
  decode(fixture.jsonKeyframe);
  const delta = JSON.parse(fixture.jsonChanged);
  const build = delta.rings.find((ring) => ring.id === "build");
  delete build.spark;
  assert.deepEqual(sparkOf(decode(JSON.stringify(delta)), "build"), [0, 0.2, 0.5, 0.6, 1, 0.4]);
  const keyframe = JSON.parse(fixture.jsonKeyframe);
  delete keyframe.rings.find((ring) => ring.id === "build").spark;
  decode(JSON.stringify(keyframe));
  assert.equal(sparkOf(decode(JSON.stringify(delta)), "build"), undefined);
  decode(fixture.jsonKeyframe);
  decode(fixture.jsonLayout);
  assert.equal(sparkOf(decode(JSON.stringify(delta)), "build"), undefined);
});

test("a malformed line is refused, in JSON and in binary", () => {
  decode(fixture.jsonLayout);
  for (const spark of [[0, 0.5, 1], [0, 0.5], [0, 2, 1, 0.5], ["0", 0, 1, 1], 5]) {
    const keyframe = JSON.parse(fixture.jsonKeyframe);
    keyframe.rings.find((ring) => ring.id === "build").spark = spark;
    assert.throws(() => decode(JSON.stringify(keyframe)), ProtocolError, JSON.stringify(spark));
  }
  const decoder = createBinaryDecoder();
  decoder.decode(buffer(fixture.layout));
  const early = [...fixture.changed];
  early[2] = 3;
  assert.throws(() => decoder.decode(buffer(early)), /before its keyframe/);
  assert.throws(() => decoder.decode(buffer(fixture.keyframe.slice(0, -1))), /truncated/);
});

test("the band under a label: 2.5 sizes wide or the label's width when narrower, 0.45 to 0.85 sizes below its middle", async () => {
  const { sparkBand } = await import("../../web/draw.js");
  const spot = { x: 100, y: 50, size: 20, align: "center", width: null };
  assert.deepEqual(sparkBand(spot), { left: 75, top: 59, width: 50, height: 8 });
  assert.deepEqual(sparkBand({ ...spot, width: 200 }), { left: 75, top: 59, width: 50, height: 8 });
  assert.deepEqual(sparkBand({ ...spot, width: 30 }), { left: 85, top: 59, width: 30, height: 8 });
  assert.equal(sparkBand({ ...spot, align: "left" }).left, 100);
  assert.equal(sparkBand({ ...spot, align: "right" }).left, 50);
});
