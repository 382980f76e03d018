// The index of boards (boards.html, at /boards): boardEntries() reads GET api/v1/boards and
// playlistEntries() GET api/v1/playlists; showBoardIndex() and showPlaylists() put the links on the
// page. The dashboard at `/` always shows the server's default board; this page is where the others
// and the playlists are found.

// [{name, title, rings, isDefault}] from the body of GET api/v1/boards: `rings` is the number of
// rings, whether the server lists them as ids (["move", …]) or as objects ([{id, title, kind}, …]);
// `title` falls back to the name; `isDefault` marks the board `/` shows (the body's defaultBoard).
// Entries without a name are left out.
export function boardEntries(body) {
  const boards = Array.isArray(body?.boards) ? body.boards : [];
  const defaultBoard = typeof body?.defaultBoard === "string" ? body.defaultBoard : null;
  return boards
    .filter((board) => typeof board?.name === "string" && board.name !== "")
    .map((board) => ({
      name: board.name,
      title: typeof board.title === "string" && board.title !== "" ? board.title : board.name,
      rings: Array.isArray(board.rings) ? board.rings.length : 0,
      isDefault: board.name === defaultBoard,
    }));
}

// [{name, boards, seconds, current}] from the body of GET api/v1/playlists (docs/openapi.yaml,
// PlaylistList): the boards it shows in turn (names), each for `seconds` (null when the server did
// not say), and the board it shows now (null when none of them is served). Entries without a name
// are left out.
export function playlistEntries(body) {
  const playlists = Array.isArray(body?.playlists) ? body.playlists : [];
  return playlists
    .filter((playlist) => typeof playlist?.name === "string" && playlist.name !== "")
    .map((playlist) => ({
      name: playlist.name,
      boards: Array.isArray(playlist.boards) ? playlist.boards.filter((board) => typeof board === "string") : [],
      seconds: Number.isInteger(playlist.seconds) ? playlist.seconds : null,
      current: typeof playlist.current?.board === "string" ? playlist.current.board : null,
    }));
}

// One line about a playlist: its boards in order, how long each shows, and the one shown now.
export function describePlaylist(entry) {
  const parts = [entry.boards.length === 0 ? "no boards" : entry.boards.join(" → ")];
  if (entry.seconds !== null) {
    parts.push(`${entry.seconds} s each`);
  }
  parts.push(entry.current === null ? "none of its boards is served" : `now ${entry.current}`);
  return parts.join(" · ");
}

// Fills `list` (a <ul>) with one item per board: a link to href(name) with the board's title, its
// name (what ?board= and the API take, shown even when the title fell back to it), its ring count and,
// for the default board, a mark; and a link to control(name). Server text goes in with textContent.
export function showBoardIndex(list, entries, href, control) {
  list.replaceChildren(
    ...entries.map((entry) => {
      const { item, link, head } = entryItem(href(entry.name), "board", entry.name, entry.title);
      if (entry.isDefault) {
        head.append(span("board-default", "shown at /"));
      }
      const name = document.createElement("code");
      name.className = "board-name";
      name.textContent = entry.name;
      const facts = span("board-facts");
      facts.append(name, span("board-rings", entry.rings === 1 ? "1 ring" : `${entry.rings} rings`));
      link.append(head, facts);
      const controls = document.createElement("a");
      controls.className = "control-link";
      controls.href = control(entry.name);
      controls.textContent = "Control";
      controls.setAttribute("aria-label", `Control ${entry.title}`);
      item.append(link, controls);
      return item;
    }),
  );
}

// Fills `list` with one item per playlist: a link to href(name) (the dashboard showing it), with its
// name and describePlaylist's line.
export function showPlaylists(list, entries, href) {
  list.replaceChildren(
    ...entries.map((entry) => {
      const { item, link, head } = entryItem(href(entry.name), "playlist", entry.name, entry.name);
      link.append(head, span("board-facts", describePlaylist(entry)));
      item.append(link);
      return item;
    }),
  );
}

// An index entry: a list item, its link to `url` (data-KIND = name) and the head showing `title`, for the
// caller to fill and append.
function entryItem(url, kind, name, title) {
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.className = "board-link";
  link.href = url;
  link.dataset[kind] = name;
  const head = span("board-head");
  head.append(span("board-title", title));
  return { item, link, head };
}

function span(className, text = null) {
  const element = document.createElement("span");
  element.className = className;
  if (text !== null) {
    element.textContent = text;
  }
  return element;
}
