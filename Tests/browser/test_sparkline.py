"""Sparklines (issue 33): a ring with `sparkline` draws its history as a line in the band under its label (the
band rule of docs/PROTOCOL.md, "Sparklines"), and the line read back from the canvas follows the values pushed:
after pushes 0.1 → 0.9 it rises from left to right, after a drop its right end is low. At 16:9 and on a phone,
in both encodings (the page's own binary, and JSON). SPARK_SCREENSHOTS=<dir> keeps a picture of each case, and of
the default board with a line under every ring's label, to look at."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from ringcast import REPOSITORY
from test_dashboard import ring

GREEN = "#2ecc71"
SIZES = {"16:9": (1920, 1080), "phone": (390, 844)}
COLUMNS = 41
ROWS = 25


def band(spot: dict) -> tuple[float, float, float, float]:
    """The band's left, top, width and height in the board's units (draw.js sparkBand)."""
    width = min(spot.get("width") or float("inf"), 2.5 * spot["size"])
    left = {"left": spot["x"], "right": spot["x"] - width}.get(spot["align"], spot["x"] - width / 2)
    return left, spot["y"] + 0.45 * spot["size"], width, 0.4 * spot["size"]


def line_heights(dashboard, geometry: dict, layout: dict) -> tuple[int, list[float | None]]:
    """The seq drawn and, for each of COLUMNS columns across the band, the height (0 bottom, 1 top) of the
    lit pixels' middle in it; None where nothing is lit."""
    left, top, width, height = band(geometry["labelText"])
    points = [
        (left + width * (0.01 + 0.98 * c / (COLUMNS - 1)), top + height * (-0.1 + 1.2 * r / (ROWS - 1)))
        for c in range(COLUMNS)
        for r in range(ROWS)
    ]
    seq, pixels = dashboard.drawn_pixels(points, layout)
    heights: list[float | None] = []
    for c in range(COLUMNS):
        lit = [r for r in range(ROWS) if max(pixels[c * ROWS + r][:3]) > 90]
        heights.append(None if not lit else 1 - (-0.1 + 1.2 * (sum(lit) / len(lit)) / (ROWS - 1)))
    return seq, heights


def wait_for_line(dashboard, geometry, layout, predicate, what: str, timeout: float = 5) -> list[float | None]:
    deadline = time.monotonic() + timeout
    while True:
        _, heights = line_heights(dashboard, geometry, layout)
        if predicate(heights):
            return heights
        if time.monotonic() >= deadline:
            keep(dashboard, "failed")
        assert time.monotonic() < deadline, f"the line to {what}: heights {heights}"
        time.sleep(0.05)


def keep(dashboard, name: str) -> None:
    directory = os.environ.get("SPARK_SCREENSHOTS")
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        (Path(directory) / f"{name}.png").write_bytes(dashboard.page.screenshot())


def push_and_show(server, dashboard, value: float) -> None:
    server.push({"build": value}, board="spark")
    dashboard.wait_announced("build", f"Build {round(value * 100)}%")


@pytest.mark.parametrize("binary", [True, False], ids=["binary", "json"])
@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_the_line_follows_the_pushed_values(server, open_page, size, binary):
    status, answer = server.request(
        "PUT",
        "/api/v1/boards/spark",
        {"rings": [{"id": "build", "title": "Build", "colors": [GREEN, GREEN], "sparkline": {"seconds": 600}}]},
    )
    assert status == 201, answer
    width, height = SIZES[size]
    # The layout as a JSON tab of the same size reads it (a binary tab's messages are bytes).
    layout = open_page(width, height).open(server, "?board=spark").layout()
    dashboard = open_page(width, height).open(server, "?board=spark", binary=binary)
    assert dashboard.page.evaluate("document.body.dataset.arrangement") == layout["arrangement"]
    build = ring(layout, "build")

    # One push: no line yet, the band is empty.
    push_and_show(server, dashboard, 0.1)
    _, heights = line_heights(dashboard, build, layout)
    assert all(h is None for h in heights), heights

    # Rising values, each drawn before the next is pushed (so each is its own point in time).
    for value in (0.3, 0.5, 0.7, 0.9):
        push_and_show(server, dashboard, value)

    def rises(heights):
        drawn = [h for h in heights if h is not None]
        return (
            len(drawn) >= COLUMNS * 0.8
            and heights[0] is not None
            and heights[0] < 0.3
            and heights[-1] is not None
            and heights[-1] > 0.75
            and all(b >= a - 0.12 for a, b in zip(drawn, drawn[1:]))
        )

    wait_for_line(dashboard, build, layout, rises, "rise from left to right")
    keep(dashboard, f"spark-{size}-{'binary' if binary else 'json'}-rising")

    # A drop: the right end falls to the bottom, the 0.9 before it stays high.
    push_and_show(server, dashboard, 0.1)

    def drops(heights):
        drawn = [h for h in heights if h is not None]
        return heights[-1] is not None and heights[-1] < 0.3 and max(drawn[-COLUMNS // 3 :]) > 0.75

    wait_for_line(dashboard, build, layout, drops, "drop at its right end")
    keep(dashboard, f"spark-{size}-{'binary' if binary else 'json'}-drop")
    assert dashboard.page.problems() == []


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_the_default_board_draws_a_line_under_each_label(start_server, open_page, tmp_path: Path, size):
    """The default board (concentric rings, their texts in a row under them, and small rings with their labels in
    their holes) with a sparkline on every plain and derived ring: each line is drawn in its band.
    SPARK_SCREENSHOTS keeps the picture, to check that no band runs into other text."""
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    main = next(b for b in config["boards"] if b["name"] == "main")
    main["rings"] = [
        spec | ({"sparkline": {"seconds": 600}} if spec.get("kind", "plain") in ("plain", "derived") else {})
        for spec in main["rings"]
    ]
    path = tmp_path / "sparklines.json"
    path.write_text(json.dumps(config | {"boards": [main]}))
    server = start_server(config=path)
    width, height = SIZES[size]
    dashboard = open_page(width, height).open(server)
    lined = [spec["id"] for spec in main["rings"] if "sparkline" in spec and spec.get("kind", "plain") == "plain"]
    for step in (0.2, 0.7, 0.4):
        values = {ring_id: round((step + 0.1 * index) % 1, 2) for index, ring_id in enumerate(lined)}
        server.push(values)
        for ring_id, value in values.items():
            title = next(spec["title"] for spec in main["rings"] if spec["id"] == ring_id)
            dashboard.wait_announced(ring_id, f"{title} {round(value * 100)}%")
    layout = dashboard.layout()
    for ring_id in lined:
        wait_for_line(
            dashboard, ring(layout, ring_id), layout, lambda h: sum(x is not None for x in h) >= COLUMNS * 0.8, "be drawn"
        )
    keep(dashboard, f"spark-main-{size}")
    assert dashboard.page.problems() == []
