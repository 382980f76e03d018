// The rule every text with a width is fitted by (issue 34, web/text-fit.js): narrowed at most 10 %,
// then shrunk down to a floor, then two lines, then cut with "…". RingCastCore's TextFit follows the
// same rule for the SVG (Tests/RingCastCoreTests/TextFitTests.swift has the same table).
// Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { breakPoints, fitText, lineOffset } from "../../web/text-fit.js";

// A fake font: every character is half the font size wide.
const halfEm = (size) => (string) => Array.from(string).length * size * 0.5;

const title = "Integration tests on staging cluster";
const cases = [
  // [what, string, size, width, minimum, expected size, expected lines]
  ["a text that fits is drawn as it is", "Move", 20, 100, 14, 20, ["Move"]],
  ["narrowed by 5 %: the same size", "abcdefghij", 20, 95, 14, 20, ["abcdefghij"]],
  ["narrowed by exactly 10 %: the same size", "abcdefghij", 20, 90, 14, 20, ["abcdefghij"]],
  ["wider: shrunk, narrowed 10 %", "abcdefghijkl", 20, 90, 14, 20 * (100 / 120), ["abcdefghijkl"]],
  ["below the floor in one line: two lines, the longer one narrowed 10 %", title, 20, 150, 14, 20 * (150 / 0.9 / 180), ["Integration tests", "on staging cluster"]],
  ["two lines are never bigger than the spot's size", title, 20, 300, 19, 20, ["Integration tests", "on staging cluster"]],
  ["a number breaks after its slash", "1,234/5,678", 20, 50, 14, 20 * (50 / 0.9 / 60), ["1,234/", "5,678"]],
  ["too long for two lines at the floor: cut with … on the second", title, 20, 80, 14, 14, ["Integration", "tests on st…"]],
  ["no place to break: one line cut with … at the floor", "Supercalifragilistic", 20, 60, 14, 14, ["Supercal…"]],
  ["the floor is 0.7 of a big size", "abcdefghijklmnopqrst", 40, 200, 14, 28, ["abcdefghijklmn…"]],
  ["a size under the minimum is not shrunk", "abcdefghijkl", 12, 50, 14, 12, ["abcdefgh…"]],
  ["a spot without a width is drawn as it is", title, 20, null, 14, 20, [title]],
];

for (const [what, string, size, width, minimum, expectedSize, expectedLines] of cases) {
  test(`fitText: ${what}`, () => {
    const fit = fitText(string, { size, width }, halfEm(size), minimum);
    assert.deepEqual(fit.lines, expectedLines);
    assert.ok(Math.abs(fit.size - expectedSize) < 1e-9, `size ${fit.size}, expected ${expectedSize}`);
    if (width !== null) {
      for (const line of fit.lines) {
        const drawn = (halfEm(size)(line) * fit.size) / size;
        assert.ok(drawn * 0.9 <= width + 1e-9, `"${line}" is ${drawn} wide at ${fit.size}: narrowed more than 10 % into ${width}`);
      }
      assert.ok(fit.size >= Math.min(size, Math.max(0.7 * size, minimum)) - 1e-9, "never under the floor");
    }
  });
}

test("the floor of a fit cut at the floor is the floor of the rule, at every size", () => {
  for (const size of [10, 14, 16, 20, 24, 30, 60]) {
    const fit = fitText("x".repeat(200), { size, width: 50 }, halfEm(size), 14);
    assert.equal(fit.size, Math.min(size, Math.max(0.7 * size, 14)));
    assert.equal(fit.lines.length, 1);
  }
});

test("breaks fall after spaces and slashes, never at the ends", () => {
  assert.deepEqual(breakPoints("a b"), [2]);
  assert.deepEqual(breakPoints("a  b"), [3]);
  assert.deepEqual(breakPoints(" a/b "), [3]);
  assert.deepEqual(breakPoints("ab/"), []);
  assert.deepEqual(breakPoints("abc"), []);
});

test("two lines sit 1.05 of their size apart, centred on the spot", () => {
  assert.equal(lineOffset(0, 1, 20), 0);
  assert.equal(lineOffset(0, 2, 20), -10.5);
  assert.equal(lineOffset(1, 2, 20), 10.5);
});
