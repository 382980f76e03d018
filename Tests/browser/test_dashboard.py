"""The dashboard in real headless Chromium against the real server: what people see.

Every number the checks compare against comes from the server (the layout it sent, the colours
GET returns) or from DESIGN.md's geometry (a1 = -π/2 + 2π·p), computed here in the test — the
page itself computes none of it.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import png
from ringcast import REPOSITORY

MOVE_START, MOVE_END = "#e74c3cff", "#c0392bff"  # config/ringcast.json's Move gradient, as GET returns it


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def mix(a: str, b: str, f: float) -> tuple[float, float, float]:
    return tuple(x + (y - x) * f for x, y in zip(rgb(a), rgb(b)))


def close_to(pixel, colour, tolerance: float = 12) -> bool:
    return all(abs(p - c) <= tolerance for p, c in zip(pixel[:3], colour))


def ring(layout: dict, ring_id: str) -> dict:
    return next(r for r in layout["rings"] if r["id"] == ring_id)


def on_ring(geometry: dict, turn: float, radius: float | None = None) -> tuple[float, float]:
    """The logical point `turn` of a full turn clockwise from 12 o'clock, on the stroke's centre line."""
    angle = -math.pi / 2 + 2 * math.pi * turn
    r = geometry["r"] if radius is None else radius
    return geometry["cx"] + r * math.cos(angle), geometry["cy"] + r * math.sin(angle)


def frame_seq_where(dashboard, predicate, timeout: float = 10) -> int:
    """The seq of the first frame the tab received that satisfies predicate(rings by id). A delta
    frame carries only the rings that changed."""
    deadline = time.monotonic() + timeout
    while True:
        for message in dashboard.messages():
            if message.get("type") == "frame" and predicate({r["id"]: r for r in message["rings"]}):
                return message["seq"]
        assert time.monotonic() < deadline, "no such frame reached the tab"
        time.sleep(0.02)


# --- loading -----------------------------------------------------------------------------------


def test_dashboard_loads_without_console_errors_and_draws_the_layout(server, open_page):
    dashboard = open_page().open(server)

    assert dashboard.page.evaluate("document.getElementById('board-name').textContent") == "main"
    layout = dashboard.layout()
    assert dashboard.page.evaluate("document.getElementById('status').dataset.state") == "live"
    assert dashboard.seq() is not None
    size = dashboard.canvas_size()
    assert size["width"] > 0 and abs(size["width"] / size["height"] - layout["width"] / layout["height"]) < 0.01
    # Nothing pushed yet: every ring is "no data", and the mirror says so in the server's words.
    for geometry in layout["rings"]:
        dashboard.wait_announced(geometry["id"], f"{geometry['title']} —")
    # The track of the Move ring is drawn where the layout puts it.
    move = ring(layout, "move")
    assert close_to(dashboard.pixels([on_ring(move, 0.5)], layout)[0], rgb(move["track"]), 4)

    assert dashboard.page.problems() == []


def test_board_query_picks_the_board(start_server, open_page, tmp_path: Path):
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    lobby = {**config["boards"][0], "name": "lobby", "background": "#1c1c1e"}
    lobby["rings"] = [r for r in lobby["rings"] if r["id"] in ("move", "exercise", "stand")]
    config["boards"].append(lobby)
    (tmp_path / "two-boards.json").write_text(json.dumps(config))
    server = start_server(config=tmp_path / "two-boards.json")
    server.push({"move": 0.4}, board="lobby")

    dashboard = open_page().open(server, "?board=lobby")

    assert "board=lobby" in dashboard.socket_urls()[-1]
    assert dashboard.layout()["board"] == "lobby"
    assert dashboard.page.evaluate("document.getElementById('board-name').textContent") == "lobby"
    dashboard.wait_announced("move", "Move 40%")
    assert dashboard.page.evaluate("document.querySelectorAll('#announcer [data-ring]').length") == 3
    assert server.viewers("lobby") == 1 and server.viewers("main") == 0
    assert dashboard.page.problems() == []


# --- what a push looks like --------------------------------------------------------------------


def test_push_draws_the_arc_in_its_gradient_and_the_track_beyond_the_tip(server, open_page):
    dashboard = open_page().open(server)
    layout = dashboard.layout()
    move = ring(layout, "move")
    colours = next(r for r in server.board()["rings"] if r["id"] == "move")["colors"]
    assert colours == [MOVE_START, MOVE_END]

    server.push({"move": 0.8}, "none")

    seq = frame_seq_where(dashboard, lambda rings: rings.get("move", {}).get("p") == 0.8)
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {seq}", 5, f"seq {seq} drawn")
    dashboard.wait_announced("move", "Move 80%")

    # Below one turn the conic gradient runs from the start colour at 12 o'clock to the end colour
    # at the tip: a point a fraction f of the way along the arc has mix(start, end, f / p).
    # (Away from the round ends: the start cap and the tip are discs of the thickness.)
    turns = [0.1, 0.3, 0.5, 0.7]
    for turn, pixel in zip(turns, dashboard.pixels([on_ring(move, t) for t in turns], layout)):
        expected = mix(MOVE_START, MOVE_END, turn / 0.8)
        assert close_to(pixel, expected), f"at {turn:.0%} of the turn: {pixel} is not the gradient's {expected}"
    # Beyond the tip (and its disc) only the track shows.
    beyond = [0.86, 0.93, 0.98]
    for turn, pixel in zip(beyond, dashboard.pixels([on_ring(move, t) for t in beyond], layout)):
        assert close_to(pixel, rgb(move["track"]), 4), f"at {turn:.0%} of the turn: {pixel} is not the track"
    # The other rings are untouched: still no data, track only.
    exercise = ring(layout, "exercise")
    assert close_to(dashboard.pixels([on_ring(exercise, 0.3)], layout)[0], rgb(exercise["track"]), 4)
    assert dashboard.announced("exercise") == "Exercise —"

    assert dashboard.page.problems() == []


def test_the_page_defaults_to_binary_frames_and_draws_them_the_same(server, open_page):
    dashboard = open_page().open(server, binary=True)
    assert any("format=binary" in url for url in dashboard.socket_urls())
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    move = next(r for r in config["boards"][0]["rings"] if r["id"] == "move")
    layout = {"width": config["boards"][0]["width"], "height": config["boards"][0]["height"]}
    before = int(dashboard.page.evaluate("Number(document.body.dataset.seq)"))

    server.push({"move": 0.8}, "none")

    dashboard.page.wait_for(f"Number(document.body.dataset.seq) > {before}", 5, "a new frame drawn")
    dashboard.wait_announced("move", "Move 80%")
    turns = [0.1, 0.3, 0.5, 0.7]
    for turn, pixel in zip(turns, dashboard.pixels([on_ring(move, t) for t in turns], layout)):
        expected = mix(MOVE_START, MOVE_END, turn / 0.8)
        assert close_to(pixel, expected), f"at {turn:.0%} of the turn: {pixel} is not the gradient's {expected}"
    beyond = [0.86, 0.93]
    for turn, pixel in zip(beyond, dashboard.pixels([on_ring(move, t) for t in beyond], layout)):
        assert close_to(pixel, rgb("#2c2c2e"), 4), f"at {turn:.0%} of the turn: {pixel} is not the track"
    assert dashboard.page.problems() == []


def test_background_splash_grows_over_the_board_then_becomes_the_background(server, open_page):
    dashboard = open_page().open(server)
    layout = dashboard.layout()
    new, old = "#4533c9ff", layout["background"]
    received = dashboard.received_count()

    status, answer = server.request(
        "PUT", "/api/v1/boards/main/background",
        {"color": new[:7], "transition": "leftToRight", "duration": 3, "animation": "linear"},
    )
    assert 200 <= status < 300, f"PUT background answered {status}: {answer}"

    # Under way, read the drawn seq and a row of pixels in one go (y = 20: above every ring); the
    # frame of that seq says where the layer's right edge was. Left of it the new colour, right
    # of it the old.
    row = [(x, 20) for x in range(5, layout["width"], 10)]
    deadline = time.monotonic() + 10
    while True:
        seq, pixels = dashboard.drawn_pixels(row, layout)
        frame = dashboard.frame(seq, after=received)
        layers = frame["background"]["splash"] if frame else []
        if layers and 0.2 < layers[0]["progress"] < 0.8:
            break
        assert time.monotonic() < deadline, "no splash drawn under way"
        time.sleep(0.05)
    [layer] = layers
    assert layer["style"] == "leftToRight" and layer["color"] == new
    edge = max(x for x, _ in layer["shapes"][layout["arrangement_index"]]["polygon"])
    for (x, _), pixel in zip(row, pixels):
        if x < edge - 2:
            assert close_to(pixel, rgb(new), 4), f"x {x}, left of the layer's edge {edge:.1f}: {pixel}"
        elif x > edge + 2:
            assert close_to(pixel, rgb(old), 4), f"x {x}, right of the layer's edge {edge:.1f}: {pixel}"

    # Finished, the layer is gone and its colour is the background, the letterbox's too.
    r, g, b = rgb(new)
    dashboard.page.wait_for(
        f"getComputedStyle(document.body).backgroundColor.replaceAll(' ', '') === 'rgb({r},{g},{b})'",
        10, "the new background on the whole page",
    )
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) === {dashboard.last_seq()}", 5, "the last frame drawn")
    _, pixels = dashboard.drawn_pixels([(layout["width"] - 5, 5), (5, layout["height"] - 5)], layout)
    assert all(close_to(pixel, rgb(new), 4) for pixel in pixels), pixels
    assert dashboard.page.problems() == []


def test_splash_sweeps_the_letterbox_in_step_with_the_board(server, open_page):
    # A window much wider than the board (1280 × 720 in config/ringcast.json): bands left and right.
    dashboard = open_page(1600, 600).open(server)
    layout = dashboard.layout()
    new, old = "#f1c40fff", layout["background"]
    rect = dashboard.canvas_size()["rect"]
    assert rect["left"] >= 100 and 1600 - rect["right"] >= 100, f"no letterbox bands beside the board: {rect}"
    y = rect["top"] + rect["height"] / 2
    left, right = (rect["left"] / 2, y), ((rect["right"] + 1600) / 2, y)
    per_unit = rect["width"] / layout["width"]  # CSS pixels per logical unit

    def board_x(point: tuple[float, float]) -> float:
        return (point[0] - rect["left"]) / per_unit

    def shot(point: tuple[float, float]) -> tuple[int, int, int]:
        image = png.decode(dashboard.page.screenshot({"x": int(point[0]), "y": int(point[1]), "width": 1, "height": 1}))
        return image.pixel(0, 0)

    def edge_of(seq: int) -> float | None:
        """The right edge of the splash layer in the frame of that seq (None before it started)."""
        frame = dashboard.frame(seq)
        layers = frame["background"]["splash"] if frame else []
        if not layers:
            return None
        [layer] = layers
        assert layer["style"] == "leftToRight" and layer["color"] == new
        return max(x for x, _ in layer["shapes"][layout["arrangement_index"]]["polygon"])

    status, answer = server.request(
        "PUT", "/api/v1/boards/main/background",
        {"color": new[:7], "transition": "leftToRight", "animation": {"curve": "linear", "duration": 3}},
    )
    assert 200 <= status < 300, f"PUT background answered {status}: {answer}"

    # Under way: the layer's edge (board coordinates, from the frame of the seq drawn) has passed the
    # left band's point and not yet the right one's; the backdrop shows the new colour left, the old right.
    deadline = time.monotonic() + 10
    while True:
        seq, (in_left, in_right) = dashboard.drawn_window_pixels([left, right])
        edge = edge_of(seq)
        if edge is not None and board_x(left) + 20 < edge < board_x(right) - 600:
            break
        assert edge is None or edge < board_x(right) - 600, "the splash passed the right band before it was seen under way"
        assert time.monotonic() < deadline, "no splash drawn under way between the bands"
        time.sleep(0.02)
    assert close_to(in_left, rgb(new), 4), f"left band at x {board_x(left):.0f}, edge {edge:.0f}: {in_left}"
    assert close_to(in_right, rgb(old), 4), f"right band at x {board_x(right):.0f}, edge {edge:.0f}: {in_right}"
    # And on the screen itself, while the edge is still between the two bands.
    on_screen = shot(left), shot(right)
    after, _ = dashboard.drawn_window_pixels([])
    assert edge_of(after) is not None and edge_of(after) < board_x(right) - 2, "the splash left the bands during the shot"
    assert close_to(on_screen[0], rgb(new), 4) and close_to(on_screen[1], rgb(old), 4), on_screen

    # Finished: both bands show the new colour, on the backdrop and on the screen.
    r, g, b = rgb(new)
    dashboard.page.wait_for(
        f"getComputedStyle(document.body).backgroundColor.replaceAll(' ', '') === 'rgb({r},{g},{b})'",
        10, "the new background on the whole page",
    )
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) === {dashboard.last_seq()}", 5, "the last frame drawn")
    _, pixels = dashboard.drawn_window_pixels([left, right])
    assert all(close_to(pixel, rgb(new), 4) for pixel in pixels), pixels
    assert all(close_to(shot(point), rgb(new), 4) for point in (left, right))
    assert dashboard.page.problems() == []


def test_two_pages_show_the_same_frame_during_and_after_an_animation(server, open_page):
    # Small tabs: a software canvas draws them in a quarter of the time.
    first = open_page(640, 420).open(server)
    second = open_page(640, 420).open(server)
    server.wait_viewers(2)
    # Each tab logs (time, seq) whenever it has drawn a frame (app.js sets data-seq right after
    # drawing).
    for page in (first, second):
        page.page.evaluate(
            "window.drawn = []; new MutationObserver(() => window.drawn.push("
            "[performance.timeOrigin + performance.now(), Number(document.body.dataset.seq)]))"
            ".observe(document.body, {attributeFilter: ['data-seq']}); true"
        )

    server.push({"move": 0.9, "task1": 0.6}, {"curve": "linear", "duration": 1})

    for page in (first, second):
        page.wait_announced("move", "Move 90%")
        page.wait_announced("task1", "Task 1 60%")
    last = max(m["seq"] for m in first.messages() if m.get("type") == "frame")
    for page in (first, second):
        page.page.wait_for(f"Number(document.body.dataset.seq) === {last}", 5, f"the last frame, seq {last}")
    assert first.seq() == second.seq() == last

    logs = [page.page.evaluate("window.drawn") for page in (first, second)]
    for log in logs:
        assert len(log) >= 3, f"the animation should be drawn in several frames, got {log}"

    # The promise: every frame both tabs received (the same seq) is the same bytes, during the
    # animation and at its end. How far apart the two renderers draw is left out: on a loaded
    # machine (software canvas, two shared cores) a starved renderer draws a few times a second,
    # which says nothing about the server.
    # A frame is a seq and whether it is the keyframe or the delta of that seq: a tab that skipped the frame before
    # gets the keyframe of the same picture (latest wins), and on another loop than the other tab (`--loops`) that
    # happens whenever its thread runs two ticks' frames in one round.
    frames = [
        {(m["seq"], bool(m.get("keyframe"))): m for m in page.messages() if m.get("type") == "frame"}
        for page in (first, second)
    ]
    shared = sorted(frames[0].keys() & frames[1].keys())
    assert len(shared) >= 2, f"frames both tabs received: {shared}"
    different = [key for key in shared if frames[0][key] != frames[1][key]]
    assert different == [], f"frames that differ between the tabs: {different}"
    assert first.page.problems() == [] and second.page.problems() == []


# --- connection --------------------------------------------------------------------------------


def test_page_reconnects_by_itself_after_a_server_restart_and_shows_the_restored_state(start_server, open_page):
    server = start_server()
    dashboard = open_page().open(server)
    server.push({"move": 0.65, "stand": 0.2}, "none")
    dashboard.wait_announced("move", "Move 65%")

    assert server.stop() == 0
    dashboard.page.wait_for("document.body.dataset.state !== 'live'", 5, "the page to notice the server left")
    assert dashboard.page.evaluate("document.getElementById('status-text').textContent") != "live"

    again = start_server(port=server.port, data_dir=server.data_dir)
    dashboard.wait_live(timeout=20)
    assert len([m for m in dashboard.messages() if m.get("type") == "layout"]) == 2, "a new layout after the restart"
    dashboard.wait_announced("move", "Move 65%")
    dashboard.wait_announced("stand", "Stand 20%")
    # It is the new server's stream: a push now reaches the page.
    again.push({"move": 0.7}, "none")
    dashboard.wait_announced("move", "Move 70%")
    assert again.viewers() == 1


def test_hidden_page_receives_no_frames_and_resumes_with_a_fresh_keyframe(server, open_page):
    dashboard = open_page().open(server)
    server.push({"move": 0.5}, "none")
    dashboard.wait_announced("move", "Move 50%")
    server.wait_viewers(1)

    # Freezing a tab hides it first (its visibilitychange handler runs), then stops its tasks.
    # Unfrozen again it stays hidden, as a background tab would be.
    dashboard.page.call("Page.setWebLifecycleState", {"state": "frozen"})
    server.wait_viewers(0)
    dashboard.page.call("Page.setWebLifecycleState", {"state": "active"})
    assert dashboard.page.evaluate("document.visibilityState") == "hidden"
    assert dashboard.page.evaluate("document.body.dataset.state") == "offline"
    received = dashboard.received_count()
    seq = dashboard.seq()

    server.push({"move": 0.3}, {"curve": "linear", "duration": 0.5})
    deadline = time.monotonic() + 10
    while any(r["animating"] for r in server.board()["rings"]):
        assert time.monotonic() < deadline, "the animation did not end"
        time.sleep(0.05)
    time.sleep(0.3)  # the point: nothing arrives, not even late
    assert dashboard.received_count() == received, "a hidden page must receive nothing"
    assert dashboard.seq() == seq
    assert server.viewers() == 0

    dashboard.page.call("Emulation.setFocusEmulationEnabled", {"enabled": True})  # visible again
    dashboard.wait_live()
    dashboard.wait_announced("move", "Move 30%")
    fresh = dashboard.messages(after=received)
    assert fresh[0]["type"] == "layout"
    assert fresh[1]["type"] == "frame" and fresh[1]["keyframe"] is True
    assert {r["id"]: r for r in fresh[1]["rings"]}["move"]["p"] == 0.3
    assert dashboard.page.problems() == []


def test_reduced_motion_gets_each_pushs_end_state_at_once(server, open_page):
    calm = open_page()
    calm.page.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    calm.open(server)
    full = open_page().open(server)
    assert "motion=reduced" in calm.socket_urls()[-1]
    assert "motion=" not in full.socket_urls()[-1]
    calm_before, full_before = calm.received_count(), full.received_count()

    server.push({"move": 0.8}, {"curve": "linear", "duration": 0.6})
    for page in (calm, full):
        page.wait_announced("move", "Move 80%")
    full_frames = full.messages(after=full_before)
    calm_frames = calm.messages(after=calm_before)
    assert len(full_frames) >= 3, "the full stream shows the animation in between"
    assert len(calm_frames) == 1, f"one frame, the end state: got {len(calm_frames)}"
    # The end state at once, on the push's first tick (the full stream's first frame of it), and the
    # same picture as the full stream's last frame.
    calm_end, full_start, full_end = calm_frames[0], full_frames[0], full_frames[-1]
    assert calm_end["seq"] == full_start["seq"] < full_end["seq"]
    calm_rings = {r["id"]: r for r in calm_end["rings"]}
    for ring_values in full_end["rings"]:
        assert calm_rings[ring_values["id"]] == ring_values
    assert calm_rings["move"]["p"] == 0.8

    # The setting changed while watching: the page reconnects with the full stream.
    calm.page.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": ""}]})
    deadline = time.monotonic() + 5
    while len(calm.socket_urls()) < 2:
        assert time.monotonic() < deadline, "no new stream after the setting changed"
        time.sleep(0.02)
    assert "motion=" not in calm.socket_urls()[-1]
    calm.wait_live()
    assert calm.page.problems() == [] and full.page.problems() == []


# --- pixels ------------------------------------------------------------------------------------


def test_at_device_scale_factor_two_the_backing_store_is_doubled_and_edges_are_crisp(server, open_page):
    dashboard = open_page(1280, 800, scale=2).open(server)
    server.push({"move": 0.8}, "none")
    dashboard.wait_announced("move", "Move 80%")
    seq = frame_seq_where(dashboard, lambda rings: rings.get("move", {}).get("p") == 0.8)
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {seq}", 5, f"seq {seq} drawn")

    size = dashboard.canvas_size()
    assert abs(size["width"] - 2 * size["clientWidth"]) <= 1, size
    assert abs(size["height"] - 2 * size["clientHeight"]) <= 1, size

    # What the screen shows: the outer edge of Move at 3 o'clock, a horizontal run of device pixels
    # from inside the stroke to the black beyond it. Crisp = at most one pixel in between (a 1×
    # backing store stretched to 2× by CSS shows two or more).
    layout = dashboard.layout()
    move = ring(layout, "move")
    rect = size["rect"]
    per_unit = rect["width"] / layout["width"]  # CSS pixels per logical unit
    edge_x = rect["x"] + (move["cx"] + move["r"] + move["thickness"] / 2) * per_unit
    edge_y = rect["y"] + move["cy"] * per_unit
    clip = {"x": math.floor(edge_x) - 8, "y": math.floor(edge_y), "width": 16, "height": 1}
    shot = png.decode(dashboard.page.screenshot(clip))
    assert shot.width == 32, "the clip should come at device resolution"
    row = [shot.pixel(x, 1 if shot.height > 1 else 0) for x in range(shot.width)]
    inside = mix(MOVE_START, MOVE_END, 0.25 / 0.8)
    assert close_to(row[0], inside), f"inside the stroke: {row[0]} vs {inside}"
    assert close_to(row[-1], (0, 0, 0), 4), f"beyond the ring: {row[-1]}"
    between = [p for p in row if not close_to(p, inside, 24) and not close_to(p, (0, 0, 0), 24)]
    assert len(between) <= 1, f"a blurred edge: {row}"
    assert dashboard.page.problems() == []


def test_resizes_cleanly_from_phone_to_4k(server, open_page):
    dashboard = open_page(390, 844, scale=3).open(server)
    server.push({"move": 0.5}, "none")
    dashboard.wait_announced("move", "Move 50%")
    # A phone upright and on its side, a laptop at 1.25, a 1080p TV, a 4K TV at 1 and at 2.
    sizes = [(390, 844, 3), (844, 390, 3), (1366, 768, 1.25), (1920, 1080, 1), (3840, 2160, 1), (1920, 1080, 2)]
    for width, height, scale in sizes:
        dashboard.page.resize(width, height, scale)
        dashboard.page.wait_for(
            "(() => { const c = document.getElementById('rings').getBoundingClientRect();"
            " const s = document.getElementById('stage').getBoundingClientRect();"
            f" return window.innerWidth === {width} && window.devicePixelRatio === {scale}"
            " && c.width <= s.width + 1 && c.height <= s.height + 1"
            " && (s.width - c.width <= 1 || s.height - c.height <= 1); })()",
            5, f"the canvas refitted to {width}x{height}@{scale}",
        )
        size = dashboard.canvas_size()
        rect = size["rect"]
        stage = dashboard.page.evaluate("document.getElementById('stage').getBoundingClientRect().toJSON()")
        where = f"at {width}x{height}@{scale}: canvas {rect}, stage {stage}"
        # Inside the stage, as large as the board's aspect ratio allows, centred.
        assert rect["left"] >= stage["left"] - 0.5 and rect["right"] <= stage["right"] + 0.5, where
        assert rect["top"] >= stage["top"] - 0.5 and rect["bottom"] <= stage["bottom"] + 0.5, where
        assert stage["width"] - rect["width"] <= 1 or stage["height"] - rect["height"] <= 1, where
        # At the aspect ratio of the arrangement drawn (portrait on a phone held upright).
        layout = dashboard.layout()
        aspect = layout["width"] / layout["height"]
        assert abs(rect["width"] / rect["height"] - aspect) < 0.01, where
        assert abs((rect["left"] - stage["left"]) - (stage["right"] - rect["right"])) <= 1, where
        # One backing-store pixel per device pixel, and the picture redrawn at the new size.
        assert abs(size["width"] - rect["width"] * scale) <= 1, where
        assert abs(size["height"] - rect["height"] * scale) <= 1, where
        move = next(r for r in layout["rings"] if r["id"] == "move")
        track = dashboard.pixels([on_ring(move, 0.75)], layout)[0]
        assert close_to(track, rgb(move["track"]), 4), f"{where}: the track is not drawn ({track})"
    assert dashboard.page.problems() == []
