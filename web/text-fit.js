// How a text fits its spot's width (issue 34): never squeezed more than 10 % sideways. Pure: no
// canvas, no DOM, so node tests it with a fake measure; RingCastCore's TextFit is the same rule for
// the server's SVG (docs/PROTOCOL.md, "Fitting text"). In this order:
//
//   1. one line at the spot's size, narrowed by at most SQUEEZE (canvas fillText's maxWidth);
//   2. one line shrunk uniformly (and narrowed by at most SQUEEZE), down to the floor:
//      min(size, max(FLOOR_RATIO × size, minimum)), `minimum` being 14 CSS pixels in the board's
//      units on the page and 14 units in an SVG (1 unit is 1 pixel at 1×);
//   3. two lines, broken after a space or a "/", each narrowed by at most SQUEEZE, at the biggest
//      size from the floor up to the spot's own that fits (of breaks giving the same size, the
//      most even): two lines take the height of two lines of the spot's size at most (LINE_PITCH
//      of their size apart, centred on the spot's y);
//   4. at the floor, the text cut with "…": on two lines when it breaks, else on one.
//
// A spot without a width (hand-placed boards) is drawn as it is.

export const SQUEEZE = 0.9;
export const FLOOR_RATIO = 0.7;
export const LINE_PITCH = 1.05;
const ELLIPSIS = "\u2026";

import { graphemes } from "./widgets.js";

// `measure(string)`: the string's width at the spot's size (widths grow in proportion to the size).
// Returns { size, lines: [string, …] }: the font size to draw at and one or two lines, each of
// which, at that size, is at most spot.width / SQUEEZE wide (fillText's maxWidth narrows the rest).
export function fitText(string, spot, measure, minimum) {
  const size = spot.size;
  const width = spot.width;
  if (width === null || width === undefined) {
    return { size, lines: [string] };
  }
  const room = width / SQUEEZE; // the widest a line may be before it is narrowed to the width
  const natural = measure(string);
  if (natural <= room) {
    return { size, lines: [string] };
  }
  const floor = Math.min(size, Math.max(FLOOR_RATIO * size, minimum));
  const shrunk = (size * room) / natural;
  if (shrunk >= floor) {
    return { size: shrunk, lines: [string] };
  }
  const breaks = breakPoints(string);
  let best = null;
  for (const at of breaks) {
    const lines = [string.slice(0, at).replace(/ +$/, ""), string.slice(at).replace(/^ +/, "")];
    const widest = Math.max(measure(lines[0]), measure(lines[1]));
    const fits = widest > 0 ? Math.min(size, (size * room) / widest) : size;
    // The biggest; of equally big ones (capped at the spot's size), the most even.
    if (best === null || fits > best.size || (fits === best.size && widest < best.widest)) {
      best = { size: fits, lines, widest };
    }
  }
  if (best !== null && best.size >= floor) {
    return { size: best.size, lines: best.lines };
  }
  const atFloor = (s) => (measure(s) * floor) / size <= room;
  // The most words that fit on the first line, the rest cut on the second.
  const first = breaks.filter((at) => atFloor(string.slice(0, at).replace(/ +$/, ""))).pop();
  if (first !== undefined) {
    const rest = string.slice(first).replace(/^ +/, "");
    return { size: floor, lines: [string.slice(0, first).replace(/ +$/, ""), cut(rest, atFloor)] };
  }
  return { size: floor, lines: [cut(string, atFloor)] };
}

// Where a string may break into two lines: after each run of spaces and after each "/" (so
// "1,234/5,678" breaks as "1,234/" and "5,678"), never at its ends.
export function breakPoints(string) {
  const points = [];
  for (let i = 1; i < string.length; i += 1) {
    const before = string[i - 1];
    if ((before === " " && string[i] !== " ") || (before === "/" && string[i] !== " ")) {
      if (/[^ ]/.test(string.slice(0, i))) {
        points.push(i);
      }
    }
  }
  return points;
}

// The string's longest start (whole characters, trailing spaces dropped) that fits with "…" after it.
function cut(string, fits) {
  if (fits(string)) {
    return string;
  }
  const characters = graphemes(string);
  for (let n = characters.length - 1; n > 0; n -= 1) {
    const candidate = characters.slice(0, n).join("").replace(/ +$/, "") + ELLIPSIS;
    if (fits(candidate)) {
      return candidate;
    }
  }
  return ELLIPSIS;
}

// Where line i of `count` lines sits, as an offset from the spot's y, for lines of font `size`.
export function lineOffset(i, count, size) {
  return (i - (count - 1) / 2) * LINE_PITCH * size;
}
