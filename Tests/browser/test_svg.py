"""The SVG of a board (GET /api/v1/boards/{board}.svg, DESIGN §14) drawn by Chromium next to the
page's own canvas at the same state, and the page framed by another site's page (embedOrigins).

At rest both pictures are of the same frame, so they are compared pixel by pixel where the ring's
tip, its arc and its track are, and on average over its label and its title (SVG text and canvas
text are laid out by the same fonts, but not to the same sub-pixel)."""

from __future__ import annotations

import http.server
import json
import math
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from ringcast import REPOSITORY

# How far a sampled pixel of the SVG may be from the canvas's, per channel; and a region's average.
TOLERANCE = 24
REGION_TOLERANCE = 12


def on_ring(ring: dict, turn: float) -> tuple[float, float]:
    angle = -math.pi / 2 + 2 * math.pi * turn
    return ring["cx"] + ring["r"] * math.cos(angle), ring["cy"] + ring["r"] * math.sin(angle)


def read_both(dashboard, svg_path: str, points: list[tuple[float, float]], boxes: list[tuple[float, float, float, float]], layout: dict):
    """The page canvas's and the SVG's RGBA at each logical point and their mean RGB over each logical box
    (x, y, width, height), the SVG drawn by the browser onto a canvas the size of the page's."""
    script = """
    (async () => {
      const canvas = document.getElementById('rings');
      const sx = canvas.width / %(width)s, sy = canvas.height / %(height)s;
      const image = new Image();
      image.src = %(src)s;
      await image.decode();
      function read(source) {
        const copy = new OffscreenCanvas(canvas.width, canvas.height);
        const ctx = copy.getContext('2d', {willReadFrequently: true});
        ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
        const points = %(points)s.map(([x, y]) =>
          Array.from(ctx.getImageData(Math.floor(x * sx), Math.floor(y * sy), 1, 1).data));
        const means = %(boxes)s.map(([x, y, w, h]) => {
          const data = ctx.getImageData(Math.floor(x * sx), Math.floor(y * sy),
            Math.max(1, Math.floor(w * sx)), Math.max(1, Math.floor(h * sy))).data;
          const sum = [0, 0, 0];
          for (let i = 0; i < data.length; i += 4) { sum[0] += data[i]; sum[1] += data[i + 1]; sum[2] += data[i + 2]; }
          return sum.map((s) => s / (data.length / 4));
        });
        return {points, means};
      }
      return {seq: Number(document.body.dataset.seq), canvas: read(canvas), svg: read(image)};
    })()
    """ % {
        "width": layout["width"], "height": layout["height"], "src": json.dumps(svg_path),
        "points": json.dumps(points), "boxes": json.dumps(boxes),
    }
    return dashboard.page.evaluate(script)


def text_box(spot: dict, text: str) -> tuple[float, float, float, float]:
    """A box round a text spot: the em box's height, about the text's width."""
    width = spot.get("width") or len(text) * spot["size"] * 0.6
    left = {"left": spot["x"], "right": spot["x"] - width}.get(spot["align"], spot["x"] - width / 2)
    return left, spot["y"] - spot["size"] / 2, width, spot["size"]


@pytest.mark.parametrize("arrangement", ["landscape", "portrait"])
def test_svg_at_rest_matches_the_page_at_the_tip_and_the_label(server, open_page, arrangement):
    server.push({"move": 0.8, "exercise": 0.55, "stand": 0.3}, {"curve": "linear", "duration": 0.3})
    width, height = (1280, 800) if arrangement == "landscape" else (600, 1200)
    dashboard = open_page(width, height).open(server)
    dashboard.wait_announced("move", "Move 80%")
    dashboard.wait_announced("stand", "Stand 30%")
    layout = dashboard.layout()
    assert layout["arrangement"] == arrangement
    rings = {ring["id"]: ring for ring in layout["rings"]}
    move = rings["move"]
    frame = dashboard.frame(dashboard.last_seq())
    label = next(r for r in frame["rings"] if r["id"] == "move")["label"] if frame else "80%"
    points = [on_ring(move, 0.8), on_ring(move, 0.4), on_ring(move, 0.05), on_ring(move, 0.9),
              on_ring(rings["stand"], 0.3), on_ring(rings["stand"], 0.6)]
    boxes = [text_box(move["labelText"], label), text_box(move["titleText"], move["title"])]
    read = read_both(dashboard, f"/api/v1/boards/main.svg?at=end&arrangement={arrangement}", points, boxes, layout)
    names = ["move tip", "move arc", "move start", "move track", "stand tip", "stand track"]
    for name, page, svg in zip(names, read["canvas"]["points"], read["svg"]["points"]):
        assert all(abs(a - b) <= TOLERANCE for a, b in zip(page[:3], svg[:3])), f"{name}: page {page}, svg {svg}"
    for name, page, svg in zip(["label", "title"], read["canvas"]["means"], read["svg"]["means"]):
        assert all(abs(a - b) <= REGION_TOLERANCE for a, b in zip(page, svg)), f"{name}: page {page}, svg {svg}"
    # What is compared is drawn at all: the tip and the label are not the (black) background.
    assert max(read["svg"]["points"][0][:3]) > 100, f"no tip drawn: {read['svg']['points'][0]}"
    assert max(read["svg"]["means"][0]) > 5, f"no label drawn in the SVG: {read['svg']['means'][0]}"
    assert dashboard.page.problems() == []


def test_badge_renders(server, open_page):
    server.push({"move": 0.8})
    dashboard = open_page(800, 600)
    dashboard.page.goto(f"{server.url}/api/v1/boards/main/rings/move.svg?badge=1")
    size = dashboard.page.evaluate(
        "(() => { const svg = document.documentElement; const box = svg.getBoundingClientRect();"
        " return {tag: svg.tagName, width: box.width, height: box.height,"
        " label: svg.querySelector('text.label').textContent,"
        " right: Math.max(...[...svg.querySelectorAll('text')].map((t) => t.getBBox().x + t.getBBox().width))}; })()")
    assert size["tag"] == "svg" and size["height"] == 40, size
    assert size["label"] == "80%"
    assert size["right"] <= size["width"], f"a text runs past the badge's edge: {size}"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class's name)
        pass


class FramingSite:
    """Another origin: a tiny HTTP server on another loopback address's port whose page frames a URL.
    The board is served as http://localhost:PORT and the site as http://127.0.0.1:OTHER: two origins,
    and two sites, so Chromium applies frame-ancestors across them."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        (directory / "favicon.ico").write_bytes(b"")
        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), lambda *args: QuietHandler(*args, directory=str(directory)))
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def frame(self, url: str) -> None:
        (self.directory / "index.html").write_text(
            f'<!doctype html><title>wiki</title><iframe src="{url}" width="800" height="500"></iframe>')

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def framing_site(tmp_path: Path) -> Iterator[FramingSite]:
    directory = tmp_path / "site"
    directory.mkdir()
    site = FramingSite(directory)
    yield site
    site.close()


@pytest.mark.parametrize("embedded", [True, False])
def test_another_sites_page_frames_the_board_only_with_embed_origins(start_server, open_page, framing_site, tmp_path, embedded):
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    if embedded:
        config["embedOrigins"] = [framing_site.origin]
    path = tmp_path / "ringcast.json"
    path.write_text(json.dumps(config))
    server = start_server(config=path)
    port = server.url.rsplit(":", 1)[1]
    framing_site.frame(f"http://localhost:{port}/?board=main")
    page = open_page(1000, 700).page
    page.goto(framing_site.origin + "/")
    blocked = "violates the following Content Security Policy directive: \"frame-ancestors"
    if embedded:
        # The framed page is live: its WebSocket (to its own origin, the server's) is a viewer of main.
        server.wait_viewers(1, timeout=15)
        assert not any(blocked in problem for problem in page.problems()), page.problems()
    else:
        page.wait_for("true", 1)  # one round trip, so the console has caught up with the load
        deadline = time.monotonic() + 10
        while not any(blocked in problem for problem in page.problems()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any(blocked in problem for problem in page.problems()), page.problems()
        assert server.viewers() == 0
