// The index at /boards: GET api/v1/boards, one link per board to its dashboard (with the page's read
// token passed on), and GET api/v1/playlists, one link per playlist; or, for either list, the
// server's reason in one line when it will not give it.

import { ApiError, createApi } from "./api.js";
import { boardEntries, playlistEntries, showBoardIndex, showPlaylists } from "./boards.js";

const list = document.getElementById("board-list");
const error = document.getElementById("board-error");
const playlistList = document.getElementById("playlist-list");
const playlistError = document.getElementById("playlist-error");
const playlistEmpty = document.getElementById("playlist-empty");
const token = new URLSearchParams(window.location.search).get("token");
const api = createApi(() => token ?? "");

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

// Why a list could not be read, in one line.
function cannot(what, problem) {
  const message = problem instanceof ApiError ? `${problem.message} [HTTP ${problem.status}]` : String(problem);
  const hint = problem instanceof ApiError && problem.status === 401 ? " Open this page with ?token= and the read token." : "";
  return `Cannot list the ${what}: ${message}.${hint}`;
}

async function loadBoards() {
  try {
    const { body } = await api.listBoards();
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
    error.textContent = cannot("boards", problem);
    error.hidden = false;
  } finally {
    list.removeAttribute("aria-busy");
  }
}

async function loadPlaylists() {
  try {
    const { body } = await api.listPlaylists();
    const entries = playlistEntries(body);
    showPlaylists(playlistList, entries, (name) => pageAt("./", { playlist: name }));
    playlistEmpty.hidden = entries.length > 0;
  } catch (problem) {
    playlistError.textContent = cannot("playlists", problem);
    playlistError.hidden = false;
  } finally {
    playlistList.removeAttribute("aria-busy");
  }
}

document.getElementById("home-link").href = pageAt("./");
await Promise.all([loadBoards(), loadPlaylists()]);
document.body.dataset.state = "ready";
