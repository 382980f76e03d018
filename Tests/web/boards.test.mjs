// The board index (/boards) reads GET api/v1/boards in its current and its coming shape. Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardEntries } from "../../web/boards.js";

test("rings listed as ids count as rings, and the title falls back to the name", () => {
  const body = { boards: [{ name: "main", width: 1280, height: 720, rings: ["move", "stand"], viewers: 0 }] };
  assert.deepEqual(boardEntries(body), [{ name: "main", title: "main", rings: 2, isDefault: false }]);
});

test("rings listed as objects count the same, with the board's title", () => {
  const body = {
    boards: [
      { name: "ci", title: "CI builds", rings: [{ id: "task1", title: "Build", kind: "plain" }, { id: "task2", title: "Test", kind: "plain" }, { id: "overall", title: "Overall", kind: "derived" }] },
      { name: "lobby", title: "Lobby", rings: [] },
    ],
  };
  assert.deepEqual(boardEntries(body), [
    { name: "ci", title: "CI builds", rings: 3, isDefault: false },
    { name: "lobby", title: "Lobby", rings: 0, isDefault: false },
  ]);
});

test("an answer of another shape lists nothing instead of throwing", () => {
  assert.deepEqual(boardEntries(null), []);
  assert.deepEqual(boardEntries({ boards: "x" }), []);
  assert.deepEqual(boardEntries({ boards: [{ title: "no name" }, 7] }), []);
});

test("the board the server shows at / is marked, whichever place it has in the list", () => {
  const body = { defaultBoard: "main", boards: [{ name: "ci", rings: [] }, { name: "main", rings: ["move"] }] };
  assert.deepEqual(
    boardEntries(body).map((entry) => [entry.name, entry.isDefault]),
    [["ci", false], ["main", true]],
  );
  assert.deepEqual(boardEntries({ boards: [{ name: "main" }] }).map((entry) => entry.isDefault), [false]);
});

test("playlists are read in the shape of GET api/v1/playlists and said in one line", async () => {
  const { playlistEntries, describePlaylist } = await import("../../web/boards.js");
  const body = {
    playlists: [
      { name: "wall", boards: ["main", "ci"], seconds: 30, transition: "circle", anchor: 0, current: { board: "ci", index: 1 }, next: null, viewers: 2 },
      { name: "gone", boards: ["old"], seconds: 5, current: null },
      { boards: ["main"] },
      "x",
    ],
  };
  const entries = playlistEntries(body);
  assert.deepEqual(entries, [
    { name: "wall", boards: ["main", "ci"], seconds: 30, current: "ci" },
    { name: "gone", boards: ["old"], seconds: 5, current: null },
  ]);
  assert.equal(describePlaylist(entries[0]), "main → ci · 30 s each · now ci");
  assert.equal(describePlaylist(entries[1]), "old · 5 s each · none of its boards is served");
  assert.deepEqual(playlistEntries(null), []);
  assert.deepEqual(playlistEntries({ playlists: {} }), []);
});
