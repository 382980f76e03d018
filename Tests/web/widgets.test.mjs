// Widgets on the page (DESIGN §12): the placement helpers draw.js uses, and the JSON decoding of a
// widget's layout and frame entries. Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { counterPieces, graphemes, placeRow } from "../../web/widgets.js";
import { decode, ProtocolError } from "../../web/protocol.js";

const shown = (pieces, digits) =>
  pieces.map((p) => (p.type === "digit" ? String(digits[p.column]) : p.type === "unit" ? ` ${p.text}` : p.text)).join("");

test("a counter's separators fall between groups of three integer columns counted from the right", () => {
  const format = { decimals: 0, sign: "", grouping: ",", unit: null };
  assert.equal(shown(counterPieces({ ...format, columns: 3 }), [1, 0, 0]), "100");
  assert.equal(shown(counterPieces({ ...format, columns: 4 }), [1, 0, 0, 0]), "1,000");
  assert.equal(shown(counterPieces({ ...format, columns: 7 }), [1, 2, 3, 4, 5, 6, 7]), "1,234,567");
  assert.equal(shown(counterPieces({ ...format, columns: 6 }), [1, 2, 3, 4, 5, 6]), "123,456");
});

test("a counter's sign comes first, its decimals after a point, its unit last; decimals are not grouped", () => {
  const pieces = counterPieces({ columns: 6, decimals: 3, sign: "-", grouping: " ", unit: "km" });
  assert.equal(shown(pieces, [1, 2, 3, 4, 5, 6]), "-123.456 km");
  assert.deepEqual(
    pieces.filter((p) => p.type === "digit").map((p) => p.column),
    [0, 1, 2, 3, 4, 5],
    "every column once, most significant first",
  );
  assert.equal(shown(counterPieces({ columns: 2, decimals: 0, sign: "+", grouping: null, unit: "" }), [9, 9]), "+99");
});

test("a row is centred on its spot, or ends at it, and narrowed to fit the spot's width", () => {
  assert.deepEqual(placeRow([10, 20, 10], { x: 100, align: "center", width: null }), { lefts: [80, 90, 110], total: 40, fit: 1 });
  assert.deepEqual(placeRow([10, 10], { x: 100, align: "right", width: 40 }).lefts, [80, 90]);
  assert.deepEqual(placeRow([10, 10], { x: 100, align: "left", width: 40 }).lefts, [100, 110]);
  assert.equal(placeRow([30, 30, 20], { x: 0, align: "center", width: 40 }).fit, 0.5);
});

test("text splits into the characters Swift counts: grapheme clusters", () => {
  assert.deepEqual(graphemes("Deployed"), [..."Deployed"]);
  assert.deepEqual(graphemes("e\u0301👍🏽🇫🇷"), ["e\u0301", "👍🏽", "🇫🇷"]);
  assert.deepEqual(graphemes(""), []);
});

const place = (id) => ({
  id, cx: 100, cy: 100, r: 40, thickness: 8,
  titleText: { x: 100, y: 160, size: 12, align: "center" }, labelText: { x: 100, y: 100, size: 20, align: "center", width: 70 },
});
const base = { title: "", r: 40, thickness: 8, track: "#2c2c2eff", titleColor: null };
const layout = {
  type: "layout", board: "w", title: "W", background: "#000000ff",
  rings: [
    { ...base, id: "n", kind: "counter", digits: null, decimals: 1, sign: true, grouping: ",", unit: "tests" },
    { ...base, id: "t", kind: "text", waveWidth: 6 },
    { ...base, id: "i", kind: "indicator", lineWidth: 5, dash: [3, 1.5], dashPhase: 5 },
    { ...base, id: "g", kind: "gradient", width: 88, height: 88, corner: 6.6 },
  ],
};
layout.arrangements = [{ name: "landscape", width: 400, height: 200, rings: layout.rings.map((r) => place(r.id)) }];

test("a widget's layout entry keeps its kind's sizes", () => {
  const [counter, text, indicator, gradient] = decode(JSON.stringify(layout)).rings;
  assert.deepEqual(
    { digits: counter.digits, decimals: counter.decimals, sign: counter.sign, grouping: counter.grouping, unit: counter.unit },
    { digits: null, decimals: 1, sign: true, grouping: ",", unit: "tests" },
  );
  assert.equal(text.waveWidth, 6);
  assert.deepEqual([indicator.lineWidth, indicator.dash, indicator.dashPhase], [5, [3, 1.5], 5]);
  assert.deepEqual([gradient.width, gradient.height, gradient.corner], [88, 88, 6.6]);
  const bad = structuredClone(layout);
  bad.rings[3].corner = -1;
  assert.throws(() => decode(JSON.stringify(bad)), ProtocolError);
});

test("a widget's frame entry decodes to its kind's values; a broken one is refused", () => {
  const common = { label: "x", labelColor: "#ffffffff" };
  const entries = [
    { id: "n", kind: "counter", ...common, value: 99.5, sign: "+", digits: [[9, 0], [9, 0.5], [5, 0]] },
    { id: "t", kind: "text", ...common, text: "Hi", scales: [1, 1.5] },
    { id: "i", kind: "indicator", ...common, p: 0.73, a0: 0, a1: 4.58, color: "#ff0000ff" },
    { id: "g", kind: "gradient", ...common, stops: [[0, "#ff0000ff"], [1, "#0000ffff"]] },
  ];
  const frame = decode(JSON.stringify({ type: "frame", board: "w", seq: 1, t: 0, rings: entries, background: null }));
  assert.deepEqual(frame.rings, entries);
  for (const broken of [
    { ...entries[0], digits: [[10, 0]] },
    { ...entries[0], digits: [[1]] },
    { ...entries[1], scales: ["1"] },
    { ...entries[2], color: "red" },
    { ...entries[3], stops: [[2, "#ff0000ff"]] },
    { ...entries[3], kind: "sparkline" },
  ]) {
    const message = JSON.stringify({ type: "frame", board: "w", seq: 1, t: 0, rings: [broken], background: null });
    assert.throws(() => decode(message), ProtocolError, JSON.stringify(broken));
  }
});
