"""Status colours (DESIGN §13, issue 23) as people see them: a CI board driven through a pipeline's
life, running → failure → success. The colour change animates on the page like any colour: part way
a pixel on the ring lies between amber and red, and at the end it is red. The pictures of each stage
go to the test's temporary directory, and to docs/screenshot-status.png when asked
(UPDATE_SCREENSHOTS=1) or when docs/ has none."""

from __future__ import annotations

import os
import time
from pathlib import Path

from test_dashboard import close_to, mix, on_ring, ring
from test_screenshots import DOCS

# The flat-UI pairs GET returns for the statuses (README, "Status and threshold colours").
RUNNING = ("#f1c40fff", "#f39c12ff")
FAILURE = ("#e74c3cff", "#c0392bff")
SUCCESS = ("#2ecc71ff", "#27ae60ff")

P = 0.8  # the build ring's progress
TURN = 0.4  # where the pixel is read: half way along the arc, the gradient's middle
SECONDS = 3  # the failure's colour animation, linear, so a frame's colour follows from its seq


def colours(server, ring_id: str) -> tuple[str, str]:
    return tuple(next(r for r in server.board("ci")["rings"] if r["id"] == ring_id)["colors"])


def first_seq_after(dashboard, received: int, predicate, timeout: float = 10) -> int:
    deadline = time.monotonic() + timeout
    while True:
        for message in dashboard.messages(after=received):
            if message.get("type") == "frame" and predicate({r["id"]: r for r in message["rings"]}):
                return message["seq"]
        assert time.monotonic() < deadline, "no such frame reached the tab"
        time.sleep(0.02)


def test_a_pipeline_running_then_failing_then_passing_animates_its_ring_through_the_status_colours(
    server, open_page, tmp_path: Path
):
    wanted = os.environ.get("UPDATE_SCREENSHOTS") == "1" or not (DOCS / "screenshot-status.png").exists()
    status, answer = server.request(
        "PUT",
        "/api/v1/boards/ci",
        {
            "title": "CI",
            "rings": [
                {"id": "build", "title": "Build", "status": "running"},
                {"id": "tests", "title": "Tests", "status": "unknown", "max": 240, "label": "fraction"},
                {
                    "id": "coverage",
                    "title": "Coverage",
                    "thresholds": [[0, "#e74c3c"], [0.5, "#f1c40f"], [0.8, "#2ecc71"]],
                },
            ],
        },
    )
    assert status == 201, answer
    server.push({"build": P, "tests": {"value": 60}, "coverage": 0.42}, "none", board="ci")
    assert colours(server, "build") == RUNNING
    assert colours(server, "coverage") == ("#e74c3cff", "#e74c3cff")  # 0.42 is in the first band

    dashboard = open_page(1280, 800).open(server, "?board=ci")
    layout = dashboard.layout()
    build = ring(layout, "build")
    point = on_ring(build, TURN)
    dashboard.wait_announced("build", "Build 80%")
    last = dashboard.last_seq()
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {last}", 5, f"seq {last} drawn")
    amber = mix(*RUNNING, TURN / P)
    red = mix(*FAILURE, TURN / P)
    assert close_to(dashboard.pixels([point], layout)[0], amber), "running: the ring is amber"
    (tmp_path / "status-running.png").write_bytes(dashboard.page.screenshot())

    # The job fails: the ring turns red over SECONDS, as a push of the failure colours would.
    received = dashboard.received_count()
    server.push({"build": {"status": "failure"}}, {"curve": "linear", "duration": SECONDS}, board="ci")
    moved = first_seq_after(dashboard, received, lambda rings: "build" in rings)
    start = moved - 1  # a linear curve shows its start colour on its start tick
    ticks = SECONDS * 60
    dashboard.page.wait_for(
        f"Number(document.body.dataset.seq) >= {start + ticks // 3}", 10, "a third of the way drawn"
    )
    seq, (pixel,) = dashboard.drawn_pixels([point], layout)
    fraction = (seq - start) / ticks
    assert 0.2 < fraction < 0.9, f"drawn seq {seq} is not part way through the change starting at {start}"
    expected = tuple(a + (b - a) * fraction for a, b in zip(amber, red))
    assert close_to(pixel, expected, 14), f"seq {seq}: {pixel} is not {fraction:.0%} of the way from amber to red"
    # Strictly between: green falls from amber's to red's and is far from both.
    assert red[1] + 10 < pixel[1] < amber[1] - 10, f"seq {seq}: {pixel} is not between amber {amber} and red {red}"
    (tmp_path / "status-changing.png").write_bytes(dashboard.page.screenshot())

    end = first_seq_after(dashboard, received, lambda rings: rings.get("build", {}).get("cap", {}).get("color") == FAILURE[0])
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {end}", 10, f"seq {end} drawn")
    assert end - start >= ticks - 1, f"the colour arrived at seq {end}, before the change's end"
    assert close_to(dashboard.pixels([point], layout)[0], red), "failure: the ring is red"
    assert colours(server, "build") == FAILURE
    (tmp_path / "status-failure.png").write_bytes(dashboard.page.screenshot())

    # Fixed and run again: the build is green, a flaky test warns, and the coverage crosses into its
    # 0.5 band as it rises.
    received = dashboard.received_count()
    server.push(
        {"build": {"status": "success"}, "tests": {"value": 231, "status": "warning"}, "coverage": 0.74}, board="ci"
    )
    done = first_seq_after(
        dashboard, received, lambda rings: rings.get("build", {}).get("cap", {}).get("color") == SUCCESS[0]
    )
    first_seq_after(dashboard, received, lambda rings: rings.get("coverage", {}).get("cap", {}).get("color") == "#f1c40fff")
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {dashboard.last_seq()}", 10, "the last frame drawn")
    assert done >= 1
    assert close_to(dashboard.pixels([point], layout)[0], mix(*SUCCESS, TURN / P)), "success: the ring is green"
    assert server.board("ci")["rings"][0]["status"] == "success"
    (tmp_path / "status-success.png").write_bytes(dashboard.page.screenshot())
    if wanted:
        (DOCS / "screenshot-status.png").write_bytes((tmp_path / "status-success.png").read_bytes())
    assert dashboard.page.problems() == []
