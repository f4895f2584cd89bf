"""A seat's page that comes back after moves were made without it (closed, then opened
again) does not say its own take is the last move, nor mark that slot "last": it kept
its log in the browser, and shows the moves made meanwhile (protocol 1.4), the last of
them the last move."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import create_table, join_by_invite, take_one
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e


def test_the_last_move_is_not_one_s_own_after_moves_made_meanwhile(
    live_server: LiveServer, open_page: Any
) -> None:
    host = open_page("desktop")
    open_lobby(host, live_server)
    create_table(host, fill={"opt-seed": "1"}, **{"seat-1": ""})  # Black: a person
    guest = join_by_invite(host, open_page)
    host.wait_for_selector(".cell.take:not([disabled])")
    take_one(host, "desktop", pick=1)  # seed 1: Eye of newt, no symbol: Bea's turn
    until(host, "document.querySelector('#lastmove').innerText.includes('Ann, you')")
    host.goto("about:blank")  # Ann's page is gone while Bea moves
    until(guest, "document.querySelector('.cell.take:not([disabled])')")
    take_one(guest, "phone")
    until(guest, "!document.querySelector('.cell.take:not([disabled])')")
    host.goto(live_server.url)
    host.wait_for_selector("#board")
    until(host, "document.querySelector('#lastmove').innerText.includes('Bea')")
    shot(host, "desktop-44-back-after-moves")
    last = host.locator("#lastmove").inner_text()
    assert "Ann" not in last and last.startswith("Last move: Black (Bea) takes"), last
    assert "meanwhile" not in host.locator(".log").inner_text()
    # the slot of Bea's take is marked, Ann's is not
    assert host.locator("#board .cell.last").count() == 1
    assert host.errors == []


def test_a_reload_with_no_move_made_meanwhile_keeps_the_last_move(
    live_server: LiveServer, open_page: Any
) -> None:
    host = open_page("desktop")
    open_lobby(host, live_server)
    create_table(host, fill={"opt-seed": "1"}, **{"seat-1": ""})
    join_by_invite(host, open_page)
    host.wait_for_selector(".cell.take:not([disabled])")
    take_one(host, "desktop", pick=1)
    until(host, "document.querySelector('#lastmove').innerText.includes('Ann, you')")
    before = host.locator("#lastmove").inner_text()
    host.reload()  # Bea has not moved: the page's own log is the whole story
    host.wait_for_selector("#board")
    until(host, "document.getElementById('conn').textContent.startsWith('connected')")
    until(host, "document.querySelector('.seats')")
    assert host.locator("#lastmove").inner_text() == before
    assert "meanwhile" not in host.locator(".log").inner_text()
    assert host.errors == []
