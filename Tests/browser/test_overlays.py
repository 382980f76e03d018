"""Overlays and controls (issue 34, item 4, and the transparent overlay's outline of item 3), checked
in the pixels a person sees: the notice that no board can be shown veils the whole stage without an
edge that cuts what is beside it, a deleted playlist dims the board and says so, the read-token
screen is styled, the control page's status line is opaque and its controls go off for a board
that does not exist, its Status menu shows the ring's status and clears it, /boards shows names and
playlists, and ?transparent=1 outlines the text so it reads over a light scene."""

from __future__ import annotations

import json
import time
from pathlib import Path

import png
from ringcast import REPOSITORY
from test_dashboard import ring
from test_problems import wait_problem

SIZES = [(1920, 1080), (1280, 720), (390, 844)]
BACKGROUND = (0xE6, 0xE6, 0xE6)
# A light board with one small ring in its top right corner: the middle of the stage, where the notice
# goes, is plain background on both arrangements, so any edge there is the notice's own.
BRIGHT = {
    "name": "bright",
    "title": "Bright",
    "width": 1280,
    "height": 720,
    "background": "#e6e6e6",
    "rings": [
        {
            "id": "a", "title": "A", "cx": 1180, "cy": 100, "r": 60, "thickness": 16,
            "colors": ["#2ecc71", "#27ae60"],
            "titleText": {"x": 1180, "y": 190, "size": 20, "align": "center"},
            "labelText": {"x": 1180, "y": 100, "size": 24, "align": "center"},
        }
    ],
}


def server_with(start_server, tmp_path: Path, **settings):
    """A server with the shipped config, the bright board added and `settings` set."""
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    config["boards"].append(BRIGHT)
    config.update(settings)
    path = tmp_path / "ringcast.json"
    path.write_text(json.dumps(config))
    return start_server(config=path)


# --- pixels ------------------------------------------------------------------------------------------


def luminance(rgb) -> float:
    """WCAG relative luminance of an sRGB colour (0–255 channels)."""
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def near(a, b, tolerance: int) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b[:3]))


def rect(page, selector: str) -> dict:
    return page.evaluate(f"document.querySelector({json.dumps(selector)}).getBoundingClientRect().toJSON()")


def settle(page) -> None:
    """Two animation frames: whatever a resize or a change asked to draw has been drawn."""
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def resize(page, width: int, height: int) -> None:
    page.resize(width, height)
    page.wait_for(f"window.innerWidth === {width} && window.innerHeight === {height}", 5, f"a {width}x{height} window")
    settle(page)


def pixels_in(image, box: dict):
    """Every pixel of the screenshot inside `box` (CSS pixels at a pixel ratio of 1)."""
    for y in range(max(0, int(box["top"])), min(image.height, int(box["bottom"]))):
        for x in range(max(0, int(box["left"])), min(image.width, int(box["right"]))):
            yield image.pixel(x, y)


def text_contrast(image, box: dict) -> float:
    """The contrast of the text in `box` with what is behind it: its brightest pixel against the median."""
    found = sorted(pixels_in(image, box), key=luminance)
    assert found, f"nothing on screen in {box}"
    return contrast(found[-1], found[len(found) // 2])


def union(boxes: list[dict], margin: float) -> dict:
    return {
        "left": min(b["left"] for b in boxes) - margin, "top": min(b["top"] for b in boxes) - margin,
        "right": max(b["right"] for b in boxes) + margin, "bottom": max(b["bottom"] for b in boxes) + margin,
    }


def inside(x: float, y: float, box: dict) -> bool:
    return box["left"] <= x < box["right"] and box["top"] <= y < box["bottom"]


def plain(image, points: list[tuple[int, int]], reach: int = 8) -> list[bool]:
    """For each point of a line: the live picture shows the bare background there and `reach` pixels
    along the line either side (the blur of the veil smears a ring's edge that far at most)."""
    bare = [near(image.pixel(x, y), BACKGROUND, 2) for x, y in points]
    return [all(bare[max(0, i - reach): i + reach + 1]) for i in range(len(points))]


def largest_step(veiled, live, points: list[tuple[int, int]], words: dict) -> tuple[int, tuple[int, int]]:
    """The largest change of any channel between neighbouring points of a line, over the stretches
    that were bare background in the live picture and lie outside the words."""
    keep = [ok and not inside(x, y, words) for ok, (x, y) in zip(plain(live, points), points)]
    worst = (0, points[0])
    for i in range(1, len(points)):
        if keep[i] and keep[i - 1]:
            step = max(abs(a - b) for a, b in zip(veiled.pixel(*points[i]), veiled.pixel(*points[i - 1])))
            worst = max(worst, (step, points[i]))
    return worst


def script_problems(page) -> list[str]:
    """The page's console errors and exceptions, without the browser's network log: a server stopped
    on purpose refuses connections, and a board that does not exist answers 404."""
    return [problem for problem in page.problems() if not problem.startswith("log error (network)")]


# --- the dashboard's notices -------------------------------------------------------------------------


def test_a_server_out_of_reach_is_said_on_a_soft_veil_over_the_whole_stage_at_three_sizes(start_server, open_page, tmp_path: Path):
    server = server_with(start_server, tmp_path)
    dashboard = open_page(*SIZES[0]).open(server, "?board=bright")
    page = dashboard.page
    live = {}
    for size in SIZES:
        resize(page, *size)
        live[size] = png.decode(page.screenshot())

    server.stop()
    wait_problem(dashboard, "unreachable")
    # It fades in after two seconds (a quick restart does not flash it).
    page.wait_for(
        "document.getElementById('problem').getAnimations().every((a) => a.playState === 'finished')",
        8, "the veil to have faded in",
    )
    for size in SIZES:
        resize(page, *size)
        veiled = png.decode(page.screenshot())
        stage = rect(page, "#stage")
        title = rect(page, "#problem-title")
        detail = rect(page, "#problem-detail")
        where = f"at {size[0]}x{size[1]}"
        # The words fit the window and are read at 14 CSS px or more, with strong contrast.
        for box in (title, detail):
            assert box["left"] >= 0 and box["right"] <= size[0] and box["top"] >= stage["top"] and box["bottom"] <= size[1], (where, box)
        sizes = page.evaluate("['#problem-title', '#problem-detail'].map((s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))")
        assert min(sizes) >= 14, (where, sizes)
        assert text_contrast(veiled, title) >= 7, where
        assert text_contrast(veiled, detail) >= 7, where
        # An overlay over the whole stage: far from the words, the board's background is dimmed too.
        for x, y in ((stage["left"] + 4, stage["bottom"] - 4), (stage["right"] - 4, stage["bottom"] - 4)):
            before, after = live[size].pixel(int(x), int(y)), veiled.pixel(int(x), int(y))
            assert near(before, BACKGROUND, 2), (where, before)
            assert sum(after[:3]) <= 0.6 * sum(before[:3]), f"{where}: the stage at ({x}, {y}) is not dimmed: {after}"
        # No edge of its own: across the stage through the title, and down it through the middle, the
        # veil changes smoothly wherever the picture under it was plain (a box's edge jumps by ~200).
        font = max(sizes)
        words = union([title, detail], margin=1.2 * font)
        middle_y = int((title["top"] + title["bottom"]) / 2)
        middle_x = int((stage["left"] + stage["right"]) / 2)
        row = [(x, middle_y) for x in range(int(stage["left"]), int(stage["right"]))]
        column = [(middle_x, y) for y in range(int(stage["top"]) + 1, int(stage["bottom"]))]
        for line, name in ((row, "row"), (column, "column")):
            step, at = largest_step(veiled, live[size], line, words)
            assert step <= 6, f"{where}: the veil's {name} jumps by {step} at {at}"
    assert script_problems(page) == []


def test_a_deleted_playlist_dims_the_board_and_says_the_playlist_was_deleted(start_server, open_page, tmp_path: Path):
    server = server_with(start_server, tmp_path)
    status, answer = server.request("PUT", "/api/v1/playlists/wall", {"boards": ["bright"], "seconds": 60})
    assert status == 201, answer
    server.push({"a": 1}, board="bright")
    dashboard = open_page(1280, 720).open(server, "?playlist=wall")
    dashboard.wait_announced("a", "A 100%")
    page = dashboard.page
    layout = dashboard.layout()
    canvas = dashboard.canvas_size()["rect"]
    per_unit = canvas["width"] / layout["width"]
    a = ring(layout, "a")
    spots = {
        "ring": (canvas["x"] + (a["cx"] + a["r"]) * per_unit, canvas["y"] + a["cy"] * per_unit),
        "board": (canvas["x"] + 640 * per_unit, canvas["y"] + 600 * per_unit),
    }
    settle(page)
    before = png.decode(page.screenshot())

    status, _ = server.request("DELETE", "/api/v1/playlists/wall")
    assert status == 204
    shown = wait_problem(dashboard, "closed")
    assert shown["title"] == "The playlist “wall” was deleted", shown
    assert "this board" not in shown["title"] + shown["detail"], shown
    assert "Choose a board or another playlist" in shown["detail"], shown
    assert shown["links"] == [["Boards and playlists", f"{server.url}/boards"]], shown
    settle(page)
    after = png.decode(page.screenshot())
    for name, (x, y) in spots.items():
        lit, dimmed = before.pixel(int(x), int(y)), after.pixel(int(x), int(y))
        assert luminance(dimmed) <= 0.4 * luminance(lit), f"the {name} at ({x:.0f}, {y:.0f}) stays lit: {lit} → {dimmed}"
    assert text_contrast(after, rect(page, "#problem-title")) >= 7
    assert page.problems() == []


def test_the_token_screen_says_what_is_needed_in_plain_words_with_a_styled_form(start_server, open_page, tmp_path: Path):
    server = server_with(start_server, tmp_path, readToken="read-secret-1")
    dashboard = open_page(1280, 720)
    page = dashboard.page
    page.goto(f"{server.url}/?board=main")
    shown = wait_problem(dashboard, "unauthorized")
    # Words for a person, not the server's text for programs.
    assert "read token" in shown["detail"] and "?token=" in shown["detail"], shown
    assert "Authorization" not in shown["detail"] and "cookie" not in shown["detail"], shown
    how = page.evaluate("document.querySelector('#token-form .token-how').textContent")
    assert f"{server.url}/?board=main&token=…" in how, how
    for size in ((1280, 720), (390, 844)):
        resize(page, *size)
        shot = png.decode(page.screenshot())
        button = rect(page, "#token-form button")
        field = rect(page, "#token-form input")
        where = f"at {size[0]}x{size[1]}"
        for box in (button, field):
            assert 0 <= box["left"] and box["right"] <= size[0] and box["bottom"] <= size[1], (where, box)
        # The button is the page's blue, with rounded corners; the field is the page's dark grey.
        middle = int((button["top"] + button["bottom"]) / 2)
        assert near(shot.pixel(int(button["left"]) + 4, middle), (0x0A, 0x84, 0xFF), 3), (where, shot.pixel(int(button["left"]) + 4, middle))
        assert not near(shot.pixel(int(button["left"]), int(button["top"])), (0x0A, 0x84, 0xFF), 60), where
        assert near(shot.pixel(int(field["left"]) + 8, int((field["top"] + field["bottom"]) / 2)), (0x1C, 0x1C, 0x1E), 3), where
        assert text_contrast(shot, button) >= 3, where
        assert text_contrast(shot, rect(page, "#problem-detail")) >= 7, where
        font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#token-form button')).fontSize)")
        assert font >= 14, (where, font)
    assert page.problems() == []


# --- the control page --------------------------------------------------------------------------------


def test_the_control_pages_status_line_is_opaque_over_the_panels_on_a_phone(server, open_page):
    control = open_page(390, 844)
    page = control.page
    page.goto(f"{server.url}/control.html?board=main")
    page.wait_for("document.querySelectorAll('#rings fieldset.ring').length === 9", 15, "a card per ring")
    page.wait_for("document.getElementById('status').dataset.kind !== undefined", 10, "the status line")
    # Panels, buttons and text scrolled under the line.
    page.evaluate("window.scrollTo(0, document.querySelector('#rings fieldset.ring').getBoundingClientRect().top + window.scrollY - 300)")
    settle(page)
    shot = png.decode(page.screenshot())
    bar = rect(page, ".status-bar")
    status = rect(page, "#status")
    assert abs(bar["bottom"] - 844) < 1 and bar["top"] < 844 - 30, bar
    # Every pixel of the line's padding, above and below its words, is the bar's own colour: nothing
    # under it shows through.
    colour = shot.pixel(2, int(bar["top"]) + 3)
    rows = [int(bar["top"]) + 2, int(bar["top"]) + 4, int(status["bottom"]) + 2]
    seen = {shot.pixel(x, y) for y in rows for x in range(0, 390)}
    assert seen == {colour}, f"the status line shows what is under it: {sorted(seen)[:6]}"
    assert luminance(colour) < 0.02, colour
    assert text_contrast(shot, status) >= 7
    assert page.problems() == []


def test_the_control_page_turns_its_controls_off_for_a_board_that_does_not_exist_until_it_does(server, open_page):
    control = open_page(1280, 900)
    page = control.page
    page.goto(f"{server.url}/control.html?board=later")
    page.wait_for("document.querySelector('main.panels').hasAttribute('data-unavailable')", 10, "the controls off")
    error = page.evaluate("document.getElementById('board-error').textContent")
    assert "There is no board “later”" in error and "controls are off" in error, error
    inert = page.evaluate("[...document.querySelectorAll('main.panels > .panel')].map((p) => [p.id, p.inert])")
    assert all(is_inert == (name != "access-panel") for name, is_inert in inert), inert
    submit = "#background-form button[type=submit]"
    box = rect(page, submit)
    spot = (int(box["left"]) + 5, int((box["top"] + box["bottom"]) / 2))
    off = png.decode(page.screenshot()).pixel(*spot)
    assert luminance(off) < 0.6 * luminance((0x0A, 0x84, 0xFF)) and max(off) - min(off) < 20, f"the button looks live: {off}"
    # Nothing there takes the focus (nor a click): inert.
    assert page.evaluate(f"(() => {{ const b = document.querySelector({json.dumps(submit)}); b.focus(); return document.activeElement !== b; }})()")

    # Once the board exists, the page finds it (it looks again every 5 s) and the controls come back.
    status, answer = server.request("PUT", "/api/v1/boards/later", {"template": "single", "title": "Later"})
    assert status == 201, answer
    page.wait_for("!document.querySelector('main.panels').hasAttribute('data-unavailable')", 10, "the controls back")
    page.wait_for("document.querySelectorAll('#rings fieldset.ring').length > 0", 10, "the board's cards")
    settle(page)
    box = rect(page, submit)  # the line saying the board was missing has gone: the panels moved up
    on = png.decode(page.screenshot()).pixel(int(box["left"]) + 5, int((box["top"] + box["bottom"]) / 2))
    assert near(on, (0x0A, 0x84, 0xFF), 3), on
    assert page.evaluate("document.getElementById('board-error').hidden")
    assert script_problems(page) == []


def test_the_status_menu_shows_the_rings_status_and_none_clears_it(server, open_page):
    server.push({"exercise": 1})
    dashboard = open_page(1280, 720).open(server)
    dashboard.wait_announced("exercise", "Exercise 100%")
    layout = dashboard.layout()
    exercise = ring(layout, "exercise")
    arc = [(exercise["cx"] + exercise["r"], exercise["cy"])]

    def wait_arc(check, what: str) -> None:
        deadline = time.monotonic() + 10
        while not check(pixel := dashboard.pixels(arc, layout)[0]):
            assert time.monotonic() < deadline, f"the Exercise arc is not {what}: {pixel}"
            time.sleep(0.05)

    green = lambda p: p[1] > p[0] + 80  # noqa: E731 — #2ecc71 → #27ae60, the ring's own
    red = lambda p: p[0] > p[1] + 80  # noqa: E731 — failure: #e74c3c → #c0392b
    wait_arc(green, "green")

    control = open_page(1280, 900)
    page = control.page
    select = "document.querySelector('#rings fieldset.ring[data-ring=\"exercise\"] .card-status-select')"
    form = "document.querySelector('#rings fieldset.ring[data-ring=\"exercise\"] form[data-part=status]')"
    page.goto(f"{server.url}/control.html?board=main")
    page.wait_for(f"{select} !== null", 15, "the Exercise card")
    # No status: the menu says none, not success.
    assert page.evaluate(f"[{select}.value, {select}.selectedOptions[0].textContent]") == ["", "none"]

    page.evaluate(f"(() => {{ {select}.value = 'failure'; {select}.dispatchEvent(new Event('change', {{bubbles: true}})); {form}.requestSubmit(); }})()")
    page.wait_for("document.getElementById('status').textContent.includes('status → failure: done')", 10, "the status set")
    wait_arc(red, "red")
    page.goto(f"{server.url}/control.html?board=main")
    page.wait_for(f"{select} !== null && {select}.value === 'failure'", 15, "the menu to show the ring's status")

    page.evaluate(f"(() => {{ {select}.value = ''; {select}.dispatchEvent(new Event('change', {{bubbles: true}})); {form}.requestSubmit(); }})()")
    page.wait_for("document.getElementById('status').textContent.includes('status → none: done')", 10, "the status cleared")
    assert "status" not in next(r for r in server.board()["rings"] if r["id"] == "exercise")
    wait_arc(green, "green again")
    assert page.evaluate(f"{select}.value") == ""
    assert page.problems() == [] and dashboard.page.problems() == []


# --- /boards -------------------------------------------------------------------------------------------


def test_the_index_shows_each_boards_name_beside_its_title_and_the_playlists(server, open_page):
    status, answer = server.request("PUT", "/api/v1/boards/ci", {"template": "single", "title": "CI pipeline"})
    assert status == 201, answer
    status, answer = server.request("PUT", "/api/v1/playlists/wall", {"boards": ["main", "ci"], "seconds": 30})
    assert status == 201, answer
    index = open_page(390, 844)
    page = index.page
    page.goto(f"{server.url}/boards")
    page.wait_for("document.body.dataset.state === 'ready'", 10, "the index")
    boards = page.evaluate(
        "[...document.querySelectorAll('#board-list a.board-link')].map((a) =>"
        " [a.querySelector('.board-title').textContent, a.querySelector('.board-name').textContent])"
    )
    assert boards == [["main", "main"], ["CI pipeline", "ci"]], boards
    playlists = page.evaluate(
        "[...document.querySelectorAll('#playlist-list a')].map((a) => [a.textContent, a.href])"
    )
    assert len(playlists) == 1 and playlists[0][1] == f"{server.url}/?playlist=wall", playlists
    assert playlists[0][0].startswith("wallmain → ci · 30 s each · now "), playlists
    assert page.evaluate("document.getElementById('playlist-empty').hidden")

    shot = png.decode(page.screenshot())
    # Drawn where a person sees them: in the window, light text on the entries' dark grey.
    for selector in ("#board-list li:nth-child(2) .board-title", "#board-list li:nth-child(2) .board-name",
                     "#playlist-list .board-title", "#playlist-list .board-facts"):
        box = rect(page, selector)
        assert box["width"] > 0 and 0 <= box["left"] and box["right"] <= 390 and box["bottom"] <= 844, (selector, box)
        assert text_contrast(shot, box) >= 4.5, selector
    assert page.problems() == []


# --- ?transparent=1 --------------------------------------------------------------------------------


def test_transparent_text_is_outlined_so_it_reads_over_a_light_scene_unless_outline_is_0(server, open_page):
    server.push({"move": 0.7})
    scene = (235, 235, 225)  # a light scene behind the overlay

    def darkest_around_title(query: str) -> tuple[float, int]:
        dashboard = open_page(1280, 720)
        dashboard.page.call("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
        dashboard.open(server, query)
        dashboard.wait_announced("move", "Move 70%")
        settle(dashboard.page)
        layout = dashboard.layout()
        canvas = dashboard.canvas_size()["rect"]
        per_unit = canvas["width"] / layout["width"]
        spot = ring(layout, "move")["titleText"]
        x, y, size = canvas["x"] + spot["x"] * per_unit, canvas["y"] + spot["y"] * per_unit, spot["size"] * per_unit
        shot = png.decode(dashboard.page.screenshot())
        assert shot.channels == 4
        darkest, drawn = 1.0, 0
        for py in range(int(y - size), int(y + size)):
            for px in range(int(x - 2 * size), int(x + 2 * size)):
                r, g, b, alpha = shot.rows[py][px * 4: px * 4 + 4]
                drawn += alpha > 0
                seen = [(c * alpha + k * (255 - alpha)) / 255 for c, k in zip((r, g, b), scene)]
                darkest = min(darkest, luminance(seen))
        assert dashboard.page.problems() == []
        return darkest, drawn

    outlined, drawn = darkest_around_title("?transparent=1")
    assert drawn > 0
    # The halo is the board's background (black on main): the white title has dark pixels around it.
    assert outlined < 0.1, outlined
    bare, drawn = darkest_around_title("?transparent=1&outline=0")
    assert drawn > 0, "the title is drawn without an outline too"
    # Without it, white on a light scene: nothing dark anywhere near the title.
    assert bare > 0.6, bare
