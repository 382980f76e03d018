"""Playlists on wall screens: /?playlist=NAME shows whichever board the server streams, every window
switches to the next board on the same tick, and an unknown playlist is said so on screen."""

from __future__ import annotations

from test_problems import wait_problem


def switches(dashboard) -> list[tuple[str, int]]:
    """(board, seq) of the first frame after each layout the tab received but its greeting's: the
    ticks on which the server switched it to another board."""
    found: list[tuple[str, int]] = []
    layouts = 0
    pending = None
    for message in dashboard.messages():
        if message.get("type") == "layout":
            layouts += 1
            pending = message["board"] if layouts > 1 else None
        elif message.get("type") == "frame" and pending is not None:
            found.append((pending, message["seq"]))
            pending = None
    return found


def test_two_windows_of_a_playlist_switch_board_on_the_same_seq(server, open_page):
    status, answer = server.request("PUT", "/api/v1/boards/ci", {"template": "single", "background": "#4533c9", "title": "CI"})
    assert status == 201, answer
    status, answer = server.request("PUT", "/api/v1/playlists/wall", {"boards": ["main", "ci"], "seconds": 2})
    assert status == 201, answer

    windows = [open_page().open(server, "?playlist=wall") for _ in range(2)]
    # Every switch after both windows were live reaches both.
    since = max(window.seq() for window in windows)
    for window in windows:
        window.page.wait_for(
            f"document.body.dataset.board === 'ci' && Number(document.body.dataset.seq) > {since}", 15,
            "the switch to ci")
    firsts = []
    for window in windows:
        later = [switch for switch in switches(window) if switch[1] > since]
        assert later, f"the tab saw no switch after seq {since}: {switches(window)}"
        firsts.append(later[0])
    assert firsts[0] == firsts[1], f"both windows' first frame of the next board: {firsts}"
    assert firsts[0][1] % 60 == 0, "switches fall on whole seconds of the tick grid"

    # The header names the board shown.
    windows[0].page.wait_for("document.getElementById('board-name').textContent === 'CI'", 5, "the header to say CI")
    assert windows[0].page.evaluate("document.body.dataset.playlist") == "wall"
    for window in windows:
        assert window.page.problems() == []


def test_an_unknown_playlist_is_named_on_screen(server, open_page):
    dashboard = open_page()
    dashboard.page.goto(f"{server.url}/?playlist=nope")
    shown = wait_problem(dashboard, "not_found")
    assert shown["title"] == "There is no playlist named “nope”", shown
    dashboard.page.wait_for("document.body.dataset.state === 'refused'", 5, "the refused state")
