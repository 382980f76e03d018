"""Wall screens and overlays: ?kiosk=1 hides the header and the cursor, ?transparent=1 leaves
everything but the rings transparent (an OBS browser source), the header included."""

from __future__ import annotations

import png
from test_dashboard import ring


def test_kiosk_hides_the_header_and_the_cursor(server, open_page):
    dashboard = open_page().open(server, "?kiosk=1")
    shown = dashboard.page.evaluate(
        "({bar: getComputedStyle(document.querySelector('.bar')).display,"
        " cursor: getComputedStyle(document.getElementById('rings')).cursor,"
        " stage: document.getElementById('stage').getBoundingClientRect().top})"
    )
    assert shown == {"bar": "none", "cursor": "none", "stage": 0}, shown

    plain = open_page().open(server)
    assert plain.page.evaluate("getComputedStyle(document.querySelector('.bar')).display") != "none"


def test_transparent_leaves_the_background_transparent_and_draws_the_rings(server, open_page):
    dashboard = open_page(width=800, height=600)
    # What an OBS browser source does: nothing behind the page.
    dashboard.page.call("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    dashboard.open(server, "?transparent=1")
    server.push({"move": 1})
    dashboard.wait_announced("move", "Move 100%")
    layout = dashboard.layout()
    rect = dashboard.canvas_size()["rect"]
    per_unit = rect["width"] / layout["width"]
    move = ring(layout, "move")
    shot = png.decode(dashboard.page.screenshot())
    assert shot.channels == 4, "the screenshot should carry alpha"

    def alpha(x: float, y: float) -> int:
        return shot.rows[int(y)][int(x) * 4 + 3]

    # The page's corner (letterbox or header) and the board's own background: transparent.
    assert alpha(2, shot.height - 3) == 0
    assert alpha(rect["x"] + 4, rect["y"] + 4) == 0
    # On the Move ring's stroke (at 3 o'clock): drawn.
    x = rect["x"] + (move["cx"] + move["r"]) * per_unit
    y = rect["y"] + move["cy"] * per_unit
    assert alpha(x, y) == 255
    assert dashboard.page.problems() == []


def test_transparent_draws_no_header(server, open_page):
    plain = open_page(800, 600).open(server)
    header = plain.page.evaluate("document.querySelector('.bar').getBoundingClientRect().toJSON()")
    assert header["height"] > 0
    # Where the header's text is: the board's name and the status ("● live") show there.
    drawn = png.decode(plain.page.screenshot())
    assert any(
        drawn.pixel(x, y) != drawn.pixel(1, 1)
        for y in range(int(header["top"]), int(header["bottom"]))
        for x in range(int(header["left"]), int(header["right"]))
    ), "the plain page's header should draw something to look for"

    dashboard = open_page(800, 600)
    dashboard.page.call("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    dashboard.open(server, "?transparent=1")
    server.push({"move": 1})
    dashboard.wait_announced("move", "Move 100%")
    assert dashboard.page.evaluate("getComputedStyle(document.querySelector('.bar')).display") == "none"
    shot = png.decode(dashboard.page.screenshot())
    assert shot.channels == 4, "the screenshot should carry alpha"
    opaque = [
        (x, y)
        for y in range(int(header["top"]), int(header["bottom"]))
        for x in range(int(header["left"]), int(header["right"]))
        if shot.rows[y][x * 4 + 3] != 0
    ]
    assert opaque == [], f"{len(opaque)} pixels drawn where the header was, e.g. {opaque[:5]}"
    assert dashboard.page.problems() == []
