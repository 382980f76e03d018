"""A small Chrome DevTools Protocol client for headless Chromium, with no dependencies.

Chromium is started with --remote-debugging-pipe: it reads CDP messages from file descriptor 3
and writes them to 4, each a JSON object ended by a NUL byte (what Puppeteer and Playwright use
by default). One reader thread splits the stream, hands each response to the call waiting for its
id and keeps every event, per session, for the tests to wait on.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from typing import Any, Callable


# What Chromium answers an evaluation that a navigation overtook.
NAVIGATING = ("Inspected target navigated or closed", "Execution context was destroyed", "Cannot find context")


class CDPError(Exception):
    """A CDP call answered with an error, or the browser went away."""


def find_chromium() -> str:
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise CDPError("no Chromium found: install Debian's `chromium` (make browser-deps) or set CHROMIUM")


def _high_fd(fd: int) -> int:
    """A duplicate of fd numbered 10 or above, so the shell's 3<& and 4>& cannot overwrite it."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class Browser:
    """One headless Chromium process and its CDP pipe. Pages are sessions attached to targets."""

    def __init__(self, extra_args: list[str] | None = None) -> None:
        self.profile = tempfile.mkdtemp(prefix="ringcast-chromium-")
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        to_browser_r, from_browser_w = _high_fd(to_browser_r), _high_fd(from_browser_w)
        args = [
            "--headless=new",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-sync",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-default-apps",
            "--mute-audio",
            # Several pages watch at once in these tests; none may be throttled as a background tab.
            "--disable-background-timer-throttling",
            "--disable-backgrounding-occluded-windows",
            "--disable-renderer-backgrounding",
            # Canvas drawn in software everywhere, so pixels read back are the same on every machine.
            "--disable-gpu",
            "--force-color-profile=srgb",
            "--hide-scrollbars",
            "about:blank",
        ]
        if os.geteuid() == 0:
            args.insert(0, "--no-sandbox")  # Chromium refuses to run its sandbox as root
        args += extra_args or []
        # bash puts our pipe ends on 3 and 4, where Chromium expects them, and closes the originals
        # (sh may be dash, whose redirections take one-digit descriptors only).
        script = f'exec "$0" "$@" 3<&{to_browser_r} 4>&{from_browser_w} {to_browser_r}<&- {from_browser_w}>&-'
        self.process = subprocess.Popen(
            ["bash", "-c", script, find_chromium(), *args],
            pass_fds=(to_browser_r, from_browser_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._out = to_browser_w
        self._in = from_browser_r
        self._write_lock = threading.Lock()
        self._lock = threading.Condition()
        self._next_id = 0
        self._answers: dict[int, dict] = {}
        self._events: dict[str | None, list[dict]] = {}
        self._closed = False
        self._stderr_tail: list[bytes] = []
        threading.Thread(target=self._read, name="cdp-reader", daemon=True).start()
        threading.Thread(target=self._drain_stderr, name="chromium-stderr", daemon=True).start()
        self.version = self.call("Browser.getVersion", timeout=30)["product"]

    # --- transport -------------------------------------------------------------------------------

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._in, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for raw in messages:
                message = json.loads(raw)
                with self._lock:
                    if "id" in message:
                        self._answers[message["id"]] = message
                    else:
                        self._events.setdefault(message.get("sessionId"), []).append(message)
                    self._lock.notify_all()
        with self._lock:
            self._closed = True
            self._lock.notify_all()

    def _drain_stderr(self) -> None:
        for line in self.process.stderr:
            self._stderr_tail = (self._stderr_tail + [line])[-20:]

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        """Sends a call without waiting; answer(id) collects it. Lets a test ask two pages at once."""
        with self._lock:
            self._next_id += 1
            call_id = self._next_id
        message: dict[str, Any] = {"id": call_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        with self._write_lock:
            try:
                os.write(self._out, data)
            except OSError as error:
                raise CDPError(f"the browser went away: {error}; {self._stderr()}") from error
        return call_id

    def answer(self, call_id: int, timeout: float = 10) -> dict:
        deadline = time.monotonic() + timeout
        with self._lock:
            while call_id not in self._answers:
                if self._closed:
                    raise CDPError(f"the browser went away; {self._stderr()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CDPError(f"no answer to CDP call {call_id} within {timeout} s")
                self._lock.wait(left)
            message = self._answers.pop(call_id)
        if "error" in message:
            raise CDPError(f"{message['error'].get('message')} ({message['error'].get('data', '')})")
        return message.get("result", {})

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 10) -> dict:
        return self.answer(self.send(method, params, session), timeout)

    def events(self, session: str | None, method: str | None = None) -> list[dict]:
        """The events received so far for a session, optionally of one method, oldest first."""
        with self._lock:
            return [e for e in self._events.get(session, []) if method is None or e["method"] == method]

    def wait_event(
        self, session: str | None, method: str, predicate: Callable[[dict], bool] = lambda _: True,
        after: int = 0, timeout: float = 10,
    ) -> dict:
        """The first event `method` of the session at index `after` or later matching predicate(params)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                for event in self._events.get(session, [])[after:]:
                    if event["method"] == method and predicate(event.get("params", {})):
                        return event
                if self._closed:
                    raise CDPError(f"the browser went away; {self._stderr()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CDPError(f"no {method} event within {timeout} s")
                self._lock.wait(left)

    def event_count(self, session: str | None) -> int:
        with self._lock:
            return len(self._events.get(session, []))

    def _stderr(self) -> str:
        return "chromium said: " + b"".join(self._stderr_tail).decode(errors="replace")[-2000:]

    # --- pages -----------------------------------------------------------------------------------

    def new_page(self, width: int = 1280, height: int = 800, scale: float = 1) -> "Page":
        target = self.call("Target.createTarget", {"url": "about:blank", "newWindow": True})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, target, session, width, height, scale)

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5)
        except CDPError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        for fd in (self._out, self._in):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """One tab, driven through its CDP session: console and exceptions collected from the start."""

    def __init__(self, browser: Browser, target: str, session: str, width: int, height: int, scale: float):
        self.browser = browser
        self.target = target
        self.session = session
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.resize(width, height, scale)

    def call(self, method: str, params: dict | None = None, timeout: float = 10) -> dict:
        return self.browser.call(method, params, self.session, timeout)

    def resize(self, width: int, height: int, scale: float = 1) -> None:
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False},
        )

    def goto(self, url: str, timeout: float = 15) -> None:
        mark = self.browser.event_count(self.session)
        answer = self.call("Page.navigate", {"url": url}, timeout)
        if answer.get("errorText"):
            raise CDPError(f"navigation to {url} failed: {answer['errorText']}")
        self.browser.wait_event(self.session, "Page.loadEventFired", after=mark, timeout=timeout)

    def evaluate(self, expression: str, timeout: float = 10) -> Any:
        return self._value(self.call("Runtime.evaluate", self._evaluation(expression), timeout))

    def evaluate_later(self, expression: str) -> int:
        """Starts an evaluation and returns at once; value_of(id) collects it."""
        return self.browser.send("Runtime.evaluate", self._evaluation(expression), self.session)

    def value_of(self, call_id: int, timeout: float = 10) -> Any:
        return self._value(self.browser.answer(call_id, timeout))

    @staticmethod
    def _evaluation(expression: str) -> dict:
        return {"expression": expression, "returnByValue": True, "awaitPromise": True}

    @staticmethod
    def _value(result: dict) -> Any:
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise CDPError(f"page threw: {details.get('exception', {}).get('description') or details.get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 10, what: str | None = None) -> Any:
        """Polls a JavaScript expression until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                last = self.evaluate(expression)
            except CDPError as error:
                # A page that navigates (a form that reloads it with new parameters) has no context to
                # evaluate in for a moment; the wait goes on in the new one.
                if not any(text in str(error) for text in NAVIGATING):
                    raise
                last = None
            if last:
                return last
            if time.monotonic() >= deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what or expression} (last: {last!r})")
            time.sleep(0.02)

    def screenshot(self, clip: dict | None = None) -> bytes:
        """PNG of the viewport, or of clip {x, y, width, height} in CSS pixels, at device resolution."""
        params: dict[str, Any] = {"format": "png"}
        if clip is not None:
            params["clip"] = {**clip, "scale": 1}
        return base64.b64decode(self.call("Page.captureScreenshot", params, timeout=30)["data"])

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions and browser log errors so far."""
        found = []
        for event in self.browser.events(self.session):
            params = event.get("params", {})
            if event["method"] == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append(f"exception: {details.get('exception', {}).get('description') or details.get('text')}")
            elif event["method"] == "Runtime.consoleAPICalled" and params["type"] in ("error", "warning", "assert"):
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
                found.append(f"console.{params['type']}: {text}")
            elif event["method"] == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
                entry = params["entry"]
                found.append(f"log {entry['level']} ({entry['source']}): {entry['text']} {entry.get('url', '')}")
        return found

    def close(self) -> None:
        try:
            self.browser.call("Target.closeTarget", {"targetId": self.target})
        except CDPError:
            pass
