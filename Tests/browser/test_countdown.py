"""Seed 004's countdown look (issue 22): the page draws the disc and the white stroke the layout's
style asks for, and hands the end event to the page that embeds it, once."""

from __future__ import annotations

import time

from test_dashboard import on_ring, ring


def test_a_seed_countdown_draws_its_disc_and_white_stroke_without_a_track_and_ends_once(server, open_page):
    status, answer = server.request(
        "PUT", "/api/v1/boards/launch", {"rings": [{"id": "t", "kind": "countdown", "style": "seed", "tenths": True}]}
    )
    assert status == 201, answer
    dashboard = open_page(width=800, height=600).open(server, "?board=launch")
    dashboard.page.evaluate(
        "window.endEvents = []; addEventListener('ringcast:event', (e) => endEvents.push(e.detail)); true"
    )
    layout = dashboard.layout()
    t = ring(layout, "t")
    assert t["style"] == "seed"

    status, answer = server.request("POST", "/api/v1/boards/launch/countdown", {"seconds": 0.5})
    assert status == 200, answer
    deadline = time.monotonic() + 10
    while not (events := [m for m in dashboard.messages() if m.get("type") == "event"]):
        assert time.monotonic() < deadline, "no end event arrived"
        time.sleep(0.02)
    assert [(e["event"], e["board"], e["ring"]) for e in events] == [("countdownEnded", "launch", "t")]
    end = events[0]["seq"]
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {end}", 5, "the end frame drawn")

    points = [
        (t["cx"], t["cy"] - t["r"] * 0.6),  # inside the disc, above the label
        on_ring(t, 0.25),  # the stroke at 3 o'clock: the full ring at the end
        on_ring(t, 0.75),  # and at 9 o'clock
        on_ring(t, 0.25, t["r"] + t["thickness"] / 4),  # where a ring's track would be
    ]
    seq, (disc, east, west, track) = dashboard.drawn_pixels(points, layout)
    assert seq >= end
    # White at alpha 0.25 over the black background.
    assert all(60 <= channel <= 68 for channel in disc[:3]), disc
    assert min(east[:3]) >= 200 and min(west[:3]) >= 200, (east, west)
    assert max(track[:3]) <= 8, f"no track is drawn around a seed ring: {track}"
    assert dashboard.page.evaluate("endEvents.length") == 1
    assert dashboard.page.problems() == []
