"""A new table refused because a game of the person's own runs with nobody at it
(protocol 1.6's ``limit`` of ``server_full``), in a real Chromium against a real server
on loopback: the page left its game against the computer (its seat waits) and was
closed; a new page of the same browser makes a new table, reads why in words (not "the
server is full") in English and in German beside the button it pressed, without
scrolling (a phone's page is long, and the status line at its top out of sight by
then), and its "Back to my game" button takes the seat back."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from server.lobby import Quotas
from tests.helpers.pages import create_table, start_game
from tests.helpers.web import LiveServer, until

pytestmark = pytest.mark.e2e

ONE_UNATTENDED = Quotas(lobby_tables=0, unattended_games=1, bot_games=0)

CONNECTED = {"en": "connected", "de": "verbunden"}

SAID = {
    "en": "A game you started is still running with nobody at it",
    "de": "Eine Partie, die du begonnen hast, läuft noch",
}


IN_VIEW = """arg => {
  const r = document.querySelector(arg).getBoundingClientRect();
  return r.top >= -1 && r.bottom <= innerHeight + 1 && r.height > 0;
}"""
"""The element ``arg`` wholly in the viewport (to a pixel: a scroll to an element at a
fraction of a pixel ends on a whole one)."""


@pytest.fixture
def strict() -> Iterator[LiveServer]:
    live = LiveServer(quotas=ONE_UNATTENDED)
    try:
        yield live
    finally:
        live.stop()


def _unattended(live: LiveServer) -> bool:
    async def read() -> bool:
        return any(
            t.state == "playing" and not t.seating.attended
            for t in live.server.lobby.tables.values()
        )

    return bool(live.call(read()))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_page_back_from_its_game_reads_why_and_goes_back(
    strict: LiveServer, open_page: Any, lang: str
) -> None:
    page = open_page("phone")
    start_game(page, strict, **{"table-name": "Ann's game"})
    page.wait_for_selector(".cell.take")
    page.click('[data-key="leave"]')  # the seat waits for Ann while the game runs
    page.wait_for_selector("#new-table")
    context = page.context
    page.close()  # and the tab is closed
    until_true(lambda: _unattended(strict))

    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.add_init_script(script=f"localStorage.setItem('kk:lang', {lang!r})")
    page.goto(strict.url)
    page.wait_for_selector("#tables")
    until(
        page, "arg => document.getElementById('conn').textContent.startsWith(arg)", CONNECTED[lang]
    )
    create_table(page, "Ann")
    until(page, "!document.getElementById('create-why').hidden")
    said = page.inner_text("#create-why")
    assert said.startswith(SAID[lang]), said
    assert "full" not in said.lower() and "voll" not in said.lower(), said
    back = page.locator("#way-back")
    assert back.is_visible() and back.inner_text() == (
        "Back to my game" if lang == "en" else "Zurück zu meiner Partie"
    )
    for seen in ("#create-why", "#way-back"):
        until(page, IN_VIEW, seen)  # a scroll into view may still be under way
    back.click()
    page.wait_for_selector(".cell")  # the game's grid: the seat is Ann's again
    until(page, "!document.getElementById('way-back')")
    assert not _unattended(strict)
    assert page.errors == []


def until_true(check: Any, timeout: float = 20.0) -> None:
    """Wait until ``check()`` is true (the server's side of what a page did)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "never true"
        time.sleep(0.05)
