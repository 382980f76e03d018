// Canvas drawing. Every position, angle, colour stop and text comes from the server (layout and
// frames); this file only turns those numbers into canvas calls. Its only arithmetic is fitting
// the board to the screen: the pixel scale (device pixels per logical unit) for the transform and
// for shadows, which the canvas applies in device pixels whatever the transform, placing the
// board's coordinates on the backdrop behind it, and placing a ring's sparkline points in the band
// under its label (a fixed rule on the label's spot, docs/PROTOCOL.md "Sparklines").
//
// The board is drawn in one of the layout's arrangements (app.js picks it): its canvas size, where
// it puts each ring and its texts, and which of each splash layer's shapes to fill. A frame's ring
// is relative to the ring's centre, so each ring is drawn after a translate to its place.

import { SQUEEZE, fitText, lineOffset } from "./text-fit.js";
import { counterPieces, graphemes, placeRow } from "./widgets.js";

const FONT_STACK = 'ui-rounded, "SF Pro Rounded", system-ui, sans-serif';
// The seed's counter and wave text are bold Menlo (seed 003 Examples 12 and 13).
const MONO_STACK = 'ui-monospace, Menlo, "DejaVu Sans Mono", "Liberation Mono", monospace';
const FULL_TURN = 2 * Math.PI;
// The smallest a text is shrunk to fit its width, in CSS pixels (text-fit.js, issue 34).
const MINIMUM_CSS_PIXELS = 14;
// A counter's row, and so its columns' window, is this many times its font size tall (a line of
// text, as the seed's VStack of Texts stacks them); its unit is drawn this much smaller.
const COUNTER_ROW = 1.2;
const COUNTER_UNIT = 0.5;
// Stale rings and widgets (DESIGN §13) are drawn at this opacity, as one layer (so a ring's cap and tip do
// not show through its arc), and the server's "updated … ago" under each label at this part of the label's
// size (never under STALE_MIN_SIZE logical units), this part of it below.
const STALE_ALPHA = 0.4;
const STALE_SIZE = 0.4;
const STALE_MIN_SIZE = 10;
const STALE_GAP = 0.1;
// A ring's sparkline (issue 33) is drawn in a band under its label, every size a part of the label's:
// SPARK_WIDTH sizes wide (the label's width when narrower), its top SPARK_TOP below the label's
// middle, SPARK_HEIGHT tall, the line SPARK_LINE thick (docs/PROTOCOL.md, "Sparklines").
const SPARK_WIDTH = 2.5;
const SPARK_TOP = 0.45;
const SPARK_HEIGHT = 0.4;
const SPARK_LINE = 0.07;

// Sizes the canvas to the largest box of the arrangement's aspect ratio that fits boxWidth × boxHeight
// CSS pixels. The size is chosen in whole device pixels and the CSS size derived from it, so the
// canvas covers exactly its backing store on screen and is never resampled (whole CSS pixels would
// cover a fraction of a device pixel more or less at ratios like 1.25 and blur every edge).
// Touches the backing store only when its size changed (assigning width or height, even unchanged,
// reallocates and clears it). Returns the device pixels per logical unit.
export function fitCanvas(canvas, boxWidth, boxHeight, arrangement, pixelRatio) {
  const deviceScale = Math.min(boxWidth / arrangement.width, boxHeight / arrangement.height) * pixelRatio;
  const width = Math.max(1, Math.floor(arrangement.width * deviceScale));
  const height = Math.max(1, Math.floor(arrangement.height * deviceScale));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  canvas.style.width = `${width / pixelRatio}px`; // unchanged values cost nothing here
  canvas.style.height = `${height / pixelRatio}px`;
  return Math.min(width / arrangement.width, height / arrangement.height);
}

// Sizes the backdrop canvas's backing store to its CSS box (the whole window, style.css) in device
// pixels. Touches it only when its size changed. Returns true when it did (the picture was cleared).
export function fitBackdrop(canvas, pixelRatio) {
  const width = Math.max(1, Math.round(canvas.clientWidth * pixelRatio));
  const height = Math.max(1, Math.round(canvas.clientHeight * pixelRatio));
  if (canvas.width === width && canvas.height === height) {
    return false;
  }
  canvas.width = width;
  canvas.height = height;
  return true;
}

// Draws the background and the splash layers over the whole backdrop, behind the board's canvas, so
// that a transition sweeps the letterbox around the board in step with the board itself: the
// server's shapes reach that far (docs/PROTOCOL.md). `board` is where the board's canvas sits on
// screen and `backdrop` where this canvas does (DOMRects, CSS pixels); the board's coordinates are
// placed on this canvas with one translate and scale, nothing is computed. `index`: the
// arrangement drawn, `layout.arrangements[index]`, whose shape of each splash layer is filled.
export function drawBackdrop(ctx, layout, index, board, backdrop, { background, splash }) {
  const arrangement = layout.arrangements[index];
  const devicePerCss = ctx.canvas.width / backdrop.width;
  const scale = (board.width / arrangement.width) * devicePerCss;
  const x = (board.left - backdrop.left) * devicePerCss;
  const y = (board.top - backdrop.top) * devicePerCss;
  fillBackground(ctx, { scale, x, y }, background, splash, index);
}

// Draws the whole board in arrangement `arrangement` (an index into layout.arrangements):
// background, the splash layers growing over it (bottom first), then each ring of the layout in
// order with its last values (rings: Map id → values or null before the first frame that carried
// it), at the place the arrangement gives it. `text` is the last frame's background.text, the
// colour of titles whose layout titleColor is null (automatic). `transparent` leaves out the
// background and the splash (an overlay: only the rings and their text).
export function drawBoard(ctx, scale, { layout, arrangement, rings, background, text, splash }, { transparent = false } = {}) {
  if (transparent) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  } else {
    fillBackground(ctx, { scale, x: 0, y: 0 }, background, splash, arrangement);
  }
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.textBaseline = "middle";
  const places = layout.arrangements[arrangement].rings; // one per ring, in ring order (protocol.js)
  const stale = layout.rings.filter((ring) => (rings.get(ring.id)?.stale ?? null) !== null);
  const layer = stale.length > 0 ? staleLayer(ctx, scale) : null;
  layout.rings.forEach((ring, i) => {
    const values = rings.get(ring.id) ?? null;
    const target = layer !== null && stale.includes(ring) ? layer : ctx;
    const draw = WIDGETS[ring.kind];
    if (draw === undefined) {
      drawRing(target, scale, ring, places[i], values, text);
    } else {
      // A frame entry of another kind (a board reshaped under a stale value) is not drawn.
      draw(target, ring, places[i], values !== null && values.kind === ring.kind ? values : null);
      drawTitle(target, ring, places[i], text);
    }
  });
  if (layer !== null) {
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = STALE_ALPHA;
    ctx.drawImage(layer.canvas, 0, 0);
    ctx.restore();
    for (const ring of stale) {
      const values = rings.get(ring.id);
      drawStale(ctx, values.stale, places[layout.rings.indexOf(ring)], values.labelColor);
    }
  }
}

// The layer stale rings are drawn on before it goes on the board at STALE_ALPHA: one canvas, kept,
// the board canvas's size, cleared, with the board's transform and text baseline.
let staleCanvas = null;

function staleLayer(ctx, scale) {
  const { width, height } = ctx.canvas;
  if (staleCanvas === null) {
    staleCanvas = new OffscreenCanvas(width, height);
  } else if (staleCanvas.width !== width || staleCanvas.height !== height) {
    staleCanvas.width = width;
    staleCanvas.height = height;
  }
  const layer = staleCanvas.getContext("2d");
  layer.setTransform(1, 0, 0, 1, 0, 0);
  layer.clearRect(0, 0, width, height);
  layer.setTransform(scale, 0, 0, scale, 0, 0);
  layer.textBaseline = ctx.textBaseline;
  return layer;
}

// A stale ring's or widget's "updated … ago" (the server's text), at full opacity in a small font just
// under its label (its title, for a place without a label).
function drawStale(ctx, string, place, colour) {
  const spot = place.labelText ?? place.titleText;
  if (spot === null) {
    return;
  }
  // Never under 14 CSS pixels, the floor of every text (issue 34): small beside a label, still read on a phone.
  const size = Math.max(spot.size * STALE_SIZE, STALE_MIN_SIZE, minimumTextSize(ctx));
  ctx.save();
  ctx.textBaseline = "top";
  text(ctx, string, { ...spot, y: spot.y + spot.size * (0.5 + STALE_GAP), size }, 600, colour);
  ctx.restore();
}

// One ring: its disc and arcs after a translate to the place's centre (the frame's numbers are
// relative to it), then its texts where the place puts them on the board.
function drawRing(ctx, scale, ring, place, values, automaticText) {
  const { r, thickness } = ring;

  ctx.save();
  ctx.translate(place.cx, place.cy);
  if (ring.style === "seed") {
    drawSeedRing(ctx, r, values);
  } else {
    drawArcs(ctx, scale, r, thickness, ring.track, values);
  }
  ctx.restore();

  drawTitle(ctx, ring, place, automaticText);
  if (place.labelText !== null && values !== null) {
    text(ctx, values.label, place.labelText, 700, values.labelColor);
    if (values.spark !== undefined) {
      drawSpark(ctx, values.spark, place.labelText, values.labelColor);
    }
  }
}

// The band under a label a sparkline is drawn in, in the board's units: a pure function of the label's
// spot, so the server's SVG draws the same (SVGRenderer).
export function sparkBand(spot) {
  const width = Math.min(spot.width ?? Infinity, SPARK_WIDTH * spot.size);
  const left = spot.align === "left" ? spot.x : spot.align === "right" ? spot.x - width : spot.x - width / 2;
  return { left, top: spot.y + SPARK_TOP * spot.size, width, height: SPARK_HEIGHT * spot.size };
}

// A sparkline, [x0, y0, x1, y1, …] each 0…1 (x across the band, y up from its bottom), stroked in the
// label's colour.
function drawSpark(ctx, line, spot, colour) {
  const band = sparkBand(spot);
  ctx.save();
  ctx.lineWidth = SPARK_LINE * spot.size;
  ctx.lineJoin = "round";
  ctx.lineCap = "round";
  ctx.strokeStyle = colour;
  ctx.beginPath();
  for (let i = 0; i + 1 < line.length; i += 2) {
    ctx.lineTo(band.left + line[i] * band.width, band.top + (1 - line[i + 1]) * band.height); // the first acts as moveTo
  }
  ctx.stroke();
  ctx.restore();
}

// Seed 004's CircleProgressView, in logical units like the rest of the board: a white disc at
// alpha 0.25 of the ring's radius, and the arc from a0 to a1 as a white 4-unit stroke with butt
// caps; no track, gradient, cap or tip.
const SEED_DISC = "rgba(255, 255, 255, 0.25)";
const SEED_STROKE = "#ffffff";
const SEED_LINE_WIDTH = 4;

function drawSeedRing(ctx, r, values) {
  disc(ctx, 0, 0, r, SEED_DISC);
  if (values !== null && values.p !== null && values.p > 0) {
    ctx.lineWidth = SEED_LINE_WIDTH;
    ctx.lineCap = "butt";
    ctx.strokeStyle = SEED_STROKE;
    ctx.beginPath();
    ctx.arc(0, 0, r, values.a0, values.a1);
    ctx.stroke();
  }
}

// The ring of §5: track, gradient arc, start cap and tip with its shadow.
function drawArcs(ctx, scale, r, thickness, track, values) {
  ctx.lineWidth = thickness;
  ctx.strokeStyle = track;
  ctx.beginPath();
  ctx.arc(0, 0, r, 0, FULL_TURN);
  ctx.stroke();

  if (values !== null && values.p !== null && values.p > 0) {
    const gradient = ctx.createConicGradient(values.gradient.start, 0, 0);
    for (const [offset, colour] of values.gradient.stops) {
      gradient.addColorStop(offset, colour);
    }
    ctx.lineCap = "butt";
    ctx.strokeStyle = gradient;
    ctx.beginPath();
    ctx.arc(0, 0, r, values.a0, values.a1);
    ctx.stroke();

    const discRadius = thickness / 2;
    if (values.cap.visible) {
      disc(ctx, values.cap.x, values.cap.y, discRadius, values.cap.color);
    }
    const tip = values.tip;
    disc(ctx, tip.x, tip.y, discRadius, tip.color);
    if (tip.visible) {
      ctx.save();
      ctx.shadowColor = `rgba(0, 0, 0, ${tip.shadow.alpha})`;
      ctx.shadowBlur = tip.shadow.blur * scale;
      ctx.shadowOffsetX = tip.shadow.dx * scale;
      ctx.shadowOffsetY = tip.shadow.dy * scale;
      disc(ctx, tip.x, tip.y, discRadius, tip.color);
      ctx.restore();
    }
  }
}

function drawTitle(ctx, ring, place, automaticText) {
  const titleColor = ring.titleColor ?? automaticText;
  if (place.titleText !== null && titleColor !== null) {
    text(ctx, ring.title, place.titleText, 600, titleColor);
  }
}

// --- widgets (DESIGN §12): each drawn in its ring's cell from the layout's sizes and the frame's
// values; `values` is null before the first frame that carried the widget. -----------------------

const WIDGETS = { counter: drawCounter, text: drawWaveText, indicator: drawIndicator, gradient: drawGradient };

// An odometer (seed 003 Example13): a row of digit columns centred at the label's spot, each
// clipped to a window one row tall in which digit d has rolled up by `fraction` of a row and d + 1
// follows from below; the sign, group separators, "." and the smaller unit sit between them.
function drawCounter(ctx, ring, place, values) {
  const spot = place.labelText;
  if (spot === null || values === null) {
    return;
  }
  if (values.value === null || values.digits.length === 0) {
    text(ctx, values.label, spot, 700, values.labelColor); // no number yet: the server's words
    return;
  }
  const digitFont = `700 ${spot.size}px ${MONO_STACK}`;
  // A unit is smaller than its digits, but never under 14 CSS pixels while they are not (issue 34).
  const unitFont = `600 ${Math.max(spot.size * COUNTER_UNIT, Math.min(spot.size, minimumTextSize(ctx)))}px ${FONT_STACK}`;
  const pieces = counterPieces({
    columns: values.digits.length,
    decimals: ring.decimals,
    sign: values.sign,
    grouping: ring.grouping,
    unit: ring.unit,
  });
  ctx.font = digitFont;
  const column = ctx.measureText("0").width;
  const widths = pieces.map((piece) => {
    if (piece.type === "digit") {
      return column;
    }
    ctx.font = piece.type === "unit" ? unitFont : digitFont;
    return ctx.measureText(piece.type === "unit" ? ` ${piece.text}` : piece.text).width;
  });
  const { lefts, fit } = placeRow(widths, spot);
  const row = spot.size * COUNTER_ROW;

  ctx.save();
  narrow(ctx, spot, fit);
  ctx.fillStyle = values.labelColor;
  ctx.textAlign = "left";
  pieces.forEach((piece, i) => {
    if (piece.type !== "digit") {
      ctx.font = piece.type === "unit" ? unitFont : digitFont;
      ctx.fillText(piece.type === "unit" ? ` ${piece.text}` : piece.text, lefts[i], spot.y);
      return;
    }
    const [digit, fraction] = values.digits[piece.column];
    ctx.save();
    ctx.beginPath();
    ctx.rect(lefts[i], spot.y - row / 2, column, row);
    ctx.clip();
    ctx.font = digitFont;
    const y = spot.y - fraction * row;
    ctx.fillText(String(digit), lefts[i], y);
    if (fraction !== 0) {
      ctx.fillText(String((digit + 1) % 10), lefts[i], y + row);
    }
    ctx.restore();
  });
  ctx.restore();
}

// Wave text (seed 003 Example12): the characters side by side (no spacing) at the label's spot,
// each scaled by the frame's scale about its own centre, as SwiftUI's scaleEffect does (a scaled
// character does not push its neighbours).
function drawWaveText(ctx, ring, place, values) {
  const spot = place.labelText;
  if (spot === null || values === null) {
    return;
  }
  const characters = graphemes(values.text);
  ctx.font = `700 ${spot.size}px ${MONO_STACK}`;
  const widths = characters.map((character) => ctx.measureText(character).width);
  const { lefts, fit } = placeRow(widths, spot);

  ctx.save();
  narrow(ctx, spot, fit);
  ctx.fillStyle = values.labelColor;
  ctx.textAlign = "center";
  characters.forEach((character, i) => {
    const scale = values.scales[i] ?? 1;
    ctx.save();
    ctx.translate(lefts[i] + widths[i] / 2, spot.y);
    ctx.scale(scale, scale);
    ctx.fillText(character, 0, 0);
    ctx.restore();
  });
  ctx.restore();
}

// Narrows what follows by `fit` about the spot's anchor, so a row too wide for it fits: sideways
// only down to text-fit.js's SQUEEZE, then shrunk uniformly as well (the text rule of issue 34).
function narrow(ctx, spot, fit) {
  if (fit < 1) {
    ctx.translate(spot.x, spot.y);
    ctx.scale(fit, Math.min(1, fit / SQUEEZE));
    ctx.translate(-spot.x, -spot.y);
  }
}

// The percentage indicator (seed 003 Example10): a dashed arc of radius r from a0 (3 o'clock)
// clockwise to a1, stroked with the layout's line width, dash and phase and butt caps (SwiftUI's
// strokedPath default), and the label in the middle.
function drawIndicator(ctx, ring, place, values) {
  if (values === null) {
    return;
  }
  if (values.p !== null && values.a1 > values.a0) {
    ctx.save();
    ctx.translate(place.cx, place.cy);
    ctx.lineWidth = ring.lineWidth;
    ctx.lineCap = "butt";
    ctx.setLineDash(ring.dash);
    ctx.lineDashOffset = ring.dashPhase;
    ctx.strokeStyle = values.color;
    ctx.beginPath();
    ctx.arc(0, 0, ring.r, values.a0, values.a1);
    ctx.stroke();
    ctx.restore();
  }
  if (place.labelText !== null) {
    text(ctx, values.label, place.labelText, 700, values.labelColor);
  }
}

// The animatable gradient (seed 003 Example11): a rounded rectangle centred on the cell, filled
// with a linear gradient of the frame's stops from its top-left to its bottom-right corner.
function drawGradient(ctx, ring, place, values) {
  if (values === null) {
    return;
  }
  const left = place.cx - ring.width / 2;
  const top = place.cy - ring.height / 2;
  const gradient = ctx.createLinearGradient(left, top, left + ring.width, top + ring.height);
  for (const [offset, colour] of values.stops) {
    gradient.addColorStop(offset, colour);
  }
  ctx.fillStyle = gradient;
  ctx.beginPath();
  ctx.roundRect(left, top, ring.width, ring.height, Math.min(ring.corner, ring.width / 2, ring.height / 2));
  ctx.fill();
  if (place.labelText !== null && values.label !== "") {
    text(ctx, values.label, place.labelText, 700, values.labelColor);
  }
}

// Fills the whole canvas with the background, then each splash layer's shape for arrangement
// `index` in order, the board's coordinates placed at (x, y) device pixels, `scale` device pixels
// per logical unit.
function fillBackground(ctx, { scale, x, y }, background, splash, index) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.setTransform(scale, 0, 0, scale, x, y);
  for (const layer of splash) {
    const shape = layer.shapes[index];
    if (shape !== undefined) {
      drawSplash(ctx, layer.color, shape); // shapes may reach past the canvas: it clips them
    }
  }
}

function drawSplash(ctx, colour, shape) {
  ctx.fillStyle = colour;
  ctx.beginPath();
  const { polygon, circle } = shape;
  if (polygon !== undefined) {
    for (const [x, y] of polygon) {
      ctx.lineTo(x, y); // the first lineTo of a path acts as moveTo
    }
    ctx.closePath();
  } else {
    ctx.arc(circle.cx, circle.cy, circle.r, 0, FULL_TURN);
  }
  ctx.fill();
}

function disc(ctx, x, y, radius, colour) {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, FULL_TURN);
  ctx.fill();
}

// Canvas text is never parsed as markup, so server strings are safe here as they are. A spot with
// a width is fitted to it by text-fit.js's rule (narrowed at most 10 %, then shrunk, then two
// lines, then cut with "…"); fillText's maxWidth does the narrowing.
function text(ctx, string, spot, weight, colour) {
  ctx.textAlign = spot.align;
  ctx.fillStyle = colour;
  if (spot.width === null || spot.width === undefined) {
    ctx.font = `${weight} ${spot.size}px ${FONT_STACK}`;
    ctx.fillText(string, spot.x, spot.y);
    return;
  }
  const { size, lines } = fitted(ctx, string, spot, weight);
  ctx.font = `${weight} ${size}px ${FONT_STACK}`;
  // Centred on the spot's y; under it, the first line's top at y, for a "top" baseline (stale text).
  const first = ctx.textBaseline === "top" ? lineOffset(0, lines.length, size) : 0;
  lines.forEach((line, i) => {
    ctx.fillText(line, spot.x, spot.y + lineOffset(i, lines.length, size) - first, spot.width);
  });
}

// The fits made so far, by font, spot and string: a board redrawn at 60 Hz measures its texts once.
const fits = new Map();
const FITS_KEPT = 4096;

// 14 CSS pixels in the board's units: the transform is device pixels per unit.
function minimumTextSize(ctx) {
  return (MINIMUM_CSS_PIXELS * (globalThis.devicePixelRatio || 1)) / ctx.getTransform().a;
}

function fitted(ctx, string, spot, weight) {
  const minimum = minimumTextSize(ctx);
  const key = `${weight}|${spot.size}|${spot.width}|${minimum}|${string}`;
  let fit = fits.get(key);
  if (fit === undefined) {
    ctx.font = `${weight} ${spot.size}px ${FONT_STACK}`;
    fit = fitText(string, spot, (s) => ctx.measureText(s).width, minimum);
    if (fits.size >= FITS_KEPT) {
      fits.clear();
    }
    fits.set(key, fit);
  }
  return fit;
}
