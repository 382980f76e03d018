// The control page: a remote control for one board. Each control is one REST call (api.js); the
// page shows what the server answers (GET after each push) and never works out a value the server
// owns (the Overall ring's mean, a countdown's seconds). Errors are shown next to the control that
// caused them and, in short, on the status line (aria-live).

import { animationChooser, FieldError } from "./animation.js";
import { ApiError, createApi } from "./api.js";
import { pacer } from "./pace.js";

const TOKEN_KEY = "ringcast.token";
const TASK_IDS = ["task1", "task2", "task3", "task4"]; // the seeds' four task sliders (seed 001)
const SLIDER_GAP_MS = 200; // a dragged slider sends at most 5 requests a second
const POLL_MS = 1000; // while something moves, read the board again to show where it settled
const SLOW_POLL_MS = 5000; // while only a countdown runs

const $ = (id) => document.getElementById(id);
const boardSelect = $("board");
const dashboardLink = $("dashboard-link");
const boardError = $("board-error");
const statusLine = $("status");
const ringsBox = $("rings");
const slidersBox = $("task-sliders");
const tasksPanel = $("tasks-panel");
const overall = $("overall");
const countdownState = $("countdown-state");
const tokenInput = $("token");
const animationKind = $("animation-kind");

const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });

// Everything the page knows about the board it controls.
const state = {
  board: null, // its name
  generation: 0, // bumped when another board is chosen: answers about the old one are dropped
  rings: [], // the rings of the last GET, in the board's order
  loaded: false, // a GET of this board has answered
  shape: "", // the plain ring ids and widgets (id, kind, colours) the cards and sliders were built for
};

const WIDGET_KINDS = ["counter", "text", "indicator", "gradient"];
const widgetsBox = $("widgets");

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

async function loadBoards() {
  const wanted = new URLSearchParams(window.location.search).get("board") || "main";
  let names = [];
  try {
    const { body } = await api.listBoards();
    names = (body?.boards ?? []).map((board) => String(board.name));
  } catch (error) {
    showError(boardError, `Cannot list the boards: ${describe(error)}`);
  }
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
  ringsBox.replaceChildren();
  slidersBox.replaceChildren();
  widgetsBox.replaceChildren();
  for (const slot of document.querySelectorAll(".error")) {
    clearError(slot);
  }
  const page = new URL(window.location.href);
  page.searchParams.set("board", name);
  history.replaceState(null, "", page);
  const dashboard = new URL("./", window.location.href);
  dashboard.searchParams.set("board", name);
  dashboardLink.href = dashboard.href;
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
    show(body);
    if (!state.loaded) {
      state.loaded = true;
      say(`Controlling board “${board}”. Changes show on its dashboard.`);
    }
    poll(body.rings);
  } catch (error) {
    if (generation === state.generation) {
      const text = `Board “${board}”: ${describe(error)}`;
      showError(boardError, text);
      say(text, "error");
    }
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
    refresh(); // someone else may have pushed meanwhile
  }
});

function show(board) {
  state.rings = Array.isArray(board.rings) ? board.rings : [];
  const plain = state.rings.filter((ring) => ring.kind === "plain");
  const widgets = state.rings.filter((ring) => WIDGET_KINDS.includes(ring.kind));
  const shape = [
    ...plain.map((ring) => ring.id),
    ...widgets.map((ring) => `${ring.id} ${ring.kind} ${ring.kind === "gradient" ? ring.colors.length : ""}`),
  ].join("\n");
  const fresh = shape !== state.shape;
  if (fresh) {
    state.shape = shape;
    buildRings(plain);
    buildSliders(plain.filter((ring) => TASK_IDS.includes(ring.id)));
    buildWidgets(widgets);
    if (typeof board.background === "string") {
      $("background-color").value = hex6(board.background);
    }
  }
  for (const ring of plain) {
    updateRing(ring);
    updateSlider(ring);
  }
  for (const ring of widgets) {
    updateWidget(ring, fresh);
  }
  showOverall(state.rings.filter((ring) => ring.kind === "derived"));
  showCountdown(state.rings.find((ring) => ring.kind === "countdown") ?? null);
}

function showOverall(derived) {
  overall.replaceChildren(
    ...derived.map((ring) => {
      const line = document.createElement("span");
      line.className = "overall-line";
      const name = document.createElement("span");
      name.textContent = ring.title;
      const value = document.createElement("strong");
      value.textContent = showPercent(ring.target);
      line.append(name, " ", value);
      if (ring.animating) {
        line.append(` (moving, now ${showPercent(ring.progress)})`);
      }
      return line;
    }),
  );
}

function showCountdown(ring) {
  const panel = $("countdown-panel");
  panel.hidden = ring === null;
  if (ring !== null) {
    countdownState.textContent = ring.animating ? `${ring.title}: running.` : `${ring.title}: not running.`;
  }
}

// --- rings ------------------------------------------------------------------------------------

function buildRings(plain) {
  const template = $("ring-template").content.firstElementChild;
  ringsBox.replaceChildren(
    ...plain.map((ring, index) => {
      const card = template.cloneNode(true);
      card.dataset.ring = ring.id;
      card.querySelector(".ring-title").textContent = ring.title;
      // The id is what curl and scripts use; shown unless it is just the title ("Move" → "move").
      const plainTitle = ring.title.toLowerCase().replace(/\s+/g, "");
      card.querySelector(".ring-id").textContent = ring.id === plainTitle ? "" : ring.id;
      const error = card.querySelector(":scope > .error");
      error.id = `ring-${index}-error`;
      for (const control of card.querySelectorAll("button, input")) {
        control.setAttribute("aria-describedby", error.id);
      }
      card.querySelector(".ring-progress").value = ring.target === null ? "" : String(ring.target);
      const [start, end] = Array.isArray(ring.colors) ? ring.colors : [];
      card.querySelector(".ring-start").value = hex6(start ?? "");
      card.querySelector(".ring-end").value = hex6(end ?? "");
      return card;
    }),
  );
}

function updateRing(ring) {
  const card = ringsBox.querySelector(`[data-ring="${CSS.escape(ring.id)}"]`);
  if (card === null) {
    return;
  }
  let text = `Target ${showPercent(ring.target)}`;
  if (ring.animating) {
    text += ` · moving, now ${showPercent(ring.progress)}`;
  }
  card.querySelector(".ring-now").textContent = text;
}

function pushRing(control, id, progress) {
  return act(control, `${titleOf(id)} → ${showPercent(progress)}`, () =>
    api.putRing(state.board, id, { progress, animation: animation.value() }),
  );
}

ringsBox.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  const card = button?.closest("fieldset.ring");
  if (!button || !card) {
    return;
  }
  const id = card.dataset.ring;
  if (button.dataset.progress !== undefined) {
    pushRing(button, id, Number(button.dataset.progress));
  } else if (button.classList.contains("ring-apply")) {
    const colors = [card.querySelector(".ring-start").value, card.querySelector(".ring-end").value];
    act(button, `${titleOf(id)} colours → ${colors.join(", ")}`, () =>
      api.patchBoard(state.board, { rings: { [id]: { colors } }, animation: animation.value() }),
    );
  }
});

ringsBox.addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  const card = form.closest("fieldset.ring");
  const input = form.querySelector(".ring-progress");
  act(form.querySelector("button"), `${titleOf(card.dataset.ring)} → ${input.value || "?"}`, () =>
    api.putRing(state.board, card.dataset.ring, { progress: numberFrom(input), animation: animation.value() }),
  );
});

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

// --- task sliders -----------------------------------------------------------------------------

const sliders = new Map(); // ring id → { input, output, sender, lastPushed, dragging }

function buildSliders(tasks) {
  sliders.clear();
  tasksPanel.hidden = tasks.length === 0;
  const template = $("slider-template").content.firstElementChild;
  slidersBox.replaceChildren(...tasks.map((ring) => sliderRow(template, ring)));
}

// A 0–100 % slider pushing one ring's progress, paced while dragged (task rings and indicators).
function sliderRow(template, ring) {
  const row = template.cloneNode(true);
  const input = row.querySelector("input");
  const output = row.querySelector("output");
  row.querySelector(".slider-title").textContent = ring.title;
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

// --- widgets ----------------------------------------------------------------------------------

// One card per widget with the control of its kind: a value for a counter, a text and a wave for a
// text, a slider for an indicator (as for task rings), a colour per stop for a gradient card.
function buildWidgets(widgets) {
  $("widgets-panel").hidden = widgets.length === 0;
  const template = $("widget-template").content.firstElementChild;
  const sliderTemplate = $("slider-template").content.firstElementChild;
  widgetsBox.replaceChildren(
    ...widgets.map((ring, index) => {
      const card = template.cloneNode(true);
      card.dataset.ring = ring.id;
      card.dataset.kind = ring.kind;
      card.querySelector(".ring-title").textContent = ring.title;
      card.querySelector(".ring-id").textContent = ring.id === ring.title ? `${ring.kind}` : `${ring.id} · ${ring.kind}`;
      for (const part of card.querySelectorAll("[data-kind]")) {
        if (part.dataset.kind !== ring.kind) {
          part.remove();
        }
      }
      if (ring.kind === "indicator") {
        card.querySelector(".widget-slider").append(sliderRow(sliderTemplate, ring));
      } else if (ring.kind === "gradient") {
        card.querySelector(".widget-swatches").replaceChildren(
          ...ring.colors.map((_, i) => {
            const label = document.createElement("label");
            label.className = "field";
            const input = document.createElement("input");
            input.type = "color";
            input.className = "widget-colour";
            label.append(`Colour ${i + 1}`, input);
            return label;
          }),
        );
      }
      const error = card.querySelector(":scope > .error");
      error.id = `widget-${index}-error`;
      for (const control of card.querySelectorAll("button, input")) {
        control.setAttribute("aria-describedby", error.id);
      }
      return card;
    }),
  );
}

// What the server says the widget shows; inputs take the server's value when the card is new, so
// that what the user is typing is not overwritten by a poll.
function updateWidget(ring, fresh) {
  const card = widgetsBox.querySelector(`[data-ring="${CSS.escape(ring.id)}"]`);
  if (card === null) {
    return;
  }
  const shows = ring.kind === "gradient" ? ring.colors.map(hex6).join(" → ") : `“${ring.text}”`;
  card.querySelector(".ring-now").textContent = `Shows ${shows}${ring.animating ? " · moving" : ""}`;
  if (ring.kind === "indicator") {
    updateSlider(ring);
  } else if (fresh && ring.kind === "counter" && ring.progress !== null) {
    card.querySelector(".widget-number").value = String(ring.target ?? ring.progress);
  } else if (fresh && ring.kind === "text") {
    card.querySelector(".widget-string").value = ring.text;
  } else if (fresh && ring.kind === "gradient") {
    card.querySelectorAll(".widget-colour").forEach((input, i) => {
      input.value = hex6(ring.colors[i] ?? "");
    });
  }
}

function pushWidget(control, id, what, entry) {
  return act(control, `${titleOf(id)} ${what}`, () =>
    api.patchBoard(state.board, { rings: { [id]: entry() }, animation: animation.value() }),
  );
}

widgetsBox.addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  const id = form.closest("fieldset.widget").dataset.ring;
  const button = form.querySelector("button[type=submit]");
  if (form.classList.contains("widget-value")) {
    const input = form.querySelector(".widget-number");
    pushWidget(button, id, `→ ${input.value || "?"}`, () => ({ value: numberFrom(input) }));
  } else {
    const input = form.querySelector(".widget-string");
    pushWidget(button, id, `→ “${input.value}”`, () => ({ text: input.value }));
  }
});

widgetsBox.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  const card = button?.closest("fieldset.widget");
  if (!button || !card) {
    return;
  }
  const id = card.dataset.ring;
  if (button.classList.contains("widget-wave")) {
    pushWidget(button, id, "wave", () => ({ wave: true }));
  } else if (button.classList.contains("widget-apply")) {
    const colors = [...card.querySelectorAll(".widget-colour")].map((input) => input.value);
    pushWidget(button, id, `colours → ${colors.join(", ")}`, () => ({ colors }));
  }
});

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
