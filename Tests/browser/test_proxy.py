"""RingCast behind Debian's nginx under a path prefix, in real headless Chromium: the page finds
its stream and API next to itself, so it goes live and draws what is pushed, and the control page
pushes through the prefix. nginx runs with deploy/nginx-ringcast.conf, the file
docs/DEPLOYMENT.md tells people to use."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from ringcast import REPOSITORY

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """nginx in the foreground with its own prefix directory, in front of `upstream` at `/rc/`."""

    def __init__(self, directory: Path, upstream: int) -> None:
        directory.mkdir()
        self.port = free_port()
        site = (REPOSITORY / "deploy" / "nginx-ringcast.conf").read_text()
        site = site.replace("server 127.0.0.1:8080;", f"server 127.0.0.1:{upstream};")
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        temporary = "\n".join(
            f"    {kind}_temp_path {directory}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        # As root, nginx's workers would switch to nobody, who cannot enter pytest's directories.
        user = "user root;\n" if os.geteuid() == 0 else ""
        (directory / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {directory}/nginx.pid;\nerror_log {directory}/error.log warn;\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{\n    access_log off;\n{temporary}\n{site}\n}}\n"
        )
        self.log = directory / "error.log"
        self.process = subprocess.Popen(
            [NGINX, "-p", str(directory), "-c", str(directory / "nginx.conf")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 10
        while True:
            assert self.process.poll() is None, f"nginx exited: {self.process.stderr.read().decode()}"
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not listen within 10 s"
                time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}/rc/"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def proxy(server, tmp_path: Path):
    if not Path(NGINX).exists():
        pytest.fail("nginx is missing: `make test` installs it (apt-get install nginx)")
    nginx = Nginx(tmp_path / "nginx", server.port)
    yield nginx
    nginx.stop()


def test_under_a_prefix_the_page_goes_live_and_draws_a_push_and_the_control_page_pushes(server, proxy, open_page):
    dashboard = open_page()
    dashboard.page.goto(proxy.url + "?format=json")
    dashboard.wait_live()
    # The stream went through the proxy: the tab's socket is under the prefix.
    sockets = [e["params"]["url"] for e in dashboard.page.browser.events(dashboard.page.session, "Network.webSocketCreated")]
    assert sockets and all(url.startswith(f"ws://127.0.0.1:{proxy.port}/rc/ws?") for url in sockets), sockets
    server.push({"move": 0.8})
    dashboard.wait_announced("move", "Move 80%")

    control = open_page()
    control.page.goto(proxy.url + "control.html")
    control.page.wait_for(
        "document.querySelector('#board option[value=main]') !== null", 15, "the control page to list the boards"
    )
    control.page.evaluate(
        "document.getElementById('countdown-seconds').value = '30';"
        "document.getElementById('countdown-form').requestSubmit();"
    )
    deadline = time.monotonic() + 10
    while True:
        countdown = next(r for r in server.board()["rings"] if r["id"] == "countdown")
        if countdown.get("target") == 1:
            break
        assert time.monotonic() < deadline, f"the control page's countdown did not arrive: {countdown}"
        time.sleep(0.05)
    errors = control.page.evaluate(
        "[...document.querySelectorAll('.error')].filter(e => !e.hidden).map(e => e.textContent)"
    )
    assert errors == [], errors


def test_under_a_prefix_the_boards_page_and_its_links_stay_under_it(server, proxy, open_page):
    dashboard = open_page()
    dashboard.page.goto(proxy.url + "?format=json")
    dashboard.wait_live()
    href = dashboard.page.evaluate("document.getElementById('boards-link').href")
    assert href == proxy.url + "boards", href
    dashboard.page.goto(href)
    links = dashboard.page.wait_for(
        "(() => { const links = [...document.querySelectorAll('#board-list a')].map((a) => a.href);"
        " return links.length > 0 && links; })()",
        10, "the board index",
    )
    assert links == [proxy.url + "?board=main", proxy.url + "control.html?board=main"], links
    assert dashboard.page.problems() == []
