"""README.md and docs/ run as a newcomer runs them (issue 34): every ```sh block of a document, in order, against a
live server of its own on a fresh data directory, each block's commands checked for their exit status.

What the blocks assume of a newcomer's machine is set up as README says: `make run` serves the shipped configuration
(here on a free port, which stands in for localhost:8080), `make install` put `ringcast` on PATH (here the built
binary, also standing in for `.build/release/ringcast`). curl is called with `--fail-with-body`, so an HTTP error is a
failure as it is to a reader. A block that cannot run here says why on the line before it,
`<!-- not run: REASON -->` (it needs the outside world, another machine, minutes of benchmark); nothing else is
skipped, and every skip is listed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))

from ringcast import EXECUTABLE, REPOSITORY, Server  # noqa: E402

FENCE = re.compile(r"^```(sh|bash|shell)\s*$")
NOT_RUN = re.compile(r"^<!--\s*not run:\s*(\S.*?)\s*-->$")
BLOCK_TIMEOUT = 60


class Block:
    def __init__(self, document: str, line: int, text: str, skipped: str | None) -> None:
        self.document = document
        self.line = line
        self.text = text
        self.skipped = skipped

    def __repr__(self) -> str:
        return f"{self.document}:{self.line}"


def blocks(document: str, root: Path = REPOSITORY) -> list[Block]:
    """The shell blocks of `document` in order, each with the reason it is not run, if its fence follows one."""
    found: list[Block] = []
    lines = (root / document).read_text().splitlines()
    index = 0
    while index < len(lines):
        if FENCE.match(lines[index]):
            previous = next((line.strip() for line in reversed(lines[:index]) if line.strip()), "")
            marker = NOT_RUN.match(previous)
            end = index + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            found.append(Block(document, index + 1, "\n".join(lines[index + 1 : end]), marker.group(1) if marker else None))
            index = end + 1
        else:
            index += 1
    return found


def documents() -> list[str]:
    names = ["README.md"] + sorted(f"docs/{path.name}" for path in (REPOSITORY / "docs").glob("*.md"))
    return [name for name in names if blocks(name)]


def test_the_marker_and_the_fences_are_read_as_meant(tmp_path: Path) -> None:
    """The reader of blocks, by example: a marked block is skipped with its reason, others run, other languages and
    indented fences are not shell blocks."""
    (tmp_path / "x.md").write_text(
        "text\n<!-- not run: needs the outside world -->\n\n```sh\ncurl https://example.com\n```\n"
        "```json\n{}\n```\n```sh\necho one\necho two\n```\n  ```sh\nindented\n  ```\n"
    )
    found = blocks("x.md", root=tmp_path)
    assert [(block.line, block.text, block.skipped) for block in found] == [
        (4, "curl https://example.com", "needs the outside world"),
        (10, "echo one\necho two", None),
    ]


def tools(directory: Path) -> Path:
    """A directory for PATH: `ringcast` (the built binary, as `make install` puts it on PATH) and a `curl` that fails
    on an HTTP error, with the server's answer on standard output as a reader would see it."""
    directory.mkdir()
    (directory / "ringcast").symlink_to(EXECUTABLE)
    curl = directory / "curl"
    curl.write_text('#!/bin/sh\nexec /usr/bin/curl --fail-with-body --silent --show-error --max-time 15 "$@"\n')
    curl.chmod(0o755)
    return directory


@pytest.mark.parametrize("document", documents())
def test_every_shell_block_runs_in_order(document: str, tmp_path: Path) -> None:
    server = Server(tmp_path / "data")
    failures: list[str] = []
    skipped: list[str] = []
    try:
        address = server.url.removeprefix("http://")
        work = tmp_path / "work"
        work.mkdir()
        environment = dict(
            os.environ,
            PATH=f"{tools(tmp_path / 'bin')}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            RINGCAST_URL=server.url,
            HOME=str(tmp_path),
        )
        environment.pop("RINGCAST_TOKEN", None)
        for block in blocks(document):
            if block.skipped:
                skipped.append(f"{block}: {block.skipped}")
                continue
            script = block.text.replace("localhost:8080", address).replace(".build/release/ringcast", "ringcast")
            try:
                run = subprocess.run(
                    ["bash", "-e", "-o", "pipefail", "-c", script],
                    cwd=work, env=environment, capture_output=True, text=True, timeout=BLOCK_TIMEOUT,
                )
            except subprocess.TimeoutExpired:
                failures.append(f"{block}: still running after {BLOCK_TIMEOUT} s")
                continue
            if run.returncode != 0:
                output = (run.stdout[-600:] + run.stderr[-600:]).strip()
                failures.append(f"{block}: exit status {run.returncode}\n    {output}")
    finally:
        server.stop()
    print(f"{document}: not run, as marked: {skipped or 'none'}")
    assert not failures, f"{document}: blocks that fail when run in order:\n" + "\n".join(failures)
