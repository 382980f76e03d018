// The page draws the arrangement whose shape is nearest its box's. Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { chooseArrangement } from "../../web/arrangement.js";

const landscape = { name: "landscape", width: 1280, height: 720 };
const portrait = { name: "portrait", width: 720, height: 1280 };
const both = [landscape, portrait];
const chosen = (arrangements, width, height) => arrangements[chooseArrangement(arrangements, width, height)].name;

test("a phone held upright (390 × 844) gets the portrait arrangement", () => {
  assert.equal(chosen(both, 390, 844), "portrait");
});

test("a 1920 × 1080 screen gets the landscape arrangement", () => {
  assert.equal(chosen(both, 1920, 1080), "landscape");
});

test("a board with a single arrangement is drawn in it, whatever the window", () => {
  assert.equal(chosen([landscape], 390, 844), "landscape");
  assert.equal(chosen([landscape], 1920, 1080), "landscape");
});

test("nearness is between log ratios: 2:1 and 1:2 are equally far from a square, which keeps the first", () => {
  const wide = { name: "wide", width: 200, height: 100 };
  const tall = { name: "tall", width: 100, height: 200 };
  assert.equal(chosen([wide, tall], 500, 500), "wide");
  assert.equal(chosen([tall, wide], 500, 500), "tall");
  // 1.9:1 is nearer 2:1 than 1:1 in log ratio (0.05 against 0.64), and nearer 1:1 than 1:2.
  const square = { name: "square", width: 100, height: 100 };
  assert.equal(chosen([square, wide, tall], 190, 100), "wide");
});

test("a box with no size yet keeps the board's own arrangement", () => {
  assert.equal(chooseArrangement(both, 0, 844), 0);
  assert.equal(chooseArrangement(both, 390, 0), 0);
});
