"""Stale data (issue 23, DESIGN §13): pushes stopped until a ring went stale, the page dims it and
writes the server's "updated … ago" under its label; a ring still fresh beside it is drawn as before.
In both encodings (the page's own binary, and JSON)."""

from __future__ import annotations

import pytest
from test_dashboard import close_to, on_ring, rgb, ring

GREEN = "#2ecc71"
STALE = "updated under 1 min ago"


@pytest.mark.parametrize("binary", [True, False], ids=["binary", "json"])
def test_a_stale_ring_is_dimmed_and_shows_its_updated_ago_text(server, open_page, binary):
    # build goes stale a second after its last write; deploy, with no staleAfter, never does.
    status, answer = server.request(
        "PUT",
        "/api/v1/boards/ops",
        {
            "rings": [
                {"id": "build", "title": "Build", "colors": [GREEN, GREEN], "staleAfter": 1},
                {"id": "deploy", "title": "Deploy", "colors": [GREEN, GREEN]},
            ]
        },
    )
    assert status == 201, answer
    server.push({"build": 1, "deploy": 1}, board="ops")
    # The layout as a JSON tab of the same size reads it (a binary tab's messages are bytes).
    layout = open_page(width=1000, height=600).open(server, "?board=ops").layout()
    dashboard = open_page(width=1000, height=600).open(server, "?board=ops", binary=binary)
    assert dashboard.page.evaluate("document.body.dataset.arrangement") == layout["arrangement"]
    build, deploy = ring(layout, "build"), ring(layout, "deploy")

    # The screen-reader mirror reads what is drawn: the label, then the server's text.
    dashboard.wait_announced("build", f"Build 100% {STALE}")
    assert dashboard.announced("deploy") == "Deploy 100%"

    # The stale ring at 40 % as a whole (its arc, not the track under it) over the black background; the
    # fresh one's arc at full strength.
    seq, (dim, bright) = dashboard.drawn_pixels([on_ring(build, 0.25), on_ring(deploy, 0.25)], layout)
    assert close_to(bright, rgb(GREEN)), bright
    assert close_to(dim, tuple(0.4 * c for c in rgb(GREEN)), tolerance=6), dim

    # The text under each label: drawn for build, nothing under deploy's but the background.
    def under_label(geometry):
        spot = geometry["labelText"]
        size = max(spot["size"] * 0.4, 10)
        y = spot["y"] + spot["size"] * 0.6 + size / 2
        half = min(spot.get("width") or 3 * spot["size"], 2 * geometry["r"]) / 2
        return [(spot["x"] - half + i * 2 * half / 80, y) for i in range(81)]

    _, texts = dashboard.drawn_pixels(under_label(build) + under_label(deploy), layout)
    lit = [max(p[:3]) > 100 for p in texts]
    assert any(lit[:81]), "no text under the stale ring's label"
    assert not any(lit[81:]), "something is drawn under the fresh ring's label"
    assert dashboard.page.problems() == []


def test_a_push_clears_the_stale_text(server, open_page):
    status, answer = server.request(
        "PUT", "/api/v1/boards/ops", {"staleAfter": 1, "rings": [{"id": "build", "title": "Build"}]}
    )
    assert status == 201, answer
    server.push({"build": 0.5}, board="ops")
    dashboard = open_page(width=800, height=600).open(server, "?board=ops")
    dashboard.wait_announced("build", f"Build 50% {STALE}")
    seen = dashboard.received_count()
    server.push({"build": 0.75}, board="ops")
    # The push's own frame carries build without a stale text (a second later it may be stale again).
    dashboard.page.wait_for(
        "document.querySelector('#announcer [data-ring=\"build\"]')?.textContent.startsWith('Build 75%')",
        10,
        "the push to be drawn",
    )
    after = [m for m in dashboard.messages(seen) if m.get("type") == "frame"]
    entries = [r for m in after for r in m["rings"] if r["id"] == "build"]
    assert entries and "stale" not in entries[0], entries[:1]
    assert server.board("ops")["rings"][0]["updatedAt"].endswith("Z")
    assert dashboard.page.problems() == []
