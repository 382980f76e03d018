"""Text contrast: on a background the server did not start with, the titles, labels and the
header take the text colour the server sends with the frame (background.text), which keeps at
least 4.5:1 against the background. The page computes no colour; it places the server's."""

from __future__ import annotations

from test_dashboard import close_to, rgb, ring


def test_white_background_turns_the_titles_and_the_header_dark(server, open_page):
    dashboard = open_page().open(server)
    layout = dashboard.layout()
    move = ring(layout, "move")
    assert move["titleColor"] is None, "the shipped config leaves the title colour automatic"
    received = dashboard.received_count()

    status, answer = server.request("PUT", "/api/v1/boards/main/background", {"color": "#ffffff", "animation": "none"})
    assert 200 <= status < 300, f"PUT background answered {status}: {answer}"
    dashboard.page.wait_for(
        "getComputedStyle(document.body).backgroundColor.replaceAll(' ', '') === 'rgb(255,255,255)'",
        10, "the white background on the page",
    )
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) === {dashboard.last_seq()}", 5, "the last frame drawn")
    frame = dashboard.frame(dashboard.last_seq(), after=received)
    assert frame is not None and frame["background"]["color"] == "#ffffffff", frame
    text = frame["background"]["text"]
    assert max(rgb(text)) < 64, f"the server's text colour on white should be dark: {text}"
    labels = {r["id"]: r["labelColor"] for r in frame["rings"]}
    assert labels.get("move", text) == text, labels

    # The header's text: the frame's colour, set as a CSS custom property.
    r, g, b = rgb(text)
    shown = dashboard.page.evaluate(
        "['board-name', 'status-text'].map((id) =>"
        " getComputedStyle(document.getElementById(id)).color.replaceAll(' ', ''))"
    )
    assert shown == [f"rgb({r},{g},{b})"] * 2, shown

    # The Move title, drawn at its text spot: its darkest pixels are the text colour, where the
    # old fixed grey (#8e8e93) was far lighter.
    spot = move["titleText"]
    box = [
        (spot["x"] + dx, spot["y"] + dy)
        for dx in range(-30, 31)
        for dy in range(-int(spot["size"] / 2), int(spot["size"] / 2) + 1)
    ]
    pixels = dashboard.pixels(box, layout)
    darkest = min(pixels, key=lambda p: sum(p[:3]))
    assert close_to(darkest, rgb(text), 24), f"darkest title pixel {darkest}, text colour {text}"
    assert any(close_to(p, (255, 255, 255), 4) for p in pixels), "the box should show the background too"
    assert dashboard.page.problems() == []
