"""Host names and other sites in real headless Chromium (issue 21). This Chromium resolves the made-up
names below to 127.0.0.1 (--host-resolver-rules), as an attacker's DNS does in DNS rebinding: for the
browser, a page on http://evil.example:PORT/ is then the same origin as the RingCast server on PORT.
Such a page loads (the static files are the same for everyone) but can neither watch nor read nor
write; a page on an allowedOrigins origin writes through CORS and watches, a page on any other
origin can do neither, and the server's own page still watches with allowedOrigins set."""

from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path
from typing import Callable, Iterator

import pytest
from cdp import Browser, Page
from ringcast import REPOSITORY

NAMES = ["evil.example", "tv.example"]


@pytest.fixture(scope="module")
def resolving_browser() -> Iterator[Browser]:
    chromium = Browser(["--host-resolver-rules=" + ", ".join(f"MAP {name} 127.0.0.1" for name in NAMES)])
    yield chromium
    chromium.close()


@pytest.fixture
def tab(resolving_browser: Browser) -> Iterator[Callable[[], Page]]:
    pages: list[Page] = []

    def open_() -> Page:
        page = resolving_browser.new_page()
        pages.append(page)
        return page

    yield open_
    for page in pages:
        page.close()


class OtherSite:
    """Another site: a plain web server on its own port whose pages hold nothing of RingCast."""

    def __init__(self) -> None:
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                body = b"<!doctype html><title>another site</title><p>another site"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, name="other-site", daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def other_site() -> Iterator[OtherSite]:
    site = OtherSite()
    yield site
    site.stop()


def patch(page: Page, url: str, progress: float) -> dict:
    """The page's own fetch of a PATCH with a JSON body and an Idempotency-Key (so, cross-origin, a
    preflight first): its status, body and readable ETag, or the error the browser gave."""
    return page.evaluate(
        f"fetch({json.dumps(url)}, {{method: 'PATCH',"
        " headers: {'Content-Type': 'application/json', 'Idempotency-Key': String(Math.random())},"
        f" body: JSON.stringify({{rings: {{move: {progress}}}, animation: 'none'}})}})"
        ".then(async r => ({status: r.status, body: await r.text(), etag: r.headers.get('ETag')}),"
        " e => ({error: String(e)}))"
    )


def first_message(page: Page, url: str) -> dict:
    """Opens a WebSocket from the page: the first message's type and code, and the close code."""
    return page.evaluate(
        "new Promise(resolve => { const socket = new WebSocket(" + json.dumps(url) + ");"
        " let first = null;"
        " socket.onmessage = e => { first = first ?? JSON.parse(e.data);"
        "   if (first.type !== 'error') { resolve({type: first.type}); socket.close(); } };"
        " socket.onclose = e => resolve({type: first?.type ?? null, code: first?.code ?? null, close: e.code}); })"
    )


def move_target(server) -> float | None:
    return next(ring for ring in server.board()["rings"] if ring["id"] == "move").get("target")


def test_a_page_under_a_rebound_name_loads_but_can_neither_watch_nor_read_nor_write(server, tab):
    page = tab()
    page.goto(f"http://evil.example:{server.port}/?format=json")
    page.wait_for(
        "!document.getElementById('problem').hidden && document.getElementById('problem').dataset.code === 'host_not_allowed'",
        15, "the page to say the server does not answer to its name",
    )
    title = page.evaluate("document.getElementById('problem-title').textContent")
    assert f"evil.example:{server.port}" in title, title

    # Same-origin for the browser, so no preflight and no CORS: only the Host tells.
    answer = patch(page, "api/v1/boards/main", 0.9)
    assert answer.get("status") == 421, answer
    assert json.loads(answer["body"])["error"]["code"] == "host_not_allowed", answer
    assert page.evaluate("fetch('api/v1/boards/main').then(r => r.status)") == 421
    created = page.evaluate(
        "fetch('api/v1/boards/pwned', {method: 'PUT', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({template: 'single'})}).then(r => r.status)"
    )
    assert created == 421
    assert move_target(server) is None
    assert server.request("GET", "/api/v1/boards/pwned")[0] == 404

    # The server's own names, in the same browser: live, and they write.
    for name in ("localhost", "127.0.0.1"):
        own = tab()
        own.goto(f"http://{name}:{server.port}/?format=json")
        own.wait_for("document.body.dataset.state === 'live'", 15, f"the page on {name} to go live")
        answer = patch(own, "api/v1/boards/main", 0.5)
        assert answer.get("status") == 200, answer
    assert move_target(server) == 0.5


def test_a_page_on_an_allowed_origin_writes_and_watches_through_cors_and_another_site_cannot(
    start_server, tab, other_site: OtherSite, tmp_path: Path
):
    allowed = f"http://tv.example:{other_site.port}"
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    config["allowedOrigins"] = [allowed]
    path = tmp_path / "ringcast.json"
    path.write_text(json.dumps(config))
    server = start_server(config=path)
    api = f"{server.url}/api/v1/boards/main"
    stream = f"ws://127.0.0.1:{server.port}/ws?board=main&format=json&refusal=message"

    tv = tab()
    tv.goto(allowed + "/")
    answer = patch(tv, api, 0.7)
    assert answer.get("status") == 200, answer
    assert answer["etag"], f"the ETag is not exposed to the page: {answer}"
    assert move_target(server) == 0.7
    assert first_message(tv, stream) == {"type": "layout"}

    elsewhere = tab()
    elsewhere.goto(f"http://evil.example:{other_site.port}/")
    refused = patch(elsewhere, api, 0.1)
    assert "error" in refused, f"another site's page wrote: {refused}"
    assert move_target(server) == 0.7
    watched = first_message(elsewhere, stream)
    assert watched == {"type": "error", "code": "origin_not_allowed", "close": 4403}, watched

    # With allowedOrigins set, the server's own page still watches (it was refused with 403).
    own = tab()
    own.goto(f"{server.url}/?format=json")
    own.wait_for("document.body.dataset.state === 'live'", 15, "the server's own page to go live")
