"""Fixtures: one headless Chromium per test session, a real RingCast server per test, and
dashboard pages that read what the page shows (data attributes, the aria-live mirror, canvas
pixels) and what it received (WebSocket frames seen by the browser's network layer)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdp import Browser, Page  # noqa: E402
from ringcast import Server  # noqa: E402


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    chromium = Browser()
    yield chromium
    chromium.close()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """start_server(port=0, data_dir=tmp/data, config=shipped): a server; every one started is
    stopped (SIGTERM, then SIGKILL) afterwards."""
    started: list[Server] = []

    def start(port: int = 0, data_dir: Path | None = None, config: Path | None = None) -> Server:
        directory = data_dir or tmp_path / "data"
        directory.mkdir(exist_ok=True)
        server = Server(directory, port, config)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def server(start_server: Callable[..., Server]) -> Server:
    return start_server()


class Dashboard:
    """The RingCast page in one tab, read the way a person or a screen reader would."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def open(self, server: Server, query: str = "", live_timeout: float = 15, binary: bool = False) -> "Dashboard":
        """Opens the dashboard. The tests compare what is drawn with the frames the tab received, so
        by default the page is asked for JSON frames (?format=json); `binary` keeps the page's own
        default, the binary encoding."""
        if not binary:
            query = (query + "&" if query else "?") + "format=json"
        self.page.goto(f"{server.url}/{query}")
        self.wait_live(live_timeout)
        return self

    def wait_live(self, timeout: float = 15) -> None:
        self.page.wait_for(
            "document.body.dataset.state === 'live' && document.body.dataset.seq !== undefined",
            timeout, "the page to be live with a frame drawn",
        )

    # --- what is shown ---------------------------------------------------------------------------

    def seq(self) -> int | None:
        value = self.page.evaluate("document.body.dataset.seq ?? null")
        return None if value is None else int(value)

    def announced(self, ring: str) -> str | None:
        """The aria-live mirror's text for one ring, e.g. "Move 80%"."""
        return self.page.evaluate(
            f"document.querySelector('#announcer [data-ring={json.dumps(ring)}]')?.textContent ?? null"
        )

    def wait_announced(self, ring: str, text: str, timeout: float = 10) -> None:
        self.page.wait_for(
            f"document.querySelector('#announcer [data-ring={json.dumps(ring)}]')?.textContent === {json.dumps(text)}",
            timeout, f"the aria-live mirror to say {text!r} for {ring}",
        )

    def canvas_size(self) -> dict:
        return self.page.evaluate(
            "(() => { const c = document.getElementById('rings');"
            " return {width: c.width, height: c.height, clientWidth: c.clientWidth, clientHeight: c.clientHeight,"
            " rect: c.getBoundingClientRect().toJSON()}; })()"
        )

    def pixels(self, points: list[tuple[float, float]], layout: dict) -> list[tuple[int, int, int, int]]:
        """RGBA of the backing-store pixel under each logical point of the board."""
        return self.drawn_pixels(points, layout)[1]

    def drawn_pixels(self, points: list[tuple[float, float]], layout: dict) -> tuple[int, list[tuple[int, ...]]]:
        """The seq drawn and the RGBA under each logical point, read in one task (no frame between)."""
        # Read from a 1:1 copy, so the test's readbacks do not make Chromium warn about the page's
        # own canvas (the "willReadFrequently" hint) — the page never reads its pixels.
        seq, pixels = self.page.evaluate(
            "(() => { const canvas = document.getElementById('rings');"
            f" const sx = canvas.width / {layout['width']}, sy = canvas.height / {layout['height']};"
            " const copy = new OffscreenCanvas(canvas.width, canvas.height);"
            " const ctx = copy.getContext('2d', {willReadFrequently: true});"
            " ctx.drawImage(canvas, 0, 0);"
            f" return [Number(document.body.dataset.seq), {json.dumps(points)}.map(([x, y]) =>"
            " Array.from(ctx.getImageData(Math.floor(x * sx), Math.floor(y * sy), 1, 1).data))]; })()"
        )
        return seq, [tuple(rgba) for rgba in pixels]

    def drawn_window_pixels(self, points: list[tuple[float, float]]) -> tuple[int, list[tuple[int, ...]]]:
        """The seq drawn and the RGBA of the backdrop (the background and its splash over the whole
        window, behind the header and the board) under each point of the window in CSS pixels, read in
        one task. Outside the board's canvas that is what the screen shows."""
        seq, pixels = self.page.evaluate(
            "(() => { const canvas = document.getElementById('backdrop');"
            " const sx = canvas.width / canvas.clientWidth, sy = canvas.height / canvas.clientHeight;"
            " const copy = new OffscreenCanvas(canvas.width, canvas.height);"
            " const ctx = copy.getContext('2d', {willReadFrequently: true});"
            " ctx.drawImage(canvas, 0, 0);"
            f" return [Number(document.body.dataset.seq), {json.dumps(points)}.map(([x, y]) =>"
            " Array.from(ctx.getImageData(Math.floor(x * sx), Math.floor(y * sy), 1, 1).data))]; })()"
        )
        return seq, [tuple(rgba) for rgba in pixels]

    # --- what was received -----------------------------------------------------------------------

    def messages(self, after: int = 0) -> list[dict]:
        """Every WebSocket message the tab received (decoded JSON), from event index `after` on."""
        events = self.page.browser.events(self.page.session, "Network.webSocketFrameReceived")
        return [json.loads(e["params"]["response"]["payloadData"]) for e in events[after:]]

    def received_count(self) -> int:
        return len(self.page.browser.events(self.page.session, "Network.webSocketFrameReceived"))

    def frame(self, seq: int, after: int = 0, timeout: float = 2) -> dict | None:
        """The frame with that seq the tab received (the network event may trail the page a little)."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.messages(after):
                if message.get("type") == "frame" and message["seq"] == seq:
                    return message
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.01)

    def last_seq(self) -> int:
        return max(m["seq"] for m in self.messages() if m.get("type") == "frame")

    def layout_message(self) -> dict:
        """The last layout message the server sent this tab, as sent."""
        layouts = [m for m in self.messages() if m.get("type") == "layout"]
        assert layouts, "the tab received no layout"
        return layouts[-1]

    def layout(self) -> dict:
        """The last layout as the page draws it: the message's board, title and background, the
        `width` and `height` of the arrangement the page chose (data-arrangement), its name and
        index (`arrangement`, `arrangement_index`: which shape of a splash layer it fills), and each
        ring with the place that arrangement gives it (cx, cy, titleText, labelText) merged in."""
        message = self.layout_message()
        name = self.page.evaluate("document.body.dataset.arrangement ?? null")
        names = [a["name"] for a in message["arrangements"]]
        assert name in names, f"the page draws arrangement {name!r}, not one of the layout's {names}"
        index = names.index(name)
        arrangement = message["arrangements"][index]
        places = {place["id"]: place for place in arrangement["rings"]}
        return {
            "board": message["board"],
            "title": message["title"],
            "background": message["background"],
            "width": arrangement["width"],
            "height": arrangement["height"],
            "arrangement": name,
            "arrangement_index": index,
            "rings": [{**ring, **places[ring["id"]]} for ring in message["rings"]],
        }

    def socket_urls(self) -> list[str]:
        return [e["params"]["url"] for e in self.page.browser.events(self.page.session, "Network.webSocketCreated")]


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., Dashboard]]:
    """open_page(width=1280, height=800, scale=1): a fresh tab (closed afterwards), not yet navigated."""
    pages: list[Page] = []

    def open_(width: int = 1280, height: int = 800, scale: float = 1) -> Dashboard:
        page = browser.new_page(width, height, scale)
        pages.append(page)
        return Dashboard(page)

    yield open_
    for page in pages:
        page.close()
