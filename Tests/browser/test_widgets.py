"""Widgets on the dashboard (DESIGN §12): a board with a ring and one widget of every kind, drawn
in both arrangements, read back as pixels at rest, and a rolling counter caught mid-roll, whose
digit columns must stay inside their one-row window (web/draw.js).

The expected pixels follow from the layout and frame the tab received and from the placement
rules in docs/PROTOCOL.md ("Drawing widgets"); nothing here recomputes a value the server sends."""

from __future__ import annotations

import math
import time

import pytest

BOARD = "wall"
GRADIENT = ["#ff0000", "#00ff00", "#0000ff"]
# web/draw.js COUNTER_ROW: a counter's window is this many times its font size tall.
COUNTER_ROW = 1.2


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def close_to(pixel, colour, tolerance: float = 12) -> bool:
    return all(abs(p - c) <= tolerance for p, c in zip(pixel[:3], colour))


def make_board(server) -> None:
    status, answer = server.request("PUT", f"/api/v1/boards/{BOARD}", {"rings": [
        {"id": "move"},
        {"id": "tests", "kind": "counter", "value": 99, "unit": "tests", "grouping": ","},
        {"id": "status", "kind": "text", "text": "Deploying"},
        {"id": "load", "kind": "indicator"},
        {"id": "mood", "kind": "gradient", "colors": GRADIENT},
    ]})
    assert status in (200, 201), f"PUT /api/v1/boards/{BOARD} answered {status}: {answer}"
    server.push({"load": 0.73, "move": 0.5}, "none", board=BOARD)


def settle(dashboard, expected: dict[str, str], timeout: float = 10) -> None:
    """Waits until the mirror says each expected text and the last frame received is drawn."""
    for ring_id, text in expected.items():
        dashboard.wait_announced(ring_id, text, timeout)
    last = dashboard.last_seq()
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {last}", timeout, f"seq {last} drawn")


def by_id(layout: dict) -> dict[str, dict]:
    return {ring["id"]: ring for ring in layout["rings"]}


def label_box(ring: dict, rows: float = 1.0, step: float = 1.5) -> list[tuple[float, float]]:
    """A grid of logical points over the label spot: its width, `rows` font sizes tall."""
    spot = ring["labelText"]
    half_w, half_h = spot["width"] / 2, spot["size"] * rows / 2
    xs = [spot["x"] - half_w + i * step for i in range(int(2 * half_w / step) + 1)]
    ys = [spot["y"] - half_h + j * step for j in range(int(2 * half_h / step) + 1)]
    return [(x, y) for y in ys for x in xs]


def inked(pixels, background) -> int:
    """How many pixels differ clearly from the background."""
    return sum(1 for pixel in pixels if not close_to(pixel, background, 40))


def gradient_colour(stops: list, t: float) -> tuple[float, float, float]:
    """The colour of evenly spread or given stops at offset t, mixed linearly as the canvas does."""
    for (o0, c0), (o1, c1) in zip(stops, stops[1:]):
        if o0 <= t <= o1:
            f = 0 if o1 == o0 else (t - o0) / (o1 - o0)
            return tuple(a + (b - a) * f for a, b in zip(rgb(c0), rgb(c1)))
    return rgb(stops[-1][1] if t > stops[-1][0] else stops[0][1])


@pytest.mark.parametrize("window", [(1280, 800, "landscape"), (390, 844, "portrait")], ids=lambda w: w[2])
def test_every_widget_kind_is_drawn_where_its_arrangement_puts_it(server, open_page, window):
    width, height, arrangement = window
    make_board(server)
    dashboard = open_page(width, height, 2).open(server, f"?board={BOARD}")
    settle(dashboard, {"load": "load 73 %", "tests": "tests 99 tests", "status": "status Deploying"})
    dashboard.page.wait_for(
        f"document.body.dataset.arrangement === {arrangement!r}", 5, f"the page to draw the {arrangement} arrangement"
    )
    layout = dashboard.layout()
    rings = by_id(layout)
    frame = {}
    for message in dashboard.messages():
        if message.get("type") == "frame":
            frame.update({entry["id"]: entry for entry in message["rings"]})
    background = rgb(layout["background"])

    # The ring draws as before: its track at 9 o'clock (progress 0.5 reaches 6 o'clock).
    move = rings["move"]
    [track] = dashboard.pixels([(move["cx"] - move["r"], move["cy"])], layout)
    assert close_to(track, rgb(move["track"]), 6), track

    # Indicator: the dashed arc at radius r from 3 o'clock; a point in a dash has the arc's colour,
    # the middle of the first gap does not.
    load = rings["load"]
    (dash, gap), phase = load["dash"], load["dashPhase"]
    period = dash + gap
    on_dash = ((dash / 2 - phase) % period)  # arc length from 3 o'clock to a dash's middle
    in_gap = ((dash + gap / 2 - phase) % period)
    points = [(load["cx"] + load["r"] * math.cos(s / load["r"]), load["cy"] + load["r"] * math.sin(s / load["r"]))
              for s in (on_dash, in_gap)]
    dash_pixel, gap_pixel = dashboard.pixels(points, layout)
    colour = rgb(frame["load"]["color"])
    assert close_to(dash_pixel, colour, 20), f"in a dash: {dash_pixel}, arc {colour}"
    assert not close_to(gap_pixel, colour, 60), f"between dashes: {gap_pixel}, arc {colour}"
    # The part of the circle the arc has not reached (p = 0.73: 3/4 of a turn is 12 o'clock's
    # neighbourhood) is background, and the label is drawn in the middle.
    [unreached] = dashboard.pixels([(load["cx"] + load["r"] * math.cos(-0.3), load["cy"] + load["r"] * math.sin(-0.3))], layout)
    assert close_to(unreached, background, 6), unreached
    assert inked(dashboard.pixels(label_box(load), layout), background) > 10, "the indicator's label"

    # Gradient card: near its top-left corner the first stop's colour, near its bottom-right the
    # last one's, the mix between them along the diagonal; its rounded corner leaves the very
    # corner pixel to the background.
    mood = rings["mood"]
    left, top = mood["cx"] - mood["width"] / 2, mood["cy"] - mood["height"] / 2
    w, h, c = mood["width"], mood["height"], mood["corner"]
    stops = frame["mood"]["stops"]
    inside = [(left + 0.4 * c, top + 0.4 * c), (left + w - 0.4 * c, top + h - 0.4 * c), (left + w / 2, top + h / 2)]
    for (x, y), pixel in zip(inside, dashboard.pixels(inside, layout)):
        t = ((x - left) * w + (y - top) * h) / (w * w + h * h)
        expected = gradient_colour(stops, t)
        assert close_to(pixel, expected, 14), f"card at ({x:.1f}, {y:.1f}), t={t:.3f}: {pixel}, expected {expected}"
    [corner] = dashboard.pixels([(left + 0.5, top + 0.5)], layout)
    assert close_to(corner, background, 6), f"the rounded corner: {corner}"
    first, last = rgb(stops[0][1]), rgb(stops[-1][1])
    assert first == rgb(GRADIENT[0]) and last == rgb(GRADIENT[-1])

    # Counter and text: their characters are drawn over their label spots, in the label colour.
    for ring_id in ("tests", "status"):
        pixels = dashboard.pixels(label_box(rings[ring_id]), layout)
        text_colour = rgb(frame[ring_id]["labelColor"])
        assert inked(pixels, background) > 20, f"{ring_id}: nothing drawn at its label"
        assert any(close_to(p, text_colour, 20) for p in pixels), f"{ring_id}: no pixel in its label colour"
    assert dashboard.page.problems() == []


def test_a_rolling_counter_draws_its_digits_only_inside_their_window(server, open_page):
    make_board(server)
    dashboard = open_page(1280, 800, 2).open(server, f"?board={BOARD}")
    settle(dashboard, {"tests": "tests 99 tests"})
    layout = dashboard.layout()
    counter = by_id(layout)["tests"]
    spot = counter["labelText"]
    background = rgb(layout["background"])

    received = dashboard.received_count()
    server.push({"tests": {"value": 100}}, {"curve": "linear", "duration": 8}, board=BOARD)
    # Wait for a frame in which a column has rolled a good part of a row (about half-way through).
    deadline = time.monotonic() + 8
    while not any(
        0.3 < fraction < 0.7
        for message in dashboard.messages(after=received) if message.get("type") == "frame"
        for entry in message["rings"] if entry["id"] == "tests"
        for _, fraction in entry["digits"]
    ):
        assert time.monotonic() < deadline, "no frame with a column mid-roll"
        time.sleep(0.02)

    half = spot["size"] * COUNTER_ROW / 2
    xs = [spot["x"] - spot["width"] / 2 + i * 0.5 for i in range(int(spot["width"] / 0.5) + 1)]
    above = [(x, spot["y"] - half - 1.5) for x in xs]
    below = [(x, spot["y"] + half + 1.5) for x in xs]
    inside = [(x, spot["y"] + dy) for dy in (-half * 0.8, -half * 0.4, 0, half * 0.4, half * 0.8) for x in xs]
    seq, pixels = dashboard.drawn_pixels(above + below + inside, layout)
    drawn = dashboard.frame(seq)
    entry = next(e for e in drawn["rings"] if e["id"] == "tests") if drawn else None
    assert entry is not None and entry["kind"] == "counter", f"the drawn frame {seq} carries the counter"
    assert any(0.1 < f < 0.9 for _, f in entry["digits"]), f"frame {seq} is mid-roll: {entry['digits']}"
    outside_pixels = pixels[:len(above) + len(below)]
    inside_pixels = pixels[len(above) + len(below):]
    stray = [p for p in outside_pixels if not close_to(p, background, 6)]
    assert not stray, f"{len(stray)} pixels drawn just outside the window, e.g. {stray[:3]} (digits {entry['digits']})"
    assert inked(inside_pixels, background) > 20, "the rolling digits are drawn inside the window"
    assert dashboard.page.problems() == []
