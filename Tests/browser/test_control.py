"""The control page for any board (issue 23): built from the board's GET, one card per ring or widget
with the controls its kind takes (progress or value and max, counter value, text, colours, label,
title, status), and forms to add and delete rings. Each control is one REST call; the server's error
is shown in one line when it refuses."""

from __future__ import annotations

import json
import time

# A board with no task ring at all: the page used to show holes for it.
OPS = {
    "title": "Operations",
    "rings": [
        {"id": "build", "title": "Build", "label": "fraction", "max": 20},
        {"id": "deploy", "title": "Deploy"},
        {"id": "users", "title": "Users", "kind": "counter", "value": 5},
        {"id": "motd", "title": "Message", "kind": "text", "text": "Hello"},
        {"id": "cpu", "title": "CPU", "kind": "indicator"},
        {"id": "mood", "title": "Mood", "kind": "gradient", "colors": ["#ff0000", "#00ff00", "#0000ff"]},
        {"id": "all", "title": "All", "kind": "derived", "sources": ["build", "deploy"]},
    ],
}

# The card parts (data-part) each entry must show, and none other.
PARTS = {
    "build": ["slider", "steps", "value", "colours", "label", "title", "status"],
    "deploy": ["slider", "steps", "progress", "colours", "label", "title", "status"],
    "users": ["counter", "title"],
    "motd": ["text", "title"],
    "cpu": ["slider", "steps", "colours", "title"],
    "mood": ["colours", "title"],
    "all": ["colours", "label", "title", "status"],
}


def ops_server(server):
    status, answer = server.request("PUT", "/api/v1/boards/ops", OPS)
    assert status == 201, f"PUT /api/v1/boards/ops answered {status}: {answer}"
    return server


def open_control(open_page, server, board: str = "ops"):
    control = open_page(1280, 900)
    control.page.goto(f"{server.url}/control.html?board={board}")
    control.page.wait_for(
        f"document.querySelectorAll('#rings fieldset.ring').length === {len(OPS['rings'])}", 15, "a card per entry"
    )
    return control


def ring(server, ring_id: str, board: str = "ops") -> dict | None:
    return next((r for r in server.board(board)["rings"] if r["id"] == ring_id), None)


def wait_ring(server, ring_id: str, check, what: str, board: str = "ops", timeout: float = 10) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        current = ring(server, ring_id, board)
        if current is not None and check(current):
            return current
        assert time.monotonic() < deadline, f"{what} did not reach the server: {current}"
        time.sleep(0.05)


def card(ring_id: str) -> str:
    return f"document.querySelector('#rings fieldset.ring[data-ring={json.dumps(ring_id)}]')"


def fill_and_submit(control, ring_id: str, form: str, values: dict[str, str]) -> None:
    """Sets the inputs of one card's form (selector → value, "change" sent) and submits it."""
    assignments = "".join(
        f"{{ const input = form.querySelector({json.dumps(selector)}); input.value = {json.dumps(value)};"
        " input.dispatchEvent(new Event('change', {bubbles: true})); }"
        for selector, value in values.items()
    )
    control.page.evaluate(
        f"(() => {{ const form = {card(ring_id)}.querySelector({json.dumps(form)}); {assignments}"
        " form.requestSubmit(); })()"
    )


def visible_errors(control) -> list[str]:
    return control.page.evaluate("[...document.querySelectorAll('.error')].filter(e => !e.hidden).map(e => e.textContent)")


def test_every_entry_of_a_board_without_task_rings_gets_the_controls_of_its_kind(server, open_page):
    ops_server(server)
    control = open_control(open_page, server)
    shown = control.page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#rings fieldset.ring')].map((card) =>"
        " [card.dataset.ring, [...card.querySelectorAll('[data-part]')].map((part) => part.dataset.part)]))"
    )
    assert shown == PARTS, shown
    # A gradient card has a colour per stop; a ring its start and end; every card a Delete.
    assert control.page.evaluate(f"{card('mood')}.querySelectorAll('.card-colour').length") == 3
    assert control.page.evaluate(f"{card('deploy')}.querySelectorAll('.card-colour').length") == 2
    assert control.page.evaluate("document.querySelectorAll('#rings .card-delete').length") == len(OPS["rings"])
    assert visible_errors(control) == []
    assert control.page.problems() == []


def test_each_control_sends_its_change_and_the_page_shows_what_the_server_answers(server, open_page):
    ops_server(server)
    control = open_control(open_page, server)
    control.page.evaluate("document.getElementById('animation-kind').value = 'none';"
                          "document.getElementById('animation-kind').dispatchEvent(new Event('change', {bubbles: true}))")

    fill_and_submit(control, "build", "form[data-part=value]", {".card-value-input": "12"})
    wait_ring(server, "build", lambda r: r["target"] == 0.6 and r["text"] == "12/20", "build's value 12 of 20")
    control.page.wait_for(f"{card('build')}.querySelector('.ring-now').textContent.includes('12/20')", 10, "12/20")

    fill_and_submit(control, "build", "form[data-part=value]", {".card-value-input": "", ".card-max-input": "40"})
    wait_ring(server, "build", lambda r: r["max"] == 40, "build's new maximum")

    fill_and_submit(control, "deploy", "form[data-part=progress]", {".card-progress-input": "0.25"})
    wait_ring(server, "deploy", lambda r: r["target"] == 0.25, "deploy's progress")

    fill_and_submit(control, "deploy", "form[data-part=title]", {".card-title-input": "Ship it"})
    wait_ring(server, "deploy", lambda r: r["title"] == "Ship it", "deploy's title")
    control.page.wait_for(f"{card('deploy')}.querySelector('.ring-title').textContent === 'Ship it'", 10, "the title")

    fill_and_submit(control, "deploy", "form[data-part=label]", {".card-label-format": "text", ".card-label-text": "soon"})
    wait_ring(server, "deploy", lambda r: r["label"] == {"text": "soon"}, "deploy's fixed label")

    fill_and_submit(control, "users", "form[data-part=counter]", {".card-number-input": "42"})
    wait_ring(server, "users", lambda r: r["text"].strip() == "42", "the counter's 42")

    fill_and_submit(control, "motd", "form[data-part=text]", {".card-text-input": "Bye"})
    wait_ring(server, "motd", lambda r: r["text"] == "Bye", "the text widget's text")

    control.page.evaluate(
        f"(() => {{ const inputs = {card('mood')}.querySelectorAll('.card-colour');"
        " ['#112233', '#445566', '#778899'].forEach((colour, i) => { inputs[i].value = colour; });"
        f" {card('mood')}.querySelector('form[data-part=colours]').requestSubmit(); }})()"
    )
    wait_ring(
        server, "mood", lambda r: [c[:7] for c in r["colors"]] == ["#112233", "#445566", "#778899"], "the gradient's colours"
    )

    control.page.evaluate(f"{card('cpu')}.querySelector('[data-progress=\"0.5\"]').click()")
    wait_ring(server, "cpu", lambda r: r["target"] == 0.5, "the indicator at 50 %")
    assert visible_errors(control) == []
    assert control.page.problems() == []


def test_a_status_is_set_and_a_refusal_is_the_servers_own_words(server, open_page):
    ops_server(server)
    control = open_control(open_page, server)
    control.page.evaluate("document.getElementById('animation-kind').value = 'none';"
                          "document.getElementById('animation-kind').dispatchEvent(new Event('change', {bubbles: true}))")
    fill_and_submit(control, "deploy", "form[data-part=status]", {".card-status-select": "failure"})
    wait_ring(server, "deploy", lambda r: r.get("status") == "failure", "the status failure")
    control.page.wait_for("document.getElementById('status').dataset.kind === 'ok'", 10, "the page to say it was set")

    # The ring is deleted behind the page's back: the page's next status is refused, in the server's words.
    status, _ = server.request("DELETE", "/api/v1/boards/ops/rings/deploy")
    assert status == 204
    status, answer = server.request("PATCH", "/api/v1/boards/ops", {"rings": {"deploy": {"status": "success"}}})
    assert status == 404, answer
    fill_and_submit(control, "deploy", "form[data-part=status]", {".card-status-select": "success"})
    message = answer["error"]["message"]
    errors = control.page.wait_for(
        f"(() => {{ const e = {card('deploy')}.querySelector(':scope > .error'); return !e.hidden && e.textContent; }})()",
        10, "the card's error line",
    )
    assert message in errors and f"[HTTP {status}]" in errors, errors
    assert "\n" not in errors


def test_a_ring_is_added_and_deleted_from_the_page(server, open_page):
    ops_server(server)
    control = open_control(open_page, server)
    control.page.evaluate(
        "document.getElementById('add-id').value = 'lint';"
        "document.getElementById('add-title').value = 'Lint';"
        "document.getElementById('add-kind').value = 'plain';"
        "document.getElementById('add-form').requestSubmit();"
    )
    wait_ring(server, "lint", lambda r: r["title"] == "Lint", "the added ring")
    control.page.wait_for(f"{card('lint')} !== null", 10, "the new ring's card")

    # A refused addition says why in one line: the id is taken.
    control.page.evaluate(
        "document.getElementById('add-id').value = 'lint';"
        "document.getElementById('add-form').requestSubmit();"
    )
    refusal = control.page.wait_for(
        "(() => { const e = document.getElementById('add-error'); return !e.hidden && e.textContent; })()", 10, "the refusal"
    )
    assert "lint" in refusal and "[HTTP 409]" in refusal, refusal

    # Delete asks to be pressed again before it deletes.
    control.page.evaluate(f"{card('lint')}.querySelector('.card-delete').click()")
    assert ring(server, "lint") is not None, "one press deletes nothing"
    control.page.evaluate(f"{card('lint')}.querySelector('.card-delete').click()")
    deadline = time.monotonic() + 10
    while ring(server, "lint") is not None:
        assert time.monotonic() < deadline, "the ring was not deleted"
        time.sleep(0.05)
    control.page.wait_for(f"{card('lint')} === null", 10, "the card to go")
    problems = [p for p in control.page.problems() if "status of 409" not in p]
    assert problems == [], problems


def test_without_a_board_in_its_address_the_page_controls_the_default_board(server, open_page):
    ops_server(server)
    control = open_page(1280, 900)
    control.page.goto(f"{server.url}/control.html")
    control.page.wait_for("document.querySelectorAll('#rings fieldset.ring').length === 9", 15, "main's nine cards")
    assert control.page.evaluate("document.getElementById('board').value") == "main"
    assert control.page.evaluate("new URL(location.href).searchParams.get('board')") == "main"
