// The index of boards (boards.html, at /boards): boardEntries() reads GET api/v1/boards;
// showBoardIndex() puts the links on the page. The dashboard at `/` always shows the server's
// default board; this page is where the others are found.

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

// Fills `list` (a <ul>) with one item per board: a link to href(name) with the board's title, its
// ring count and, for the default board, a mark; and a link to control(name). Server text goes in
// with textContent.
export function showBoardIndex(list, entries, href, control) {
  list.replaceChildren(
    ...entries.map((entry) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.className = "board-link";
      link.href = href(entry.name);
      link.dataset.board = entry.name;
      const title = document.createElement("span");
      title.className = "board-title";
      title.textContent = entry.title;
      link.append(title);
      if (entry.isDefault) {
        const mark = document.createElement("span");
        mark.className = "board-default";
        mark.textContent = "shown at /";
        link.append(mark);
      }
      const count = document.createElement("span");
      count.className = "board-rings";
      count.textContent = entry.rings === 1 ? "1 ring" : `${entry.rings} rings`;
      link.append(count);
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
