"""Boards shaped at runtime (issue 13): the server lays a board out in a landscape and a portrait
arrangement, and the page draws the one that fits its window, choosing again when the window
changes shape. A hand-placed board gets a portrait too, readable on a phone, and `/` always shows
the default board however many there are; the boards are listed at `/boards` (issue 23).

These tests create their board with `PUT /api/v1/boards/ci` (the `tasks` template), so they need
the server's board routes as well as the page."""

from __future__ import annotations

import json
import math
from pathlib import Path

from ringcast import REPOSITORY

TOKEN = "write-secret-13"


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def close_to(pixel, colour, tolerance: float = 12) -> bool:
    return all(abs(p - c) <= tolerance for p, c in zip(pixel[:3], colour))


def on_ring(ring: dict, turn: float) -> tuple[float, float]:
    """The logical point `turn` of a full turn clockwise from 12 o'clock, on the stroke's centre line,
    where the page's arrangement places the ring."""
    angle = -math.pi / 2 + 2 * math.pi * turn
    return ring["cx"] + ring["r"] * math.cos(angle), ring["cy"] + ring["r"] * math.sin(angle)


def server_with_ci_board(start_server, tmp_path: Path):
    """A server whose writes need a token, with the shipped `main` board and a `ci` board made from
    the tasks template (four tasks)."""
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    config["token"] = TOKEN
    path = tmp_path / "ringcast.json"
    path.write_text(json.dumps(config))
    server = start_server(config=path)
    status, answer = server.request("PUT", "/api/v1/boards/ci", {"template": "tasks", "count": 4}, token=TOKEN)
    assert status in (200, 201), f"PUT /api/v1/boards/ci answered {status}: {answer}"
    return server


def assert_drawn_in(dashboard, name: str) -> dict:
    """The page draws arrangement `name`: its data attribute says so, the canvas has that
    arrangement's shape, and every ring's track is drawn where that arrangement places it."""
    dashboard.page.wait_for(
        f"document.body.dataset.arrangement === {json.dumps(name)}", 5, f"the page to draw the {name} arrangement"
    )
    layout = dashboard.layout()
    assert [a["name"] for a in dashboard.layout_message()["arrangements"]] == ["landscape", "portrait"]
    assert layout["arrangement"] == name
    size = dashboard.canvas_size()
    assert abs(size["width"] / size["height"] - layout["width"] / layout["height"]) < 0.01, (size, layout)
    # No ring has data yet: each is its track, all the way round, where this arrangement puts it.
    for ring in layout["rings"]:
        pixels = dashboard.pixels([on_ring(ring, turn) for turn in (0.25, 0.5, 0.75)], layout)
        for pixel in pixels:
            assert close_to(pixel, rgb(ring["track"]), 6), f"{ring['id']} at ({ring['cx']}, {ring['cy']}): {pixel}"
            assert not close_to(pixel, rgb(layout["background"]), 6)
    return layout


def test_a_phone_held_upright_draws_the_portrait_arrangement(start_server, open_page, tmp_path: Path):
    server = server_with_ci_board(start_server, tmp_path)
    dashboard = open_page(390, 844).open(server, "?board=ci")
    layout = assert_drawn_in(dashboard, "portrait")
    assert layout["height"] > layout["width"]
    assert dashboard.page.problems() == []


def test_a_wide_window_draws_the_landscape_arrangement_and_a_resize_picks_again(start_server, open_page, tmp_path: Path):
    server = server_with_ci_board(start_server, tmp_path)
    dashboard = open_page(1280, 720).open(server, "?board=ci")
    layout = assert_drawn_in(dashboard, "landscape")
    assert layout["width"] > layout["height"]

    dashboard.page.resize(390, 844)
    assert_drawn_in(dashboard, "portrait")
    dashboard.page.resize(1280, 720)
    assert_drawn_in(dashboard, "landscape")
    assert dashboard.page.problems() == []


def test_the_hand_placed_default_board_draws_a_portrait_on_a_phone_and_its_landscape_on_a_wide_window(server, open_page):
    dashboard = open_page(390, 844).open(server)
    layout = assert_drawn_in(dashboard, "portrait")
    assert layout["board"] == "main" and layout["height"] > layout["width"]
    dashboard.page.resize(1280, 720)
    layout = assert_drawn_in(dashboard, "landscape")
    assert (layout["width"], layout["height"]) == (1280, 720), "the landscape is the config's own placement"
    assert dashboard.page.problems() == []


# Records each text the page draws on the board's canvas and the CSS pixels its font takes there:
# the font's size times the canvas transform's vertical scale, over the device pixel ratio.
MEASURE_TEXT = """
window.drawnTexts = [];
const fillText = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, x, y, maxWidth) {
  if (this.canvas.id === "rings") {
    const m = this.getTransform();
    const size = Number(/([0-9.]+)px/.exec(this.font)[1]);
    window.drawnTexts.push({ text: String(text), css: (size * Math.hypot(m.c, m.d)) / devicePixelRatio });
  }
  return fillText.apply(this, arguments);
};
"""


def test_on_a_390_by_844_phone_no_text_of_the_default_board_is_under_14_css_pixels(server, open_page):
    dashboard = open_page(390, 844, scale=3)
    dashboard.page.call("Page.addScriptToEvaluateOnNewDocument", {"source": MEASURE_TEXT})
    dashboard.open(server)
    dashboard.page.wait_for("document.body.dataset.arrangement === 'portrait'", 5, "the portrait arrangement")
    server.push({"move": 0.5, "exercise": 0.25, "stand": 0.75, "task1": 0.1, "task2": 0.2, "task3": 0.3, "task4": 1})
    dashboard.wait_announced("task4", "Task 4 100%")
    titles = [ring["title"] for ring in dashboard.layout()["rings"]]
    texts = dashboard.page.wait_for(
        "(() => { const seen = new Set(window.drawnTexts.map((t) => t.text));"
        f" return {json.dumps(titles)}.every((title) => seen.has(title)) && window.drawnTexts; }})()",
        10, "every title drawn",
    )
    # Every title and label, each drawn at least once since the page opened on the phone.
    labels = {ring["id"]: dashboard.announced(ring["id"]) for ring in dashboard.layout()["rings"]}
    assert all(labels.values()), labels
    assert len(texts) >= 2 * len(titles), texts
    small = [text for text in texts if text["css"] < 14]
    assert small == [], small
    assert dashboard.page.problems() == []


def test_the_page_at_the_root_shows_the_default_board_whatever_boards_exist(start_server, open_page, tmp_path: Path):
    server = server_with_ci_board(start_server, tmp_path)
    status, answer = server.request("PUT", "/api/v1/boards/lobby", {"template": "single"}, token=TOKEN)
    assert status == 201, f"PUT /api/v1/boards/lobby answered {status}: {answer}"
    _, listing = server.request("GET", "/api/v1/boards")
    assert [board["name"] for board in listing["boards"]] == ["main", "ci", "lobby"]

    for query in ("", "?kiosk=1", "?transparent=1"):
        dashboard = open_page(1280, 720).open(server, query)
        assert dashboard.layout()["board"] == "main", query
        assert dashboard.page.evaluate("document.body.dataset.board") == "main"
        assert all("board=" not in url for url in dashboard.socket_urls()), "the server chooses the board"
        assert dashboard.page.problems() == []


def test_the_boards_have_their_own_address_linked_from_the_pages_menu(start_server, open_page, tmp_path: Path):
    server = server_with_ci_board(start_server, tmp_path)
    _, listing = server.request("GET", "/api/v1/boards")
    dashboard = open_page(1280, 720).open(server)
    sockets = len(dashboard.socket_urls())
    href = dashboard.page.evaluate("document.getElementById('boards-link').href")
    assert href == f"{server.url}/boards", href
    dashboard.page.goto(href)
    links = dashboard.page.wait_for(
        "(() => { const links = [...document.querySelectorAll('#board-list a.board-link')];"
        " return links.length > 1 && links.map((a) => ({board: a.dataset.board, href: a.getAttribute('href'),"
        " text: a.textContent})); })()",
        10, "the board index",
    )
    assert [link["board"] for link in links] == [board["name"] for board in listing["boards"]]
    for link, board in zip(links, listing["boards"]):
        assert link["href"].endswith(f"/?board={board['name']}"), link
        assert board.get("title", board["name"]) in link["text"] and f"{len(board['rings'])} rings" in link["text"], link
    assert "shown at /" in links[0]["text"] and "shown at /" not in links[1]["text"], links
    controls = dashboard.page.evaluate("[...document.querySelectorAll('#board-list a.control-link')].map((a) => a.href)")
    assert controls == [f"{server.url}/control.html?board={board['name']}" for board in listing["boards"]]
    assert len(dashboard.socket_urls()) == sockets, "an index opens no stream"

    ci = dashboard.page.evaluate("document.querySelectorAll('#board-list a.board-link')[1].href")
    dashboard.page.goto(ci + "&format=json")
    dashboard.wait_live()
    assert dashboard.layout()["board"] == "ci"
    assert dashboard.page.problems() == []


def test_a_board_reshaped_while_shown_is_redrawn_from_its_new_layout(start_server, open_page, tmp_path: Path):
    server = server_with_ci_board(start_server, tmp_path)
    dashboard = open_page(1280, 720).open(server, "?board=ci")
    before = len(dashboard.layout()["rings"])
    sockets = len(dashboard.socket_urls())

    status, answer = server.request("PUT", "/api/v1/boards/ci", {"template": "tasks", "count": 6}, token=TOKEN)
    assert status in (200, 201), f"PUT /api/v1/boards/ci answered {status}: {answer}"
    dashboard.page.wait_for(
        f"window.ringcast.state.layout.rings.length === {before + 2}", 10, "the page to take the new layout"
    )
    dashboard.wait_live()
    assert len(dashboard.socket_urls()) == sockets, "the new layout came on the same stream"
    dashboard.page.wait_for(
        f"document.querySelectorAll('#announcer [data-ring]').length === {before + 2}", 5, "a line per new ring"
    )
    assert_drawn_in(dashboard, "landscape")
    assert dashboard.page.problems() == []
