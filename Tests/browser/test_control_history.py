"""The control page's history charts (issue 33): each ring that keeps history gets a step line of what
GET …/rings/{ring}/history answers (1 h, 24 h or 7 d), the newest point in words and an aria-label
summing it up; read again after each push the page makes; "no history yet" without points; a failed
read shown on the card's error line. Each test has its own server (a fresh port and data directory)."""

from __future__ import annotations

import json

STATS = {
    "title": "Stats",
    "rings": [
        {"id": "users", "title": "Users", "kind": "counter", "value": 5},
        {"id": "idle", "title": "Idle"},
        {"id": "motd", "title": "Message", "kind": "text", "text": "Hello"},
        {"id": "mood", "title": "Mood", "kind": "gradient", "colors": ["#ff0000", "#0000ff"]},
    ],
}


def open_control(open_page, server, board: str, cards: int):
    control = open_page(1280, 900)
    control.page.goto(f"{server.url}/control.html?board={board}")
    control.page.wait_for(
        f"document.querySelectorAll('#rings fieldset.ring').length === {cards}", 15, f"{cards} cards"
    )
    return control


def card(ring_id: str) -> str:
    return f"document.querySelector('#rings fieldset.ring[data-ring={json.dumps(ring_id)}]')"


def chart(control, ring_id: str) -> dict | None:
    """What one card's history shows: the polyline's corners, the aria-label, the newest point's words,
    whether the plot and the empty text are shown, and the history's error line (None: no history part)."""
    return control.page.evaluate(
        f"(() => {{ const box = {card(ring_id)}?.querySelector('.card-history'); if (!box) return null;"
        " const error = box.querySelector('.history-error');"
        " return {count: box.dataset.points ?? null,"
        " line: box.querySelector('.history-line').getAttribute('points'),"
        " label: box.querySelector('.history-chart').getAttribute('aria-label'),"
        " role: box.querySelector('.history-chart').getAttribute('role'),"
        " newest: box.querySelector('.history-newest').textContent,"
        " plot: !box.querySelector('.history-plot').hidden,"
        " empty: box.querySelector('.history-empty').hidden ? null : box.querySelector('.history-empty').textContent,"
        " error: error.hidden ? null : error.textContent, errorClass: error.className,"
        " span: box.querySelector('.history-span').value}; })()"
    )


def wait_count(control, ring_id: str, count: int, timeout: float = 10) -> dict:
    control.page.wait_for(
        f"{card(ring_id)}?.querySelector('.card-history')?.dataset.points === {json.dumps(str(count))}",
        timeout, f"{ring_id}'s chart to show {count} points",
    )
    return chart(control, ring_id)


def corners(line: str) -> list[tuple[float, float]]:
    return [tuple(float(n) for n in pair.split(",")) for pair in line.split()]


def levels(line: str) -> list[float]:
    """The line's heights in drawing order, each once (a step line repeats one at each corner). SVG's y
    grows downwards: a higher value has a smaller y."""
    ys = [y for _, y in corners(line)]
    return [y for i, y in enumerate(ys) if i == 0 or y != ys[i - 1]]


def history_requests(control) -> list[str]:
    return [
        e["params"]["request"]["url"]
        for e in control.page.browser.events(control.page.session, "Network.requestWillBeSent")
        if "/history?" in e["params"]["request"]["url"]
    ]


def test_the_chart_follows_the_pushed_values_and_the_pages_own_pushes(server, open_page):
    for progress in (0.1, 0.55, 0.3):
        server.push({"move": progress})
    control = open_control(open_page, server, "main", 9)

    shown = wait_count(control, "move", 3)
    assert shown["plot"] and shown["empty"] is None and shown["error"] is None, shown
    low, high, last = levels(shown["line"])
    assert high < last < low, f"55 % above 30 % above 10 %: {shown['line']}"
    xs = [x for x, _ in corners(shown["line"])]
    assert xs == sorted(xs) and 0 <= xs[0] and xs[-1] <= 300, shown["line"]
    assert shown["role"] == "img"
    assert shown["label"] == "Move: 3 points over the last hour, from 10% to 30% (highest 55%)", shown["label"]
    assert shown["newest"].startswith("Newest 30% · "), shown["newest"]
    assert shown["span"] == "1h"

    # A ring never pushed has no points yet; rings of kinds that keep none have no chart.
    exercise = wait_count(control, "exercise", 0)
    assert exercise["empty"] == "no history yet" and not exercise["plot"], exercise
    assert exercise["label"] == "Exercise: no points over the last hour"
    assert chart(control, "countdown") is None

    # The page's own push (move's 100 % button) is on the chart once the server has answered it.
    control.page.evaluate(f"{card('move')}.querySelector('[data-progress=\"1\"]').click()")
    shown = wait_count(control, "move", 4)
    heights = levels(shown["line"])
    assert len(heights) == 4 and heights[-1] == min(heights) and heights[-1] < high, shown["line"]
    assert shown["label"] == "Move: 4 points over the last hour, from 10% to 100%", shown["label"]
    assert shown["newest"].startswith("Newest 100% · "), shown["newest"]

    # Another span: the page asks for it, and says so.
    control.page.evaluate(
        f"(() => {{ const select = {card('move')}.querySelector('.history-span'); select.value = '24h';"
        " select.dispatchEvent(new Event('change', {bubbles: true})); })()"
    )
    control.page.wait_for(
        f"{card('move')}.querySelector('.history-chart').getAttribute('aria-label')"
        ".startsWith('Move: 4 points over the last 24 hours')",
        10, "the 24 h chart",
    )
    asked = history_requests(control)
    assert any("/api/v1/boards/main/rings/move/history?since=24h&points=200" in url for url in asked), asked
    assert all("points=200" in url for url in asked), asked
    assert not any("/rings/countdown/" in url for url in asked), asked
    assert control.page.problems() == []


def test_a_counter_is_charted_by_its_numbers_and_an_empty_history_says_so(server, open_page):
    status, answer = server.request("PUT", "/api/v1/boards/stats", STATS)
    assert status == 201, f"PUT /api/v1/boards/stats answered {status}: {answer}"
    for value in (3, 9):
        server.push({"users": {"value": value}}, board="stats")
    control = open_control(open_page, server, "stats", len(STATS["rings"]))

    # Created at 5, then 3, then 9: the line goes down, then up above where it began.
    users = wait_count(control, "users", 3)
    start, dip, top = levels(users["line"])
    assert top < start < dip, users["line"]
    assert users["label"] == "Users: 3 points over the last hour, from 5 to 9 (lowest 3)", users["label"]
    assert users["newest"].startswith("Newest 9 · "), users["newest"]

    idle = wait_count(control, "idle", 0)
    assert idle["empty"] == "no history yet" and not idle["plot"] and idle["line"] == "" and idle["newest"] == "", idle
    assert chart(control, "motd") is None and chart(control, "mood") is None
    assert control.page.problems() == []


def test_a_failed_read_shows_the_servers_words_on_the_cards_error_line(server, open_page):
    status, answer = server.request("PUT", "/api/v1/boards/stats", STATS)
    assert status == 201, f"PUT /api/v1/boards/stats answered {status}: {answer}"
    control = open_control(open_page, server, "stats", len(STATS["rings"]))
    wait_count(control, "users", 1)

    # The ring goes behind the page's back; its card asks for another span and is refused.
    status, _ = server.request("DELETE", "/api/v1/boards/stats/rings/users")
    assert status == 204
    status, refusal = server.request("GET", "/api/v1/boards/stats/rings/users/history?since=7d&points=200")
    assert status == 404, refusal
    control.page.evaluate(
        f"(() => {{ const select = {card('users')}.querySelector('.history-span'); select.value = '7d';"
        " select.dispatchEvent(new Event('change', {bubbles: true})); })()"
    )
    text = control.page.wait_for(
        f"(() => {{ const e = {card('users')}.querySelector('.history-error'); return !e.hidden && e.textContent; }})()",
        10, "the history's error line",
    )
    assert text == f"History: {refusal['error']['message']} (field: ring) [HTTP 404]", text
    shown = chart(control, "users")
    assert "error" in shown["errorClass"].split(), shown
    # The last chart stays as it was.
    assert shown["plot"] and shown["count"] == "1", shown
    problems = [p for p in control.page.problems() if "status of 404" not in p]
    assert problems == [], problems
