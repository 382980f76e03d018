// The board index: what the page at `/` shows, without ?board=, when the server has more than one
// board. boardEntries() reads GET api/v1/boards; showBoardIndex() puts the links on the page.

// [{name, title, rings}] from the body of GET api/v1/boards: `rings` is the number of rings,
// whether the server lists them as ids (["move", …]) or as objects ([{id, title, kind}, …]);
// `title` falls back to the name. Entries without a name are left out.
export function boardEntries(body) {
  const boards = Array.isArray(body?.boards) ? body.boards : [];
  return boards
    .filter((board) => typeof board?.name === "string" && board.name !== "")
    .map((board) => ({
      name: board.name,
      title: typeof board.title === "string" && board.title !== "" ? board.title : board.name,
      rings: Array.isArray(board.rings) ? board.rings.length : 0,
    }));
}

// Fills `list` (a <ul>) with one link per board: the board's title, its ring count, and
// href(name) as the target. Server text goes in with textContent.
export function showBoardIndex(list, entries, href) {
  list.replaceChildren(
    ...entries.map((entry) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = href(entry.name);
      link.dataset.board = entry.name;
      const title = document.createElement("span");
      title.className = "board-title";
      title.textContent = entry.title;
      const count = document.createElement("span");
      count.className = "board-rings";
      count.textContent = entry.rings === 1 ? "1 ring" : `${entry.rings} rings`;
      link.append(title, count);
      item.append(link);
      return item;
    }),
  );
}
