// The control page's history charts (issue 33): what one answer of
// GET …/rings/{ring}/history draws, and the words that go with it. Pure: no DOM, no fetch, so node
// tests it. Every point, time, number and status is the server's; this only places them in a box
// and names them.

// The spans the page offers, as the API's `since` takes them.
export const SPANS = Object.freeze({
  "1h": Object.freeze({ ms: 3_600_000, words: "the last hour" }),
  "24h": Object.freeze({ ms: 86_400_000, words: "the last 24 hours" }),
  "7d": Object.freeze({ ms: 604_800_000, words: "the last 7 days" }),
});

// The points of an answer, [{t, value, status}] in the order sent (the server's time order), with
// any that has no finite time or number left out. `field` ("progress" or "value") names the number.
export function historyPoints(answer) {
  const field = answer?.field === "value" ? "value" : "progress";
  const points = Array.isArray(answer?.points) ? answer.points : [];
  return points
    .filter((point) => Number.isFinite(point?.t) && Number.isFinite(point?.[field]))
    .map((point) => ({ t: point.t, value: point[field], status: typeof point.status === "string" ? point.status : null }));
}

// The chart of an answer in a box `width` × `height` (SVG user units, y down), `inset` units kept
// clear above and below so that a line at the top or bottom is not cut.
//
// x: time, from the first point of the span to the span's end (the answer's `until`, else its
// `since` + the span asked for: the server's now when it answered, else the newest point). So
// the points fill the width whatever part of the span they lie in (a ring first pushed a minute
// ago does not shrink to a sliver at the right of an hour), and the right edge is now: a ring
// left alone for a while ends in a long level line. y: a progress from 0 to 100 % (higher when a
// point went past a full turn), a counter from its lowest to its highest number (a level line in
// the middle when they are equal). The line holds each target until the next one (a step line, as
// the ring held it), and the newest to the span's end.
//
// Returns {field, points: [{t, value, status, x, y}], line ("x,y x,y …" for a polyline's points;
// "" without points), low, high, start, end, kept, thinned (the server dropped points: M4)}.
export function historyChart(answer, { width, height, inset = 4, span = null }) {
  const field = answer?.field === "value" ? "value" : "progress";
  const points = historyPoints(answer);
  const kept = Number.isFinite(answer?.kept) ? answer.kept : points.length;
  const values = points.map((point) => point.value);
  let low = 0;
  let high = 1;
  if (points.length > 0) {
    if (field === "progress") {
      low = Math.min(0, ...values);
      high = Math.max(1, ...values);
    } else {
      low = Math.min(...values);
      high = Math.max(...values);
      if (low === high) {
        low -= 1;
        high += 1;
      }
    }
  }
  const first = points[0]?.t ?? null;
  const last = points.at(-1)?.t ?? null;
  const since = Number.isFinite(answer?.since) ? answer.since : null;
  const until = Number.isFinite(answer?.until) ? answer.until : null;
  const spanMs = SPANS[span]?.ms ?? null;
  const start = first ?? since;
  let end = until ?? (since !== null && spanMs !== null ? since + spanMs : last);
  if (last !== null) {
    end = Math.max(end ?? last, last);
  }
  const round = (n) => Math.round(n * 100) / 100;
  const xOf = (t) => (end > start ? round(((t - start) / (end - start)) * width) : width);
  const yOf = (v) => round(inset + (1 - (v - low) / (high - low)) * (height - 2 * inset));
  const placed = points.map((point) => ({ ...point, x: xOf(point.t), y: yOf(point.value) }));
  const corners = [];
  placed.forEach((point, i) => {
    if (i > 0) {
      corners.push([point.x, placed[i - 1].y]);
    }
    corners.push([point.x, point.y]);
  });
  if (placed.length > 0 && xOf(end) > placed.at(-1).x) {
    corners.push([xOf(end), placed.at(-1).y]);
  }
  if (corners.length === 1) {
    corners.unshift([0, corners[0][1]]); // one point, and nothing after it: a level line all the same
  }
  return {
    field,
    points: placed,
    line: corners.map(([x, y]) => `${x},${y}`).join(" "),
    low,
    high,
    start,
    end,
    kept,
    thinned: kept > placed.length,
  };
}

// A point's number as the page shows it: a progress as a percentage ("55%"), a counter's number as
// it is ("1,234").
export function formatValue(field, value, locale = undefined) {
  const options = field === "value" ? { maximumFractionDigits: 3 } : { style: "percent", maximumFractionDigits: 1 };
  return new Intl.NumberFormat(locale, options).format(value);
}

// The chart in one sentence, for its aria-label: "Move: 12 points over the last hour, from 10% to
// 55%", then "(lowest 0%, highest 80%)" for what went below or above both ends, "200 of 1,234
// points" when the server thinned the span, "no points" when it is empty.
export function describeHistory(title, chart, span, locale = undefined) {
  const over = SPANS[span] ? `over ${SPANS[span].words}` : "over the history kept";
  const count = (n) => new Intl.NumberFormat(locale).format(n);
  const points = chart.points;
  if (points.length === 0) {
    return `${title}: no points ${over}`;
  }
  const shown = (value) => formatValue(chart.field, value, locale);
  const many = chart.thinned ? `${count(points.length)} of ${count(chart.kept)} points` : `${count(points.length)} point${points.length === 1 ? "" : "s"}`;
  const first = points[0].value;
  const last = points.at(-1).value;
  if (points.length === 1) {
    return `${title}: 1 point ${over}, ${shown(last)}`;
  }
  let text = `${title}: ${many} ${over}, from ${shown(first)} to ${shown(last)}`;
  const values = points.map((point) => point.value);
  const lowest = Math.min(...values);
  const highest = Math.max(...values);
  const beyond = [];
  if (lowest < Math.min(first, last)) {
    beyond.push(`lowest ${shown(lowest)}`);
  }
  if (highest > Math.max(first, last)) {
    beyond.push(`highest ${shown(highest)}`);
  }
  return beyond.length === 0 ? text : `${text} (${beyond.join(", ")})`;
}

// The newest point in words: {value: "55%", status: "running" or null, time: "22:04:27" (the time
// of day when it is of the same day as `now`, else the date too), iso: its UTC time in ISO 8601},
// or null without points.
export function newestPoint(chart, { locale = undefined, timeZone = undefined, now = Date.now() } = {}) {
  const point = chart.points.at(-1);
  if (point === undefined) {
    return null;
  }
  const day = new Intl.DateTimeFormat(locale, { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const sameDay = day.format(point.t) === day.format(now);
  const time = new Intl.DateTimeFormat(
    locale,
    sameDay
      ? { timeZone, hour: "2-digit", minute: "2-digit", second: "2-digit" }
      : { timeZone, month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" },
  );
  return {
    value: formatValue(chart.field, point.value, locale),
    status: point.status,
    time: time.format(point.t),
    iso: new Date(point.t).toISOString(),
  };
}
