// The index of boards at /boards: GET api/v1/boards, one link per board to its dashboard (with the
// page's read token passed on), or the server's reason in one line when it will not list them.

import { ApiError, createApi } from "./api.js";
import { boardEntries, showBoardIndex } from "./boards.js";

const list = document.getElementById("board-list");
const error = document.getElementById("board-error");
const token = new URLSearchParams(window.location.search).get("token");

// A page next to this one with `query`, and this page's read token (not for the control page,
// which takes a write token typed in on it).
function pageAt(path, query = {}, withToken = true) {
  const url = new URL(path, window.location.href);
  for (const [name, value] of Object.entries(query)) {
    url.searchParams.set(name, value);
  }
  if (withToken && token !== null) {
    url.searchParams.set("token", token);
  }
  return url.href;
}

document.getElementById("home-link").href = pageAt("./");

try {
  const { body } = await createApi(() => token ?? "").listBoards();
  const entries = boardEntries(body);
  showBoardIndex(
    list,
    entries,
    (name) => pageAt("./", { board: name }),
    (name) => pageAt("control.html", { board: name }, false),
  );
  if (entries.length === 0) {
    error.textContent = "This server has no boards.";
    error.hidden = false;
  }
} catch (problem) {
  const message = problem instanceof ApiError ? `${problem.message} [HTTP ${problem.status}]` : String(problem);
  const hint = problem instanceof ApiError && problem.status === 401 ? " Open this page with ?token= and the read token." : "";
  error.textContent = `Cannot list the boards: ${message}.${hint}`;
  error.hidden = false;
} finally {
  list.removeAttribute("aria-busy");
  document.body.dataset.state = "ready";
}
