"""When the page cannot show a board it says why, on screen, in the server's words."""

from __future__ import annotations

import json
import signal
from pathlib import Path

from ringcast import REPOSITORY


def problem(dashboard) -> dict:
    return dashboard.page.evaluate(
        "({hidden: document.getElementById('problem').hidden,"
        " code: document.getElementById('problem').dataset.code ?? null,"
        " title: document.getElementById('problem-title').textContent,"
        " detail: document.getElementById('problem-detail').textContent,"
        " links: [...document.querySelectorAll('#problem-links a')].map(a => [a.textContent, a.href])})"
    )


def wait_problem(dashboard, code: str, timeout: float = 10) -> dict:
    dashboard.page.wait_for(
        f"!document.getElementById('problem').hidden && document.getElementById('problem').dataset.code === {json.dumps(code)}",
        timeout, f"the page to show the {code} problem",
    )
    return problem(dashboard)


def test_an_unknown_board_is_named_with_links_to_the_boards_there_are(server, open_page):
    dashboard = open_page()
    dashboard.page.goto(f"{server.url}/?board=nope")
    shown = wait_problem(dashboard, "not_found")
    assert "nope" in shown["title"], shown
    assert shown["links"] == [["main", f"{server.url}/?board=main"], ["All boards", f"{server.url}/boards"]], shown
    # A refusal is final: the page stops retrying and says so in its status.
    dashboard.page.wait_for("document.body.dataset.state === 'refused'", 5, "the refused state")

    dashboard.page.goto(shown["links"][0][1] + "&format=json")
    dashboard.wait_live()
    assert problem(dashboard)["hidden"]


def test_a_default_board_that_does_not_exist_is_named_with_a_link_to_the_boards(start_server, open_page, tmp_path: Path):
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    config["defaultBoard"] = "lobby"
    path = tmp_path / "ringcast.json"
    path.write_text(json.dumps(config))
    server = start_server(config=path)

    dashboard = open_page()
    dashboard.page.goto(f"{server.url}/?kiosk=1")
    shown = wait_problem(dashboard, "not_found")
    assert shown["title"] == "This server's default board does not exist", shown
    assert "lobby" in shown["detail"] and "defaultBoard" in shown["detail"], shown
    assert shown["links"] == [["main", f"{server.url}/?kiosk=1&board=main"], ["All boards", f"{server.url}/boards"]], shown
    dashboard.page.wait_for("document.body.dataset.state === 'refused'", 5, "the refused state")


def test_a_board_behind_a_read_token_says_a_token_is_needed_then_that_a_wrong_one_was_refused(start_server, open_page, tmp_path: Path):
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    config["readToken"] = "read-secret-1"
    path = tmp_path / "ringcast.json"
    path.write_text(json.dumps(config))
    server = start_server(config=path)

    dashboard = open_page()
    dashboard.page.goto(f"{server.url}/")
    shown = wait_problem(dashboard, "unauthorized")
    assert shown["title"] == "This board needs a read token", shown
    assert "?token=" in shown["detail"], shown

    dashboard.page.goto(f"{server.url}/?token=wrong-token-9")
    shown = wait_problem(dashboard, "unauthorized")
    assert shown["title"] == "The token was refused", shown

    dashboard.page.goto(f"{server.url}/?token=read-secret-1&format=json")
    dashboard.wait_live()
    assert problem(dashboard)["hidden"]


def test_a_board_behind_a_read_token_asks_for_it_and_shows_the_rings_once_it_is_entered(start_server, open_page, tmp_path: Path):
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    config["readToken"] = "read-secret-1"
    path = tmp_path / "ringcast.json"
    path.write_text(json.dumps(config))
    server = start_server(config=path)

    dashboard = open_page()
    dashboard.page.goto(f"{server.url}/?board=main")
    wait_problem(dashboard, "unauthorized")
    assert dashboard.page.evaluate("!document.getElementById('token-form').hidden")
    # Typed in and sent as a person would: the form's own submit event.
    dashboard.page.evaluate(
        "(() => { const form = document.getElementById('token-form');"
        " form.querySelector('input').value = 'read-secret-1'; form.requestSubmit(); })()"
    )
    dashboard.page.wait_for("window.location.search.includes('token=read-secret-1')", 10, "the page opened with the token")
    dashboard.wait_live()
    assert problem(dashboard)["hidden"]
    assert dashboard.page.evaluate("new URLSearchParams(window.location.search).get('board')") == "main"
    # No token form on a page that shows its board, nor under a problem that is not about a token.
    assert dashboard.page.evaluate("document.getElementById('token-form').hidden")


def test_a_server_that_went_away_is_said_with_the_retry_countdown(start_server, open_page):
    server = start_server()
    dashboard = open_page().open(server)
    server.stop()
    shown = wait_problem(dashboard, "unreachable")
    assert shown["title"] == "Cannot reach the RingCast server", shown
    assert shown["detail"].startswith("Trying again in "), shown


def test_a_board_a_reload_removes_says_so_instead_of_reconnecting(start_server, open_page, tmp_path: Path):
    config = json.loads((REPOSITORY / "config" / "ringcast.json").read_text())
    path = tmp_path / "ringcast.json"
    path.write_text(json.dumps(config))
    server = start_server(config=path)
    dashboard = open_page().open(server)

    config["boards"][0]["name"] = "renamed"
    path.write_text(json.dumps(config))
    server.process.send_signal(signal.SIGHUP)
    shown = wait_problem(dashboard, "closed")
    assert shown["title"] == "The server stopped showing this board", shown
    assert shown["detail"] == "board removed.", shown
    dashboard.page.wait_for("document.body.dataset.state === 'refused'", 5, "the refused state")
