"""The README's pictures, taken from the real page against the real server on every run:
docs/screenshot.png (the default board with a few values) and docs/screenshot-overlap.png (rings
beyond 100 %, and a background splash under way when the server offers one).

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
    missing = not all((DOCS / name).exists() for name in ("screenshot.png", "screenshot-overlap.png"))
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
