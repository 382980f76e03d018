// Wiring: the stream feeds decoded messages into one state object; a requestAnimationFrame
// callback, requested only when something new arrived or the canvas changed size, draws it (at
// most once per display frame however many messages came in between).

import { chooseArrangement } from "./arrangement.js";
import { openStream, streamAddress } from "./connection.js";
import { drawBackdrop, drawBoard, fitBackdrop, fitCanvas } from "./draw.js";
import { decode } from "./protocol.js";

const canvas = document.getElementById("rings");
const backdrop = document.getElementById("backdrop");
const stage = document.getElementById("stage");
const boardName = document.getElementById("board-name");
const status = document.getElementById("status");
const statusText = document.getElementById("status-text");
const announcer = document.getElementById("announcer");
const problem = document.getElementById("problem");
const problemTitle = document.getElementById("problem-title");
const problemDetail = document.getElementById("problem-detail");
const problemLinks = document.getElementById("problem-links");
const boardsLink = document.getElementById("boards-link");
const controlLink = document.getElementById("control-link");
const ctx = canvas.getContext("2d");
const backdropCtx = backdrop.getContext("2d");

// Everything the page knows. A layout resets it; frames update it; the draw loop reads it.
const state = {
  layout: null, // the last layout: each ring, and the arrangements that place them
  arrangement: 0, // index of the arrangement drawn: the one whose shape is nearest the stage's
  rings: new Map(), // ring id of the layout → last values a frame carried for it (null before)
  background: null, // colour the board is filled with
  text: null, // the server's text colour for that background: automatic titles and the header
  splash: [], // splash layers growing over the background, bottom first
  seq: null, // seq of the last frame applied
  dirty: false, // true when the state holds something not yet drawn
  backdropDirty: false, // true when the background or a splash changed since the backdrop was drawn
  connection: "connecting", // "connecting" | "live" | "reconnecting" | "refused" | "offline"
  refusal: null, // the server's last "error" message: why it will not stream this board here
};
window.ringcast = Object.freeze({ state });

// Under prefers-reduced-motion the server sends end states only; a change of the setting reconnects.
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
// The board asked for: ?board=, else null: the server's default board (`/` always shows that one,
// whatever other boards exist, so a wall screen's address keeps its meaning).
let board = streamAddress(window.location).board;
// ?playlist=NAME: the server decides which board is shown, and switches it (see "playlists" below).
const playlist = streamAddress(window.location).playlist;
const address = () => streamAddress(window.location, { reducedMotion: reducedMotion.matches, board }).url;

// The page's query options besides ?board=, ?playlist=, ?token= and ?format= (connection.js):
//   ?kiosk=1        a wall screen: no header bar, no cursor.
//   ?transparent=1  an overlay (an OBS browser source): no background and no splash, only the rings
//                   and their text over whatever is behind; drawn with an outline (below).
//   ?outline=0      no outline in transparent mode; ?outline=1 asks for one on any page.
// The outline: everything drawn on the board (its text above all) gets a thin, soft halo in the
// board's own background colour, the colour the server chose the text colours for, so white text
// still reads over a light scene and dark text over a dark one. It is a CSS drop-shadow on the
// board's canvas (style.css, html[data-outline]): draw.js draws as it always does.
const view = new URLSearchParams(window.location.search);
const kiosk = view.get("kiosk") === "1";
const transparent = view.get("transparent") === "1";
const outline = transparent ? view.get("outline") !== "0" : view.get("outline") === "1";
document.documentElement.toggleAttribute("data-kiosk", kiosk);
document.documentElement.toggleAttribute("data-transparent", transparent);
document.documentElement.toggleAttribute("data-outline", outline);

// --- messages ----------------------------------------------------------------------------------

const warned = new Set();

function receive(data) {
  try {
    const message = decode(data);
    if (message?.type === "layout") {
      applyLayout(message);
    } else if (message?.type === "frame") {
      applyFrame(message);
    } else if (message?.type === "error") {
      state.refusal = message;
      showProblem();
    } else if (message?.type === "event") {
      // For pages that embed or script this one: the page itself draws only frames.
      window.dispatchEvent(new CustomEvent("ringcast:event", { detail: message }));
    } // null: a message type this page does not know, ignored
  } catch (error) {
    // Once per distinct problem: a server repeating it 60 times a second must not flood the console.
    const reason = error instanceof Error ? error.message : String(error);
    if (!warned.has(reason)) {
      warned.add(reason);
      console.warn("RingCast: ignored a malformed message:", reason);
    }
  }
}

// A layout starts the picture over: new rings and arrangements, no ring values until the keyframe
// that follows. It comes first on every connection, and again mid-stream when the board's structure
// changed (the server then sends a keyframe at once); either way it replaces everything.
function applyLayout(layout) {
  state.layout = layout;
  state.rings = new Map(layout.rings.map((ring) => [ring.id, null]));
  state.seq = null;
  state.splash = [];
  state.backdropDirty = true;
  pickArrangement();
  setBackground(layout.background);
  announceSoon();
  boardName.textContent = layout.title;
  document.title = `${layout.title} · RingCast`;
  document.body.dataset.board = layout.board;
  controlLink.href = pageAt("control.html", { board: layout.board });
  canvas.setAttribute("aria-label", `Progress rings of board ${layout.title}`);
  invalidate();
  stream.live();
}

// Draws the arrangement whose aspect ratio is nearest the stage's; a change repaints the backdrop,
// whose splash shapes are the arrangement's. Exposed as data-arrangement (its name) for tests.
function pickArrangement() {
  const index = chooseArrangement(state.layout.arrangements, stage.clientWidth, stage.clientHeight);
  if (index !== state.arrangement) {
    state.arrangement = index;
    state.backdropDirty = true;
  }
  document.body.dataset.arrangement = state.layout.arrangements[index].name;
}

// A frame may carry only some rings: each one it carries replaces that ring's last values.
function applyFrame(frame) {
  if (state.layout === null) {
    return; // no geometry to draw it with; the server always sends a layout first
  }
  for (const ring of frame.rings) {
    if (state.rings.has(ring.id)) {
      state.rings.set(ring.id, ring);
    }
  }
  if (frame.background !== null) {
    const { color, text, splash } = frame.background;
    if (color !== state.background || splash.length > 0 || state.splash.length > 0) {
      state.backdropDirty = true;
    }
    setBackground(color);
    setText(text);
    state.splash = splash;
  }
  state.seq = frame.seq;
  invalidate();
  announceSoon();
}

// The page's own background is the board's too: the backdrop canvas (drawBackdrop) paints over it,
// and it shows wherever that has not been drawn yet.
function setBackground(colour) {
  if (colour !== state.background) {
    state.background = colour;
    if (!transparent) {
      document.body.style.backgroundColor = colour;
    }
    // The outline's colour: the background without its alpha (a see-through board still needs a
    // halo that shows).
    const opaque = /^#[0-9a-f]{8}$/i.test(colour) ? colour.slice(0, 7) : colour;
    document.documentElement.style.setProperty("--halo", opaque);
  }
}

// The header's text takes the server's colour for the background (chosen for contrast there).
function setText(colour) {
  if (colour !== state.text) {
    state.text = colour;
    document.body.style.setProperty("--board-text", colour);
  }
}

// --- screen readers ----------------------------------------------------------------------------

// The canvas is one image to assistive technology, so each ring's title and label (the server's
// text, as drawn) is mirrored into a visually hidden aria-live="polite" region: one line per ring,
// rewritten only when its text changed, so a screen reader announces just the rings that moved.
// A label counting along changes every frame: the mirror follows at most every ANNOUNCE_EVERY_MS,
// always ending on the latest text.
const ANNOUNCE_EVERY_MS = 400;
let announceTimer = 0;
let announcedAt = -Infinity;

function announceSoon() {
  if (announceTimer === 0) {
    const wait = Math.max(0, announcedAt + ANNOUNCE_EVERY_MS - performance.now());
    announceTimer = setTimeout(announce, wait);
  }
}

function announce() {
  announceTimer = 0;
  announcedAt = performance.now();
  if (state.layout === null) {
    return;
  }
  const ids = state.layout.rings.map((ring) => ring.id);
  const lines = [...announcer.children];
  if (lines.length !== ids.length || lines.some((line, i) => line.dataset.ring !== ids[i])) {
    // Another layout (a reconnect keeps the same one, and then nothing is rebuilt or re-announced).
    announcer.replaceChildren(
      ...ids.map((id) => {
        const line = document.createElement("p");
        line.dataset.ring = id;
        return line;
      }),
    );
  }
  state.layout.rings.forEach((ring, i) => {
    const values = state.rings.get(ring.id);
    if (values === null) {
      return; // between a layout and its keyframe: keep what was said
    }
    // A stale ring's "updated … ago" (DESIGN §13) follows its label, as drawn.
    const text = [ring.title, values.label, values.stale].filter(Boolean).join(" ");
    const line = announcer.children[i];
    if (line.textContent !== text) {
      line.textContent = text;
    }
  });
}

// --- connection status -------------------------------------------------------------------------

// `detail`: the seconds until the next attempt when reconnecting; the close's { code, reason } when
// refused.
function showStatus(connection, detail) {
  const seconds = detail;
  state.connection = connection;
  document.body.dataset.state = connection;
  status.dataset.state = connection;
  statusText.textContent = connection === "reconnecting" ? `reconnecting in ${seconds}s` : connection;
  if (connection === "live") {
    state.refusal = null;
  }
  if (connection === "refused" && state.refusal === null) {
    // Closed without an "error" message: a board the server stopped serving (a reload removed it).
    const message = detail.reason || `the server closed this ${playlist === null ? "board" : "playlist"}'s stream`;
    state.refusal = { status: detail.code - 4000, code: "closed", message, field: null, boards: null };
  }
  showProblem(seconds);
  // A picture on screen that stopped updating is marked stale (style.css dims it). Not before the
  // first layout, and not for a hidden tab, which closed its stream on purpose.
  document.body.toggleAttribute("data-stale", connection !== "live" && state.layout !== null && !document.hidden);
}

// --- what is wrong, on screen ------------------------------------------------------------------

// The page with another board (or token) in its query, everything else kept.
function pageWith(name, value) {
  const url = new URL(window.location.href);
  url.searchParams.set(name, value);
  return url.href;
}

// Another page next to this one (relative, so it works under a proxy's path prefix) with `query`,
// and the read token of this page's address if it has one.
function pageAt(path, query = {}) {
  const url = new URL(path, window.location.href);
  for (const [name, value] of Object.entries(query)) {
    url.searchParams.set(name, value);
  }
  const token = view.get("token");
  if (token !== null && path !== "control.html") {
    url.searchParams.set("token", token); // the control page takes a write token, typed in on it
  }
  return url.href;
}

// The form under a 401 that asks for the read token: submitting opens the page again with ?token= and the
// token (everything else in the address kept). Made once and only shown or hidden, so what is typed
// survives the problem being said again each second.
const tokenForm = (() => {
  const form = document.createElement("form");
  form.id = "token-form";
  form.className = "token-form";
  form.hidden = true;
  const label = document.createElement("label");
  label.textContent = "Read token";
  const input = document.createElement("input");
  input.type = "password";
  input.name = "token";
  input.autocomplete = "current-password";
  input.required = true;
  label.append(input);
  const button = document.createElement("button");
  button.type = "submit";
  button.textContent = "Show the board";
  // For a screen without a keyboard: the address that carries the token (filled in by showProblem).
  const how = document.createElement("p");
  how.className = "token-how";
  how.append("On a wall screen, open ", document.createElement("code"));
  form.append(label, button, how);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value !== "") {
      window.location.href = pageWith("token", input.value);
    }
  });
  problem.append(form);
  return form;
})();
const tokenExample = tokenForm.querySelector(".token-how code");

// Puts `text` in `element`, each "?token=" in it as code that does not break across lines.
function showText(element, text) {
  element.replaceChildren(
    ...text.split(/(\?token=)/).map((part) => {
      if (part !== "?token=") {
        return part;
      }
      const code = document.createElement("code");
      code.textContent = part;
      return code;
    }),
  );
}

// Says on screen why no board is shown, in the server's words: a refusal ("error" message), or a
// server that cannot be reached (with the retry countdown). Hidden while live.
function showProblem(seconds) {
  const connection = state.connection;
  const refusal = state.refusal;
  // Unreachable from the first failed attempt until one succeeds: the attempts in between ("connecting")
  // keep it on screen, so that it neither blinks nor starts its fade-in again at each one.
  const retrying = connection === "connecting" && problem.dataset.code === "unreachable" && !problem.hidden;
  const unreachable = (connection === "reconnecting" || retrying) && refusal === null;
  if (connection === "live" || (refusal === null && !unreachable)) {
    problem.hidden = true;
    return;
  }
  let title;
  let detail = refusal?.message ?? "";
  const links = [];
  if (refusal === null) {
    title = "Cannot reach the RingCast server";
    detail = retrying ? "Trying again now." : `Trying again in ${seconds} s.`;
  } else if (refusal.status === 404 && refusal.field === "board") {
    // Without ?board= the server's default board (defaultBoard) is missing; its message names it.
    title = board === null ? "This server's default board does not exist" : `There is no board named “${board}”`;
    for (const name of refusal.boards ?? []) {
      links.push([name, pageWith("board", name)]);
    }
    if (links.length > 0) {
      detail = board === null ? `${refusal.message}. Boards on this server:` : "Boards on this server:";
    }
    links.push(["All boards", boardsLink.href]);
  } else if (refusal.status === 404 && refusal.field === "playlist") {
    title = playlistProblem(refusal);
  } else if (refusal.status === 401) {
    // Said for a person in front of a screen, not for curl: the server's own words (Authorization
    // headers, cookies) are for programs.
    const given = view.has("token");
    title = given ? "The token was refused" : "This board needs a read token";
    detail = given
      ? `The server did not accept the token in this page's address (it says: ${refusal.message}). Check the token with whoever runs RingCast, or type the right one below.`
      : "This RingCast server shows its boards only to viewers with its read token. Ask whoever runs it for the token and type it below, or add ?token= and the token to this page's address.";
  } else if (refusal.code === "closed" && playlist !== null) {
    [title, detail] = playlistClosed(refusal.message);
    links.push(["Boards and playlists", boardsLink.href]);
  } else if (refusal.code === "closed") {
    title = "The server stopped showing this board";
    detail = `${refusal.message}.`;
  } else if (refusal.code === "host_not_allowed") {
    title = `This server does not answer to “${window.location.host}”`;
    detail = `${refusal.message}. Open the page under a name the server answers to (localhost or its address).`;
  } else if (refusal.code === "origin_not_allowed") {
    title = "This page may not show boards from this server";
    detail = `${refusal.message}. The server's allowedOrigins setting lists the sites that may.`;
  } else {
    title = "The server will not show this board";
  }
  if (refusal !== null && connection === "reconnecting") {
    detail += ` Trying again in ${seconds} s.`;
  }
  problemTitle.textContent = title;
  showText(problemDetail, detail);
  problemLinks.replaceChildren(
    ...links.map(([text, href]) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.textContent = text;
      link.href = href;
      item.append(link);
      return item;
    }),
  );
  const asksToken = refusal?.status === 401;
  if (tokenForm.hidden === asksToken) {
    tokenForm.hidden = !asksToken;
  }
  if (asksToken) {
    tokenExample.textContent = pageWith("token", "YOUR-TOKEN").replace("YOUR-TOKEN", "…");
  }
  problem.dataset.code = refusal?.code ?? "unreachable";
  problem.hidden = false;
}

// --- drawing -----------------------------------------------------------------------------------

let frameRequested = false;

function invalidate() {
  state.dirty = true;
  if (!frameRequested) {
    frameRequested = true;
    requestAnimationFrame(render);
  }
}

function render() {
  frameRequested = false;
  if (state.layout === null || !state.dirty) {
    return;
  }
  state.dirty = false;
  pickArrangement(); // the stage may have changed shape: every resize comes through here
  const arrangement = state.layout.arrangements[state.arrangement];
  const scale = fitCanvas(canvas, stage.clientWidth, stage.clientHeight, arrangement, window.devicePixelRatio);
  drawBoard(ctx, scale, state, { transparent });
  if (!transparent) {
    renderBackdrop();
  }
  if (state.seq === null) {
    delete document.body.dataset.seq;
  } else {
    document.body.dataset.seq = String(state.seq);
  }
}

// The backdrop (the background and the splash over the whole window, behind the header and the
// board) is redrawn only when what it shows changed: the background, a splash under way, or where
// the board sits. Ring values alone leave it as it is.
let backdropPlacement = "";

function renderBackdrop() {
  const resized = fitBackdrop(backdrop, window.devicePixelRatio);
  const board = canvas.getBoundingClientRect();
  const whole = backdrop.getBoundingClientRect();
  const placement = [board.left, board.top, board.width, board.height, whole.width, whole.height].join();
  if (resized || placement !== backdropPlacement || state.backdropDirty) {
    backdropPlacement = placement;
    state.backdropDirty = false;
    drawBackdrop(backdropCtx, state.layout, state.arrangement, board, whole, state);
  }
}

// Moving the window to a screen of another pixel ratio resizes nothing in CSS pixels, so watch
// the ratio itself; each query matches one ratio and is re-armed on change.
function watchPixelRatio() {
  matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener(
    "change",
    () => {
      invalidate();
      watchPixelRatio();
    },
    { once: true },
  );
}

// --- pointer -----------------------------------------------------------------------------------

// A wall display has a pointer nobody moves: hide it after a few still seconds, show it on a move.
const POINTER_REST_MS = 3_000;
let pointerTimer = 0;

function pointerMoved() {
  delete document.body.dataset.pointerIdle;
  clearTimeout(pointerTimer);
  pointerTimer = setTimeout(() => {
    document.body.dataset.pointerIdle = "";
  }, POINTER_REST_MS);
}

window.addEventListener("pointermove", pointerMoved, { passive: true });
pointerMoved();

// --- playlists -----------------------------------------------------------------------------------

// A playlist's page shows whichever board the server streams: each board's layout (with its title,
// for the header) arrives when the server switches to it. Until the first one, the header shows the
// playlist's name.
function startPlaylist() {
  if (playlist !== null) {
    document.body.dataset.playlist = playlist;
    board = playlist;
  }
}

// [title, detail] for a playlist's stream the server closed: the playlist deleted, its boards all
// gone, or another reason (the server's words). Said about the playlist, which is what this screen
// shows, not about the board it last showed.
function playlistClosed(reason) {
  if (reason === "playlist deleted") {
    return [
      `The playlist “${playlist}” was deleted`,
      "This screen has nothing more to show. Choose a board or another playlist, or reload this page once the playlist is created again.",
    ];
  }
  if (reason.startsWith("none of")) {
    return [
      `No board of the playlist “${playlist}” is served`,
      "Its boards were removed from this server. Reload this page once one of them is back, or choose another board or playlist.",
    ];
  }
  return [`The server stopped showing the playlist “${playlist}”`, reason === "" ? "" : `${reason}.`];
}

// The title of a refused playlist: unknown, or none of its boards served here.
function playlistProblem(refusal) {
  return refusal.message.startsWith("none of")
    ? `No board of the playlist “${playlist}” is served`
    : `There is no playlist named “${playlist}”`;
}

// --- which board --------------------------------------------------------------------------------

let stream = null;

function start() {
  document.body.dataset.board = board ?? "";
  boardName.textContent = board ?? "RingCast";
  boardsLink.href = pageAt("boards");
  controlLink.href = pageAt("control.html", board === null ? {} : { board });
  const resizes = new ResizeObserver(invalidate);
  resizes.observe(stage);
  resizes.observe(backdrop);
  watchPixelRatio();
  showStatus("connecting");
  stream = openStream(address, { onData: receive, onStatus: showStatus });
  reducedMotion.addEventListener("change", () => stream.reconnect());
}

startPlaylist();
start();
