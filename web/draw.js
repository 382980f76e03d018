// Canvas drawing. Every position, angle, colour stop and text comes from the server (layout and
// frames); this file only turns those numbers into canvas calls. Its only arithmetic is fitting
// the board to the screen: the pixel scale (device pixels per logical unit) for the transform and
// for shadows, which the canvas applies in device pixels whatever the transform, and placing the
// board's coordinates on the backdrop behind it.
//
// The board is drawn in one of the layout's arrangements (app.js picks it): its canvas size, where
// it puts each ring and its texts, and which of each splash layer's shapes to fill. A frame's ring
// is relative to the ring's centre, so each ring is drawn after a translate to its place.

const FONT_STACK = 'ui-rounded, "SF Pro Rounded", system-ui, sans-serif';
const FULL_TURN = 2 * Math.PI;

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
  layout.rings.forEach((ring, i) => {
    drawRing(ctx, scale, ring, places[i], rings.get(ring.id) ?? null, text);
  });
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

  const titleColor = ring.titleColor ?? automaticText;
  if (place.titleText !== null && titleColor !== null) {
    text(ctx, ring.title, place.titleText, 600, titleColor);
  }
  if (place.labelText !== null && values !== null) {
    text(ctx, values.label, place.labelText, 700, values.labelColor);
  }
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
// a width is drawn at most that wide (fillText's maxWidth narrows a longer text to fit).
function text(ctx, string, spot, weight, colour) {
  ctx.font = `${weight} ${spot.size}px ${FONT_STACK}`;
  ctx.textAlign = spot.align;
  ctx.fillStyle = colour;
  if (spot.width === null || spot.width === undefined) {
    ctx.fillText(string, spot.x, spot.y);
  } else {
    ctx.fillText(string, spot.x, spot.y, spot.width);
  }
}
