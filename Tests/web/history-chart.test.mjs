// The control page's history charts (issue 33): an answer of GET …/rings/{ring}/history placed in
// the chart's box, and its words. Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { describeHistory, formatValue, historyChart, historyPoints, newestPoint, SPANS } from "../../web/history-chart.js";

const BOX = { width: 300, height: 48, inset: 4 };
const HOUR = 3_600_000;
const since = 1_796_245_467_674; // as the server names it for since=1h
const answer = (points, extra = {}) => ({ board: "main", ring: "move", field: "progress", since, method: "m4", kept: points.length, points, ...extra });
const corners = (line) => line.split(" ").map((pair) => pair.split(",").map(Number));
// The line's levels in drawing order, each once (a step line repeats a level at each corner).
const levels = (line) => corners(line).map(([, y]) => y).filter((y, i, all) => i === 0 || y !== all[i - 1]);

test("a higher progress is drawn higher, 0 % at the bottom and 100 % at the top of the box", () => {
  const chart = historyChart(
    answer([{ t: since + 1000, progress: 0 }, { t: since + 2000, progress: 0.55 }, { t: since + 3000, progress: 1 }, { t: since + 4000, progress: 0.3 }]),
    { ...BOX, span: "1h" },
  );
  assert.deepEqual(chart.points.map((p) => p.y), [44, 22, 4, 32]);
  assert.deepEqual(levels(chart.line), [44, 22, 4, 32]);
  assert.equal(chart.low, 0);
  assert.equal(chart.high, 1);
});

test("x is time from the first point to the end of the span asked for, the newest target held to it", () => {
  const chart = historyChart(answer([{ t: since + HOUR / 4, progress: 0.2 }, { t: since + HOUR / 2, progress: 0.4 }]), { ...BOX, span: "1h" });
  assert.deepEqual(chart.points.map((p) => p.x), [0, 100]);
  assert.equal(chart.start, since + HOUR / 4);
  assert.equal(chart.end, since + HOUR);
  // Held at 20 % until 40 % came, then 40 % to the end of the hour (the server's now).
  assert.deepEqual(corners(chart.line), [[0, 36], [100, 36], [100, 28], [300, 28]]);
  // One point: level from it to now.
  const one = historyChart(answer([{ t: since + HOUR - 1000, progress: 0.5 }]), { ...BOX, span: "1h" });
  assert.deepEqual(corners(one.line), [[0, 24], [300, 24]]);
  // The span asked for sets the right edge; an until in the answer does instead.
  const day = historyChart(answer([{ t: since, progress: 0.5 }, { t: since + HOUR, progress: 0.6 }]), { ...BOX, span: "24h" });
  assert.deepEqual(day.points.map((p) => p.x), [0, 12.5]);
  const until = historyChart(answer([{ t: since, progress: 0.5 }, { t: since + HOUR, progress: 0.6 }], { until: since + 2 * HOUR }), { ...BOX, span: "24h" });
  assert.deepEqual(until.points.map((p) => p.x), [0, 150]);
});

test("a point after the span's end (the next tick) stretches the span instead of leaving the box", () => {
  const chart = historyChart(answer([{ t: since, progress: 0.5 }, { t: since + HOUR + 20, progress: 0.6 }]), { ...BOX, span: "1h" });
  assert.equal(chart.end, since + HOUR + 20);
  assert.ok(chart.points.every((p) => p.x >= 0 && p.x <= 300), JSON.stringify(chart.points));
  assert.equal(chart.points.at(-1).x, 300);
});

test("without since the chart runs from the first point to the newest; one point sits at the right edge, drawn level", () => {
  const two = historyChart(answer([{ t: 5000, progress: 0.2 }, { t: 7000, progress: 0.4 }], { since: undefined }), BOX);
  assert.deepEqual(two.points.map((p) => p.x), [0, 300]);
  const one = historyChart(answer([{ t: 5000, progress: 0.2 }], { since: undefined }), BOX);
  assert.deepEqual(one.points.map((p) => p.x), [300]);
  assert.deepEqual(corners(one.line), [[0, 36], [300, 36]], "a level line, not a lone corner a polyline cannot draw");
});

test("a progress past a full turn raises the top; a counter spans its own numbers", () => {
  const over = historyChart(answer([{ t: since + 1, progress: 0.5 }, { t: since + 2, progress: 2 }]), { ...BOX, span: "1h" });
  assert.equal(over.high, 2);
  assert.deepEqual(over.points.map((p) => p.y), [34, 4]);

  const counter = historyChart(
    answer([{ t: since + 1, value: 1200 }, { t: since + 2, value: 1250 }, { t: since + 3, value: 1225 }], { ring: "users", field: "value" }),
    { ...BOX, span: "24h" },
  );
  assert.equal(counter.field, "value");
  assert.deepEqual([counter.low, counter.high], [1200, 1250]);
  assert.deepEqual(counter.points.map((p) => p.y), [44, 4, 24]);

  const flat = historyChart(answer([{ t: since + 1, value: 7 }, { t: since + 2, value: 7 }], { field: "value" }), { ...BOX, span: "1h" });
  assert.deepEqual(flat.points.map((p) => p.y), [24, 24], "an unchanging counter is a flat line in the middle");
});

test("an empty history has no line; points without a number or time are left out", () => {
  const empty = historyChart(answer([]), { ...BOX, span: "1h" });
  assert.equal(empty.line, "");
  assert.deepEqual(empty.points, []);
  assert.equal(describeHistory("Move", empty, "1h", "en-US"), "Move: no points over the last hour");
  assert.equal(newestPoint(empty), null);
  assert.equal(historyChart(null, BOX).line, "");

  const odd = answer([{ t: since + 1, progress: 0.5 }, { t: "x", progress: 0.6 }, { t: since + 3 }, { t: since + 4, progress: null }, 7]);
  assert.deepEqual(historyPoints(odd), [{ t: since + 1, value: 0.5, status: null }]);
});

test("the aria-label sums the chart up: how many points over which span, from where to where", () => {
  const chart = historyChart(
    answer([{ t: since + 1, progress: 0.1 }, { t: since + 2, progress: 0.8 }, { t: since + 3, progress: 0.55 }]),
    { ...BOX, span: "1h" },
  );
  assert.equal(describeHistory("Move", chart, "1h", "en-US"), "Move: 3 points over the last hour, from 10% to 55% (highest 80%)");
  const dip = historyChart(answer([{ t: since + 1, progress: 0.5 }, { t: since + 2, progress: 0 }, { t: since + 3, progress: 0.6 }]), BOX);
  assert.equal(describeHistory("Build", dip, "7d", "en-US"), "Build: 3 points over the last 7 days, from 50% to 60% (lowest 0%)");
  const thinned = historyChart({ ...answer([{ t: since + 1, progress: 0.1 }, { t: since + 2, progress: 0.2 }]), kept: 1234 }, BOX);
  assert.equal(describeHistory("Move", thinned, "24h", "en-US"), "Move: 2 of 1,234 points over the last 24 hours, from 10% to 20%");
  const one = historyChart(answer([{ t: since + 1, value: 1234 }], { field: "value" }), BOX);
  assert.equal(describeHistory("Users", one, "1h", "en-US"), "Users: 1 point over the last hour, 1,234");
  assert.equal(describeHistory("Users", one, null, "en-US"), "Users: 1 point over the history kept, 1,234");
});

test("the newest point: its number, status and time of day, with the date when it is of another day", () => {
  const t = Date.UTC(2026, 11, 2, 22, 4, 27, 750);
  const chart = historyChart(answer([{ t: t - 1000, progress: 0.1 }, { t, progress: 0.555, status: "running" }]), BOX);
  assert.deepEqual(newestPoint(chart, { locale: "en-GB", timeZone: "UTC", now: t + 5000 }), {
    value: "55.5%",
    status: "running",
    time: "22:04:27",
    iso: "2026-12-02T22:04:27.750Z",
  });
  assert.equal(newestPoint(chart, { locale: "en-GB", timeZone: "UTC", now: t + 2 * 86_400_000 }).time, "2 Dec, 22:04");
});

test("numbers read as the page shows them, and the spans are the API's", () => {
  assert.equal(formatValue("progress", 0.73, "en-US"), "73%");
  assert.equal(formatValue("progress", 2.5, "en-US"), "250%");
  assert.equal(formatValue("value", 1234.5, "en-US"), "1,234.5");
  assert.deepEqual(Object.keys(SPANS), ["1h", "24h", "7d"]);
});
