// The control page: a remote control for one board. Each control is one REST call (api.js); the
// page shows what the server answers (GET after each push) and never works out a value the server
// owns (the Overall ring's mean, a countdown's seconds, whether a change is allowed). It is built
// from the board's GET: one card per ring or widget with the controls of its kind, and forms to add
// and delete them. Errors are shown next to the control that caused them and, in short, on the
// status line (aria-live). Each ring that keeps history has a chart of what its
// GET …/rings/{ring}/history answers (history-chart.js), read again after each push from here and
// every 30 s while the page is shown.

import { animationChooser, FieldError } from "./animation.js";
import { ApiError, createApi } from "./api.js";
import { describeHistory, historyChart, newestPoint } from "./history-chart.js";
import { pacer } from "./pace.js";

const TOKEN_KEY = "ringcast.token";
const SLIDER_GAP_MS = 200; // a dragged slider sends at most 5 requests a second
const POLL_MS = 1000; // while something moves, read the board again to show where it settled
const SLOW_POLL_MS = 5000; // while only a countdown runs, and while the board does not exist (404)
const DELETE_ARMED_MS = 4000; // a Delete button asks to be pressed again within this long
const HISTORY_POLL_MS = 30_000; // while the page is visible, read the rings' histories again this often
const HISTORY_POINTS = 200; // at most this many points a chart (the server thins a span by M4)
const CHART_WIDTH = 300; // the chart's viewBox in control.html
const CHART_HEIGHT = 48;

const $ = (id) => document.getElementById(id);
const boardSelect = $("board");
const dashboardLink = $("dashboard-link");
const boardsLink = $("boards-link");
const boardError = $("board-error");
const statusLine = $("status");
const ringsBox = $("rings");
const countdownState = $("countdown-state");
const tokenInput = $("token");
const animationKind = $("animation-kind");

const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });

// Everything the page knows about the board it controls.
const state = {
  board: null, // its name
  generation: 0, // bumped when another board is chosen: answers about the old one are dropped
  rings: [], // the rings and widgets of the last GET, in the board's order
  loaded: false, // a GET of this board has answered
  shape: "", // what the cards were built for: each entry's id, kind and the parts it shows
  historyDue: false, // a push succeeded: read the histories again once the board has been read back
};

// --- token ------------------------------------------------------------------------------------

function loadToken() {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? "";
  } catch {
    return ""; // storage disabled: the field still works for this visit
  }
}

function saveToken(token) {
  try {
    if (token === "") {
      localStorage.removeItem(TOKEN_KEY);
    } else {
      localStorage.setItem(TOKEN_KEY, token);
    }
  } catch {
    // storage disabled or full: nothing to do, the field keeps the token for this visit
  }
}

tokenInput.value = loadToken();
tokenInput.addEventListener("input", () => saveToken(tokenInput.value.trim()));
$("access-form").addEventListener("submit", (event) => event.preventDefault()); // saved as typed
const api = createApi(() => tokenInput.value.trim());

// --- status and errors ------------------------------------------------------------------------

function say(text, kind = "info") {
  statusLine.textContent = text;
  statusLine.dataset.kind = kind;
}

// What went wrong, in words a user can act on.
function describe(error) {
  if (error instanceof ApiError) {
    let text = error.message;
    if (error.field !== null) {
      text += ` (field: ${error.field})`;
    }
    if (error.status === 401 || error.status === 403) {
      text += " — check the write token under Access";
    } else if (error.status === 429 && error.retryAfter !== null) {
      text += ` — try again in ${error.retryAfter} s`;
    }
    return error.status === 0 ? text : `${text} [HTTP ${error.status}]`;
  }
  return error instanceof Error ? error.message : String(error);
}

// The error line of the group a control belongs to: its ring card, else its panel.
function slotFor(element) {
  return element.closest("fieldset.ring, .panel")?.querySelector(":scope > .error") ?? boardError;
}

function showError(slot, text) {
  slot.textContent = text;
  slot.hidden = false;
}

function clearError(slot) {
  slot.textContent = "";
  slot.hidden = true;
}

function markInvalid(input) {
  input.setAttribute("aria-invalid", "true");
  input.addEventListener("input", () => input.removeAttribute("aria-invalid"), { once: true });
}

const blamesAnimation = (field) => field !== null && /(^|\.)animation(\.|$)/.test(field);

// Runs one write for a control: clears the control's old error, shows the new one or the
// success, and reads the board back. `what` names the change for the status line; `quiet()`
// true at the end keeps a success off it (a slider mid-drag would announce five times a second).
async function act(control, what, run, { animated = true, quiet = () => false } = {}) {
  const slot = slotFor(control);
  const generation = state.generation;
  clearError(slot);
  if (animated) {
    clearError(slotFor(animationKind));
  }
  let result;
  try {
    result = await run();
  } catch (error) {
    if (generation !== state.generation) {
      return false; // about a board no longer shown
    }
    const text = describe(error);
    if (error instanceof FieldError) {
      showError(slotFor(error.input), text);
      markInvalid(error.input);
      error.input.focus();
    } else {
      showError(slot, text);
      if (error instanceof ApiError && blamesAnimation(error.field)) {
        showError(slotFor(animationKind), text);
      }
    }
    say(`${what}: ${text}`, "error");
    return false;
  }
  if (generation === state.generation) {
    if (!quiet()) {
      const revision = typeof result.body?.revision === "number" ? `, revision ${result.body.revision}` : "";
      say(`${what}: done${revision}.`, "ok");
    }
    state.historyDue = true; // the write left its points: the charts show them after the board's GET
    refresh();
  }
  return true;
}

// A number from an input, or a FieldError naming it.
function numberFrom(input) {
  if (!input.checkValidity() || !Number.isFinite(input.valueAsNumber)) {
    throw new FieldError(input, `${input.closest("label")?.firstChild?.textContent.trim() ?? "Value"}: ${input.validationMessage || "enter a number"}`);
  }
  return input.valueAsNumber;
}

const showPercent = (value) => (value === null ? "no data" : percent.format(value));
const hex6 = (colour) => (/^#[0-9a-f]{6}/i.test(colour) ? colour.slice(0, 7).toLowerCase() : "#000000");
const titleOf = (id) => state.rings.find((ring) => ring.id === id)?.title ?? id;

// --- animation --------------------------------------------------------------------------------

const animation = animationChooser($("animation-panel"));
// A new choice makes the last complaint about the old one moot.
$("animation-panel").addEventListener("change", () => clearError(slotFor(animationKind)));

// --- boards -----------------------------------------------------------------------------------

// The board of ?board=, else the server's default board (the one its dashboard at `/` shows).
async function loadBoards() {
  const asked = new URLSearchParams(window.location.search).get("board");
  let names = [];
  let fallback = "main";
  try {
    const { body } = await api.listBoards();
    names = (body?.boards ?? []).map((board) => String(board.name));
    fallback = typeof body?.defaultBoard === "string" ? body.defaultBoard : (names[0] ?? fallback);
  } catch (error) {
    showError(boardError, `Cannot list the boards: ${describe(error)}`);
  }
  const wanted = asked || fallback;
  if (!names.includes(wanted)) {
    names.unshift(wanted); // asked for by the address: let the server say whether it exists
  }
  boardSelect.replaceChildren(...names.map((name) => new Option(name, name)));
  boardSelect.value = wanted;
  chooseBoard(wanted);
}

function chooseBoard(name) {
  state.board = name;
  state.generation += 1;
  state.rings = [];
  state.loaded = false;
  state.shape = "";
  state.historyDue = false;
  sliders.clear();
  historySpans.clear(); // another board's rings: each chart starts at 1 h again
  ringsBox.replaceChildren();
  for (const slot of document.querySelectorAll(".error")) {
    clearError(slot);
  }
  const page = new URL(window.location.href);
  page.searchParams.set("board", name);
  history.replaceState(null, "", page);
  const dashboard = new URL("./", window.location.href);
  dashboard.searchParams.set("board", name);
  dashboardLink.href = dashboard.href;
  boardsLink.href = new URL("boards", window.location.href).href;
  document.title = `RingCast control · ${name}`;
  refresh();
}

boardSelect.addEventListener("change", () => chooseBoard(boardSelect.value));

// --- reading the board back -------------------------------------------------------------------

let refreshing = null; // the running refresh, if any
let refreshAgain = false; // asked for while one was running: run once more after it
let pollTimer = 0;

// Reads the board and shows it. Calls made while one runs fold into a single one after it.
function refresh() {
  if (refreshing !== null) {
    refreshAgain = true;
    return;
  }
  clearTimeout(pollTimer);
  pollTimer = 0;
  refreshing = (async () => {
    do {
      refreshAgain = false;
      await readBoard();
    } while (refreshAgain);
  })().finally(() => {
    refreshing = null;
  });
}

async function readBoard() {
  const { board, generation } = state;
  try {
    const { body } = await api.getBoard(board);
    if (generation !== state.generation) {
      return;
    }
    clearError(boardError);
    setControlsLive(true);
    show(body);
    if (!state.loaded) {
      state.loaded = true;
      say(`Controlling board “${board}”. Changes show on its dashboard.`);
    }
    poll(body.rings);
  } catch (error) {
    if (generation !== state.generation) {
      return;
    }
    if (error instanceof ApiError && error.status === 404) {
      // Nothing here can act on a board that is not there: the controls go off until it exists.
      setControlsLive(false);
      state.loaded = false;
      const text = `There is no board “${board}” on this server, so its controls are off. Choose another board above, or create this one: the controls come back once it exists.`;
      showError(boardError, text);
      say(`No board “${board}” [HTTP 404].`, "error");
      if (!document.hidden && pollTimer === 0) {
        pollTimer = setTimeout(() => {
          pollTimer = 0;
          refresh();
        }, SLOW_POLL_MS);
      }
      return;
    }
    const text = `Board “${board}”: ${describe(error)}`;
    showError(boardError, text);
    say(text, "error");
  }
}

// Every panel but Access (a token may still be needed) takes no input while the board does not
// exist: inert (no click, no focus, out of the accessibility tree) and dimmed (control.css).
function setControlsLive(live) {
  const panels = document.querySelector("main.panels");
  if (panels.hasAttribute("data-unavailable") !== live) {
    return;
  }
  panels.toggleAttribute("data-unavailable", !live);
  for (const panel of panels.querySelectorAll(".panel:not(#access-panel)")) {
    panel.inert = !live;
  }
}

// While something moves, look again soon so the page ends on the settled values.
function poll(rings) {
  const moving = rings.filter((ring) => ring.animating);
  if (moving.length === 0 || document.hidden || pollTimer !== 0) {
    return;
  }
  const delay = moving.every((ring) => ring.kind === "countdown") ? SLOW_POLL_MS : POLL_MS;
  pollTimer = setTimeout(() => {
    pollTimer = 0;
    refresh();
  }, delay);
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && state.board !== null) {
    state.historyDue = true;
    refresh(); // someone else may have pushed meanwhile
  }
});

function show(board) {
  state.rings = Array.isArray(board.rings) ? board.rings : [];
  const shape = state.rings.map((ring) => `${ring.id} ${ring.kind} ${partsOf(ring).join(",")} ${ring.colors?.length}`).join("\n");
  const fresh = shape !== state.shape;
  if (fresh) {
    state.shape = shape;
    buildCards(state.rings);
    fillGroupChoices(state.rings);
    if (typeof board.background === "string") {
      $("background-color").value = hex6(board.background);
    }
  }
  for (const ring of state.rings) {
    updateCard(ring, fresh);
  }
  showCountdown(state.rings.find((ring) => ring.kind === "countdown") ?? null);
  if (fresh || state.historyDue) {
    state.historyDue = false;
    loadHistories();
  }
}

function showCountdown(ring) {
  const panel = $("countdown-panel");
  panel.hidden = ring === null;
  if (ring !== null) {
    countdownState.textContent = ring.animating ? `${ring.title}: running.` : `${ring.title}: not running.`;
  }
}

// --- cards ------------------------------------------------------------------------------------

// The parts of a card (data-part in control.html) each kind of entry takes: what the API lets a
// PATCH set for it (README, "The API in brief"). A plain ring that shows a value out of its
// maximum (a fraction or value label) takes value and max instead of a progress.
const PARTS = {
  plain: ["slider", "steps", "progress", "colours", "label", "title", "status"],
  derived: ["colours", "label", "title", "status"],
  countdown: ["colours", "title"],
  counter: ["counter", "title"],
  text: ["text", "title"],
  indicator: ["slider", "steps", "colours", "title"],
  gradient: ["colours", "title"],
};

const countsValues = (ring) => ring.label === "fraction" || ring.label === "value";

function partsOf(ring) {
  const parts = PARTS[ring.kind] ?? ["title"]; // a kind this page does not know: still renamed and deleted
  return ring.kind === "plain" && countsValues(ring) ? parts.map((part) => (part === "progress" ? "value" : part)) : parts;
}

function buildCards(rings) {
  sliders.clear();
  const template = $("card-template").content.firstElementChild;
  const sliderTemplate = $("slider-template").content.firstElementChild;
  ringsBox.replaceChildren(
    ...rings.map((ring, index) => {
      const card = template.cloneNode(true);
      const parts = partsOf(ring);
      card.dataset.ring = ring.id;
      card.dataset.kind = ring.kind;
      for (const part of card.querySelectorAll("[data-part]")) {
        if (!parts.includes(part.dataset.part)) {
          part.remove();
        }
      }
      if (!HISTORY_KINDS.has(ring.kind)) {
        card.querySelector(".card-history").remove();
      }
      card.querySelector(".card-slider")?.append(sliderRow(sliderTemplate, ring));
      card.querySelector(".card-swatches")?.replaceChildren(
        ...(Array.isArray(ring.colors) ? ring.colors : []).map((_, i, all) => {
          const label = document.createElement("label");
          label.className = "field";
          const input = document.createElement("input");
          input.type = "color";
          input.className = "card-colour";
          const name = all.length === 2 ? ["Start colour", "End colour"][i] : `Colour ${i + 1}`;
          label.append(name, input);
          return label;
        }),
      );
      const error = card.querySelector(":scope > .error");
      error.id = `card-${index}-error`;
      for (const control of card.querySelectorAll("button, input, select")) {
        control.setAttribute("aria-describedby", error.id);
      }
      setUpHistory(card, ring, index);
      return card;
    }),
  );
}

// What the server says the entry shows; inputs take the server's values when the card is new, so
// that what the user is typing is not overwritten by a poll.
function updateCard(ring, fresh) {
  const card = cardOf(ring.id);
  if (card === null) {
    return;
  }
  card.querySelector(".ring-title").textContent = ring.title;
  // The id is what curl and scripts use; shown unless it is just the title ("Move" → "move").
  const plainTitle = ring.title.toLowerCase().replace(/\s+/g, "");
  const id = ring.id === plainTitle ? "" : ring.id;
  card.querySelector(".ring-id").textContent = [id, ring.kind === "plain" ? "" : ring.kind].filter(Boolean).join(" · ");
  card.querySelector(".ring-now").textContent = nowText(ring);
  updateSlider(ring);
  if (!fresh) {
    showStatusChoice(card, ring);
    return;
  }
  const fill = (selector, value) => {
    const input = card.querySelector(selector);
    if (input !== null) {
      input.value = value;
    }
  };
  fill(".card-progress-input", ring.target === null ? "" : String(ring.target));
  fill(".card-max-input", String(ring.max)); // the value is the user's to type: the page computes none
  fill(".card-number-input", String(ring.target ?? ring.progress ?? ""));
  fill(".card-text-input", ring.text);
  fill(".card-title-input", ring.title);
  showStatusChoice(card, ring);
  const format = typeof ring.label === "object" && ring.label !== null ? "text" : String(ring.label);
  fill(".card-label-format", format);
  fill(".card-label-text", format === "text" ? ring.label.text : "");
  const labelText = card.querySelector(".card-label-text");
  if (labelText !== null) {
    labelText.disabled = format !== "text";
  }
  card.querySelectorAll(".card-colour").forEach((input, i) => {
    input.value = hex6(ring.colors[i] ?? "");
  });
}

// The Status menu shows the status the ring has ("none" without one), unless the user has picked
// another that is not sent yet: a poll must not undo a choice before "Set status".
function showStatusChoice(card, ring) {
  const select = card.querySelector(".card-status-select");
  if (select !== null && select.dataset.picked === undefined) {
    select.value = typeof ring.status === "string" ? ring.status : "";
  }
}

function nowText(ring) {
  const moving = ring.animating ? " · moving" : "";
  switch (ring.kind) {
    case "counter":
    case "text":
      return `Shows “${ring.text}”${moving}`;
    case "gradient":
      return `Shows ${ring.colors.map(hex6).join(" → ")}${moving}`;
    case "countdown":
      return ring.animating ? `Running, shows “${ring.text}”` : "Not running";
    default: {
      let text = `Target ${showPercent(ring.target)}, shows “${ring.text}”`;
      if (ring.animating) {
        text += ` · moving, now ${showPercent(ring.progress)}`;
      }
      return text;
    }
  }
}

const cardOf = (id) => ringsBox.querySelector(`fieldset.ring[data-ring="${CSS.escape(id)}"]`);

// One ring's entry in a PATCH, with the page's animation.
function pushEntry(control, id, what, entry, animated = true) {
  return act(control, `${titleOf(id)} ${what}`, () =>
    api.patchBoard(
      state.board,
      animated ? { rings: { [id]: entry() }, animation: animation.value() } : { rings: { [id]: entry() } },
    ),
  );
}

// A number from an optional input: undefined when it is empty.
function optionalNumber(input) {
  return input.value.trim() === "" ? undefined : numberFrom(input);
}

ringsBox.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  const card = button?.closest("fieldset.ring");
  if (!button || !card || button.type === "submit") {
    return;
  }
  const id = card.dataset.ring;
  if (button.dataset.progress !== undefined) {
    const progress = Number(button.dataset.progress);
    act(button, `${titleOf(id)} → ${showPercent(progress)}`, () =>
      api.putRing(state.board, id, { progress, animation: animation.value() }),
    );
  } else if (button.classList.contains("card-wave")) {
    pushEntry(button, id, "wave", () => ({ wave: true }));
  } else if (button.classList.contains("card-delete")) {
    deleteRing(button, id);
  }
});

ringsBox.addEventListener("change", (event) => {
  if (event.target.classList.contains("card-status-select")) {
    event.target.dataset.picked = "";
  } else if (event.target.classList.contains("card-label-format")) {
    const text = event.target.closest("form").querySelector(".card-label-text");
    text.disabled = event.target.value !== "text";
  } else if (event.target.classList.contains("history-span")) {
    const card = event.target.closest("fieldset.ring");
    historySpans.set(card.dataset.ring, event.target.value);
    loadHistory(card);
  }
});

ringsBox.addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  const id = form.closest("fieldset.ring").dataset.ring;
  const button = form.querySelector("button[type=submit]");
  const input = (selector) => form.querySelector(selector);
  switch (form.dataset.part) {
    case "progress":
      act(button, `${titleOf(id)} → ${input(".card-progress-input").value || "?"}`, () =>
        api.putRing(state.board, id, { progress: numberFrom(input(".card-progress-input")), animation: animation.value() }),
      );
      break;
    case "value":
      pushEntry(button, id, `→ ${input(".card-value-input").value || "?"}/${input(".card-max-input").value || "?"}`, () => {
        const entry = { value: optionalNumber(input(".card-value-input")), max: optionalNumber(input(".card-max-input")) };
        if (entry.value === undefined && entry.max === undefined) {
          throw new FieldError(input(".card-value-input"), "Value: enter a value, a maximum or both");
        }
        return entry;
      });
      break;
    case "counter":
      pushEntry(button, id, `→ ${input(".card-number-input").value || "?"}`, () => ({
        value: numberFrom(input(".card-number-input")),
      }));
      break;
    case "text":
      pushEntry(button, id, `→ “${input(".card-text-input").value}”`, () => ({ text: input(".card-text-input").value }));
      break;
    case "colours": {
      const colors = [...form.querySelectorAll(".card-colour")].map((colour) => colour.value);
      pushEntry(button, id, `colours → ${colors.join(", ")}`, () => ({ colors }));
      break;
    }
    case "label": {
      const format = input(".card-label-format").value;
      const label = format === "text" ? { text: input(".card-label-text").value } : format;
      pushEntry(button, id, `label → ${format === "text" ? `“${label.text}”` : format}`, () => ({ label }), false);
      break;
    }
    case "title": {
      const title = input(".card-title-input").value;
      pushEntry(button, id, `title → “${title}”`, () => ({ title }), false);
      break;
    }
    case "status": {
      // "none" clears it: null, which the API takes as "back to the ring's definition".
      const select = input(".card-status-select");
      const status = select.value === "" ? null : select.value;
      pushEntry(button, id, `status → ${status ?? "none"}`, () => ({ status })).then((ok) => {
        if (ok) {
          delete select.dataset.picked; // sent: the menu follows the server again
        }
      });
      break;
    }
  }
});

// Delete asks to be pressed again (a board's ring is not got back), then DELETE …/rings/{ring}.
function deleteRing(button, id) {
  if (button.dataset.armed === undefined) {
    button.dataset.armed = "";
    button.textContent = `Delete ${titleOf(id)}? Press again`;
    setTimeout(() => {
      delete button.dataset.armed;
      button.textContent = "Delete";
    }, DELETE_ARMED_MS);
    return;
  }
  act(button, `Delete ${titleOf(id)}`, () => api.deleteRing(state.board, id), { animated: false });
}

// One PATCH for every plain ring: they all start in the same frame.
for (const button of document.querySelectorAll("[data-all]")) {
  button.addEventListener("click", () => {
    const progress = Number(button.dataset.all);
    const ids = state.rings.filter((ring) => ring.kind === "plain").map((ring) => ring.id);
    act(button, `All rings → ${showPercent(progress)}`, () =>
      api.patchBoard(state.board, {
        rings: Object.fromEntries(ids.map((id) => [id, progress])),
        animation: animation.value(),
      }),
    );
  });
}

// --- adding -----------------------------------------------------------------------------------

const addKind = $("add-kind");
const addSources = $("add-sources");
const addGroup = $("add-group");

addKind.addEventListener("change", () => {
  addSources.disabled = addKind.value !== "derived";
});

// The rings a new ring may join the concentric group of (widgets join none; the server says the rest).
function fillGroupChoices(rings) {
  const chosen = addGroup.value;
  const hosts = rings.filter((ring) => ["plain", "derived", "countdown"].includes(ring.kind));
  addGroup.replaceChildren(new Option("no group", ""), ...hosts.map((ring) => new Option(ring.title, ring.id)));
  addGroup.value = hosts.some((ring) => ring.id === chosen) ? chosen : "";
}

$("add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const button = event.target.querySelector("button[type=submit]");
  const id = $("add-id").value.trim();
  const title = $("add-title").value.trim();
  const body = { id, kind: addKind.value };
  if (title !== "") {
    body.title = title;
  }
  if (addKind.value === "derived") {
    body.sources = addSources.value.split(",").map((source) => source.trim()).filter(Boolean);
  }
  if (addGroup.value !== "") {
    body.group = addGroup.value;
  }
  act(button, `Add ${id || "?"}`, () => api.addRing(state.board, body), { animated: false }).then((ok) => {
    if (ok) {
      $("add-id").value = "";
      $("add-title").value = "";
    }
  });
});

// --- sliders ----------------------------------------------------------------------------------

const sliders = new Map(); // ring id → { input, output, sender, lastPushed, dragging }

// A 0–100 % slider pushing one ring's progress, paced while dragged (plain rings and indicators).
function sliderRow(template, ring) {
  const row = template.cloneNode(true);
  const input = row.querySelector("input");
  const output = row.querySelector("output");
  row.querySelector(".slider-title").textContent = "Progress";
  const slider = { input, output, lastPushed: null, dragging: false, sender: null };
  slider.sender = pacer((percentValue) => sendSlider(ring.id, slider, percentValue), SLIDER_GAP_MS);
  // "change" repeats the value of the last "input" event: that one is on its way already.
  const send = () => {
    const value = input.valueAsNumber;
    if (value !== slider.lastPushed) {
      slider.lastPushed = value;
      slider.sender.push(value);
    }
  };
  input.addEventListener("input", () => {
    showSliderValue(slider, percent.format(input.valueAsNumber / 100));
    send(); // paced: at most one request per SLIDER_GAP_MS while dragging
  });
  input.addEventListener("change", send); // the value the user let go at
  input.addEventListener("pointerdown", () => {
    slider.dragging = true;
  });
  sliders.set(ring.id, slider);
  return row;
}

// A drag may end outside the slider; the page hears it either way.
for (const type of ["pointerup", "pointercancel"]) {
  window.addEventListener(type, () => {
    for (const slider of sliders.values()) {
      slider.dragging = false;
    }
  });
}

async function sendSlider(id, slider, percentValue) {
  const ok = await act(
    slider.input,
    `${titleOf(id)} → ${percent.format(percentValue / 100)}`,
    () => api.putRing(state.board, id, { progress: percentValue / 100, animation: animation.value() }),
    { quiet: () => slider.sender.waiting },
  );
  if (!ok && slider.lastPushed === percentValue) {
    slider.lastPushed = null; // let the same value be tried again
  }
}

// The server's target, unless the user is moving the slider or a value of theirs is on its way.
function updateSlider(ring) {
  const slider = sliders.get(ring.id);
  if (slider === undefined || slider.dragging || slider.sender.busy) {
    return;
  }
  if (ring.target !== null) {
    slider.input.value = String(Math.round(Math.min(1, Math.max(0, ring.target)) * 100));
  }
  slider.lastPushed = null; // the server's value from now on; any move of the user's is news
  showSliderValue(slider, showPercent(ring.target));
}

// Beside the slider, and for screen readers as the slider's value ("30%", not "30").
function showSliderValue(slider, text) {
  slider.output.textContent = text;
  slider.input.setAttribute("aria-valuetext", text);
}

// --- history ----------------------------------------------------------------------------------

// The kinds whose history the server keeps (docs/HISTORY.md); the others' history answers 404, so
// their cards have no chart.
const HISTORY_KINDS = new Set(["plain", "derived", "counter", "indicator"]);

const historySpans = new Map(); // ring id → the span chosen on its card ("1h", "24h", "7d"), kept across rebuilds
const historyAsks = new WeakMap(); // card → the number of its newest history request: older answers are dropped

// GET …/rings/{ring}/history?since=…&points=…, with the token as api.js sends it (the board's GET
// needs the same): the answer's body, or an ApiError in api.js's shape.
async function readHistory(board, ring, since) {
  const headers = { Accept: "application/json" };
  const bearer = tokenInput.value.trim();
  if (bearer !== "") {
    headers.Authorization = `Bearer ${bearer}`;
  }
  const query = new URLSearchParams({ since, points: String(HISTORY_POINTS) });
  const path = `api/v1/boards/${encodeURIComponent(board)}/rings/${encodeURIComponent(ring)}/history?${query}`;
  let response;
  try {
    response = await fetch(path, { headers, cache: "no-store" });
  } catch {
    throw new ApiError(0, "unreachable", "cannot reach the server");
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON (a proxy's error page): said below
  }
  if (response.ok && body !== null && typeof body === "object") {
    return body;
  }
  const error = body?.error;
  throw new ApiError(
    response.status,
    typeof error?.code === "string" ? error.code : "http_error",
    typeof error?.message === "string" ? error.message : `the server answered ${response.status} ${response.statusText}`.trim(),
    typeof error?.field === "string" ? error.field : null,
  );
}

// A new card's chart: the span chosen for that ring before (1 h at first), and its own error line.
function setUpHistory(card, ring, index) {
  const box = card.querySelector(".card-history");
  if (box === null) {
    return;
  }
  const select = box.querySelector(".history-span");
  select.value = historySpans.get(ring.id) ?? "1h";
  const error = box.querySelector(".history-error");
  error.id = `card-${index}-history-error`;
  select.setAttribute("aria-describedby", error.id);
}

let historiesLoading = null; // the running read of every chart, if any
let historiesAgain = false; // asked for while one ran: once more after it

// Reads every chart's history again. Calls made while a read runs fold into one after it, so a
// dragged slider does not stack up requests.
function loadHistories() {
  if (historiesLoading !== null) {
    historiesAgain = true;
    return;
  }
  historiesLoading = (async () => {
    do {
      historiesAgain = false;
      await Promise.all([...ringsBox.querySelectorAll("fieldset.ring")].map(loadHistory));
    } while (historiesAgain);
  })().finally(() => {
    historiesLoading = null;
  });
}

// Reads one card's history for the span chosen on it and draws it; a failed read shows the
// server's words on the chart's error line and leaves the last chart as it was.
async function loadHistory(card) {
  const box = card.querySelector(".card-history");
  if (box === null) {
    return;
  }
  const id = card.dataset.ring;
  const span = box.querySelector(".history-span").value;
  const { board, generation } = state;
  const ask = (historyAsks.get(card) ?? 0) + 1;
  historyAsks.set(card, ask);
  const current = () => generation === state.generation && historyAsks.get(card) === ask && card.isConnected;
  const errorLine = box.querySelector(".history-error");
  box.setAttribute("aria-busy", "true");
  try {
    const answer = await readHistory(board, id, span);
    if (current()) {
      clearError(errorLine);
      drawHistory(box, titleOf(id), answer, span);
    }
  } catch (error) {
    if (current()) {
      showError(errorLine, `History: ${describe(error)}`);
    }
  } finally {
    if (current()) {
      box.removeAttribute("aria-busy");
    }
  }
}

// The answer as a step line (each target held until the next), the newest point in words, and the
// whole in one sentence for a screen reader; "no history yet" without points.
function drawHistory(box, title, answer, span) {
  const chart = historyChart(answer, { width: CHART_WIDTH, height: CHART_HEIGHT, span });
  const plot = box.querySelector(".history-plot");
  const svg = box.querySelector(".history-chart");
  const empty = box.querySelector(".history-empty");
  const newest = box.querySelector(".history-newest");
  box.dataset.points = String(chart.points.length);
  if (chart.points.length === 0) {
    plot.hidden = true;
    empty.hidden = false;
    svg.querySelector(".history-line").setAttribute("points", "");
    svg.setAttribute("aria-label", describeHistory(title, chart, span));
    newest.replaceChildren();
    return;
  }
  svg.querySelector(".history-line").setAttribute("points", chart.line);
  svg.setAttribute("aria-label", describeHistory(title, chart, span));
  plot.hidden = false;
  empty.hidden = true;
  const point = newestPoint(chart);
  const time = document.createElement("time");
  time.dateTime = point.iso;
  time.textContent = point.time;
  newest.replaceChildren(`Newest ${point.value}${point.status === null ? "" : ` (${point.status})`} · `, time);
}

// Every 30 s while the page is shown: someone else may have pushed (a hidden page reads them again
// when it is shown: visibilitychange above).
setInterval(() => {
  if (!document.hidden && state.loaded) {
    loadHistories();
  }
}, HISTORY_POLL_MS);

// --- background -------------------------------------------------------------------------------

const transition = $("transition");
const transitionAngle = $("transition-angle");
transition.addEventListener("change", () => {
  transitionAngle.disabled = transition.value !== "angle";
});

$("background-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const color = $("background-color").value;
  const button = event.target.querySelector("button[type=submit]");
  act(
    button,
    `Background → ${color}`,
    () =>
      api.putBackground(state.board, {
        color,
        transition: transition.value === "angle" ? { angle: numberFrom(transitionAngle) } : transition.value,
        duration: numberFrom($("transition-duration")),
      }),
    { animated: false },
  );
});

// --- countdown --------------------------------------------------------------------------------

const countdownSeconds = $("countdown-seconds");

$("countdown-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const button = event.target.querySelector("button[type=submit]");
  act(
    button,
    `Countdown ${countdownSeconds.value || "?"} s`,
    () => api.startCountdown(state.board, numberFrom(countdownSeconds)),
    { animated: false },
  );
});

$("countdown-cancel").addEventListener("click", (event) => {
  act(event.currentTarget, "Cancel countdown", () => api.cancelCountdown(state.board), { animated: false });
});

// --- start ------------------------------------------------------------------------------------

loadBoards();
