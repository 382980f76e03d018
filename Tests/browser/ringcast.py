"""The real RingCast server as a child process, and typed helpers for its REST API."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
EXECUTABLE = Path(os.environ.get("RINGCAST_BIN", REPOSITORY / ".build" / "debug" / "ringcast"))
LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:(\d+))")


class Server:
    """`ringcast serve` on 127.0.0.1 with the shipped page and (unless told) config, a given data
    directory and port."""

    def __init__(self, data_dir: Path, port: int = 0, config: Path | None = None, timeout: float = 20) -> None:
        if not EXECUTABLE.exists():
            raise RuntimeError(f"{EXECUTABLE} is missing: run `swift build --build-tests` (make test does)")
        self.data_dir = data_dir
        self.log_path = data_dir.parent / f"{data_dir.name}-server-{time.monotonic_ns()}.log"
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [
                str(EXECUTABLE), "serve",
                "--host", "127.0.0.1",
                "--port", str(port),
                "--data-dir", str(data_dir),
                "--config", str(config or REPOSITORY / "config" / "ringcast.json"),
                "--web-root", str(REPOSITORY / "web"),
            ],
            cwd=REPOSITORY,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._log,
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def read_stdout() -> None:
            for raw in self.process.stdout:
                lines.put(raw.decode(errors="replace"))
            lines.put(None)

        threading.Thread(target=read_stdout, name="ringcast-stdout", daemon=True).start()
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.stop()
                raise RuntimeError(f"the server did not say it was listening within {timeout} s; {self.log_tail()}")
            if line is None:
                self.stop()
                raise RuntimeError(f"the server exited before listening; {self.log_tail()}")
            if match := LISTENING.search(line):
                self.url = match.group(1)
                self.port = int(match.group(2))
                break

    # --- lifecycle -------------------------------------------------------------------------------

    def stop(self, timeout: float = 10) -> int | None:
        """SIGTERM (viewers get 1001), then SIGKILL if it has not exited within timeout."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        self._log.close()
        return self.process.returncode

    def log_tail(self) -> str:
        self._log.flush()
        return "server log: " + self.log_path.read_text(errors="replace")[-3000:]

    # --- REST ------------------------------------------------------------------------------------

    def request(
        self, method: str, path: str, body: object | None = None, timeout: float = 10, token: str | None = None
    ) -> tuple[int, object]:
        """`token`: sent as `Authorization: Bearer`, for a server configured with one."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        try:
            return status, json.loads(text) if text else None
        except ValueError:
            return status, text.decode(errors="replace")

    def push(self, rings: dict, animation: object = "none", board: str = "main") -> dict:
        """PATCH the board and insist on 200; returns the board it answers with."""
        status, answer = self.request("PATCH", f"/api/v1/boards/{board}", {"rings": rings, "animation": animation})
        assert status == 200, f"PATCH answered {status}: {answer}"
        return answer

    def board(self, board: str = "main") -> dict:
        status, answer = self.request("GET", f"/api/v1/boards/{board}")
        assert status == 200, f"GET board answered {status}: {answer}"
        return answer

    def viewers(self, board: str = "main") -> int:
        status, answer = self.request("GET", "/api/v1/boards")
        assert status == 200, f"GET boards answered {status}: {answer}"
        return next(b["viewers"] for b in answer["boards"] if b["name"] == board)

    def wait_viewers(self, count: int, board: str = "main", timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while (seen := self.viewers(board)) != count:
            assert time.monotonic() < deadline, f"board {board} has {seen} viewers, expected {count} within {timeout} s"
            time.sleep(0.05)
