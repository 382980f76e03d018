"""The README's pictures, taken from the real page against the real server on every run:
docs/screenshot.png (the default board with a few values), docs/screenshot-overlap.png (rings
beyond 100 %, and a background splash under way when the server offers one) and
docs/screenshot-widgets.png (a CI board of rings and seed 003's widgets).

A running countdown and a splash caught part way differ a little from run to run, so the pictures
replace the ones in docs/ only when asked (UPDATE_SCREENSHOTS=1, which `make screenshots` sets)
or when docs/ has none; otherwise they go to the test's temporary directory, and `make test`
leaves the work tree as it was."""

from __future__ import annotations

import os
import time
from pathlib import Path

import png
import pytest
from ringcast import REPOSITORY

DOCS = REPOSITORY / "docs"


@pytest.fixture
def pictures(tmp_path: Path) -> Path:
    wanted = os.environ.get("UPDATE_SCREENSHOTS") == "1"
    names = ("screenshot.png", "screenshot-overlap.png", "screenshot-widgets.png")
    missing = not all((DOCS / name).exists() for name in names)
    return DOCS if wanted or missing else tmp_path


def settle(dashboard, server, expected: dict[str, str], timeout: float = 10) -> None:
    """Waits until the mirror shows every expected label and the last frame received is drawn."""
    for ring_id, text in expected.items():
        dashboard.wait_announced(ring_id, text, timeout)
    last = max(m["seq"] for m in dashboard.messages() if m.get("type") == "frame")
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {last}", timeout, f"seq {last} drawn")


def save(dashboard, path: Path) -> None:
    picture = dashboard.page.screenshot()
    image = png.decode(picture)
    assert (image.width, image.height) == (1280, 800)
    path.write_bytes(picture)


def test_screenshots_for_the_readme(server, open_page, pictures: Path):
    dashboard = open_page(1280, 800).open(server)

    server.push(
        {"move": 0.82, "exercise": 0.64, "stand": 0.45, "task1": 0.3, "task2": 0.55, "task3": 0.8, "task4": 1},
        "none",
    )
    countdown, _ = server.request("POST", "/api/v1/boards/main/countdown", {"seconds": 12})
    settle(dashboard, server, {"move": "Move 82%", "stand": "Stand 45%", "task4": "Task 4 100%", "overall": "Overall 66%"})
    if 200 <= countdown < 300:
        dashboard.wait_announced("countdown", "Countdown 9s")  # a quarter of the ring run down
    save(dashboard, pictures / "screenshot.png")

    # Beyond one turn a ring overlaps itself: only the last turn shows, the tip casting its shadow.
    server.push({"move": 1.35, "exercise": 1.7, "stand": 2.2, "task2": 1.25, "task4": 1.6}, "none")
    settle(dashboard, server, {"move": "Move 135%", "exercise": "Exercise 170%", "stand": "Stand 220%"})
    # A background splash caught halfway, where the server has the background endpoint.
    received = dashboard.received_count()
    splash, _ = server.request(
        "PUT", "/api/v1/boards/main/background", {"color": "#4533c9", "transition": "circle", "duration": 4}
    )
    if 200 <= splash < 300:
        deadline = time.monotonic() + 5
        while not any(
            m.get("type") == "frame" and (m.get("background") or {}).get("splash")
            for m in dashboard.messages(after=received)
        ):
            assert time.monotonic() < deadline, "the background endpoint answered 2xx but no splash layer came"
            time.sleep(0.02)
        time.sleep(1.5)  # the point: a picture of the transition under way, not of its end
    save(dashboard, pictures / "screenshot-overlap.png")
    assert dashboard.page.problems() == []


def test_screenshot_of_a_board_of_widgets_for_the_readme(server, open_page, pictures: Path):
    """README's CI board: rings, a counter of tests passed, a status text, an indicator and a gradient card."""
    status, answer = server.request("PUT", "/api/v1/boards/ci", {"title": "CI", "rings": [
        {"id": "build", "title": "Build"},
        {"id": "lint", "title": "Lint"},
        {"id": "passed", "title": "Tests passed", "kind": "counter", "value": 0, "grouping": ","},
        {"id": "status", "title": "Status", "kind": "text", "text": "Queued"},
        {"id": "coverage", "title": "Coverage", "kind": "indicator", "colors": ["#2ecc71", "#27ae60"]},
        {"id": "mood", "title": "Mood", "kind": "gradient", "colors": ["#2c3e50", "#8e44ad", "#3498db"]},
    ]})
    assert status in (200, 201), f"PUT /api/v1/boards/ci answered {status}: {answer}"
    dashboard = open_page(1280, 800).open(server, "?board=ci")
    server.push({"build": 1, "lint": 0.6, "passed": {"value": 1284}, "status": {"text": "Deploying"},
                 "coverage": 0.87}, "none", board="ci")
    dashboard.wait_announced("coverage", "Coverage 87 %", 10)
    last = max(m["seq"] for m in dashboard.messages() if m.get("type") == "frame")
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {last}", 10, f"seq {last} drawn")
    save(dashboard, pictures / "screenshot-widgets.png")
    assert dashboard.page.problems() == []
