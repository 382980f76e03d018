// Placement helpers for the widgets draw.js draws (DESIGN §12). Pure: no canvas, no DOM, so node
// tests them. They only put the server's pieces in a row; every value, digit, fraction, scale and
// colour stays the server's.

// The pieces of a counter in drawing order: the sign (when the frame has one), the integer
// columns with `grouping` between groups of three counted from the right, "." and the decimal
// columns, then the unit. `columns`: how many digit columns the frame carries (integer columns
// first, then `decimals`). Each piece is {type: "sign" | "separator" | "point" | "unit", text} or
// {type: "digit", column} (an index into the frame's digits).
export function counterPieces({ columns, decimals, sign, grouping, unit }) {
  const pieces = [];
  if (sign !== "") {
    pieces.push({ type: "sign", text: sign });
  }
  const integers = Math.max(0, columns - decimals);
  for (let i = 0; i < integers; i += 1) {
    const fromRight = integers - i; // columns left in the integer part, this one included
    if (i > 0 && grouping !== null && grouping !== "" && fromRight % 3 === 0) {
      pieces.push({ type: "separator", text: grouping });
    }
    pieces.push({ type: "digit", column: i });
  }
  if (columns > integers) {
    pieces.push({ type: "point", text: "." });
    for (let i = integers; i < columns; i += 1) {
      pieces.push({ type: "digit", column: i });
    }
  }
  if (unit !== null && unit !== "") {
    pieces.push({ type: "unit", text: unit });
  }
  return pieces;
}

// Lays out pieces of the given widths side by side at a text spot {x, align, width}: returns the
// left edge of each and the factor (≤ 1) by which the whole row is narrowed, about spot.x, to fit
// spot.width (null: no limit). The row is centred on x for "center", ends at x for "right".
export function placeRow(widths, spot) {
  const total = widths.reduce((sum, w) => sum + w, 0);
  const limit = spot.width ?? Infinity;
  const fit = total > limit && total > 0 ? limit / total : 1;
  let left = spot.x;
  if (spot.align === "center") {
    left -= total / 2;
  } else if (spot.align === "right") {
    left -= total;
  }
  const lefts = [];
  for (const w of widths) {
    lefts.push(left);
    left += w;
  }
  return { lefts, total, fit };
}

// The characters of a text as Swift counts them (grapheme clusters), so that the frame's scales,
// one per Swift Character, pair up with what is drawn.
const segmenter = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

export function graphemes(text) {
  if (segmenter === null) {
    return Array.from(text);
  }
  return Array.from(segmenter.segment(text), (s) => s.segment);
}
