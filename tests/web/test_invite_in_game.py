"""The table's links during the game: a seat's *Invite to watch* control (folded, so a
phone's table screen is no longer for it) gives the invite and the watch link of the
waiting screen, a private table's code in them; whoever opens the watch link mid-game
watches, and a spectator's control gives the watch link only, never the invite link."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import new_table, take_one
from tests.helpers.web import LiveServer, shot, until

pytestmark = pytest.mark.e2e

INVITE = ".actions details.invite"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 800}}


def open_invite(page: Any) -> None:
    """Open the table's *Invite to watch* control (a tap on a phone)."""
    summary = page.locator(f"{INVITE} summary")
    summary.scroll_into_view_if_needed()
    summary.click()
    page.locator("#watch-link").wait_for(state="visible")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_seat_invites_a_spectator_during_the_game(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    ann, bea, eve = (open_page(size) for _ in range(3))
    for p in (ann, bea, eve):
        p.set_viewport_size(SIZES[size])
    join = new_table(ann, live_server, "Back room", "2", private=True)
    table, code = join.rsplit("/#/join/", 1)[1].split("/")
    bea.goto(join)
    bea.wait_for_selector("#join-go")
    bea.fill("#player-name", "Bea")
    bea.click("#join-go")
    ann.wait_for_selector("#board")
    bea.wait_for_selector("#board")

    # folded: the table screen shows one small control, not the links
    shot(ann, f"{size}-43-invite-folded", ".actions")
    assert ann.locator(INVITE).count() == 1
    assert not ann.locator("#watch-link").is_visible()
    assert ann.locator(f"{INVITE} summary").inner_text() == "Invite to watch"
    open_invite(ann)
    watch = ann.locator("#watch-link").get_attribute("href")
    assert watch == f"{live_server.url.rstrip('/')}/#/watch/{table}/{code}"
    assert ann.locator("#invite-link").get_attribute("href") == join
    assert ann.locator(f"{INVITE} button").all_inner_texts() == ["Copy link", "Copy link"]
    # a phone's page never grows wider than its screen for the long links
    assert ann.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shot(ann, f"{size}-43-invite-in-game")

    # a redraw (a move) keeps the control open
    mover = ann if ann.locator(".cell.take").count() else bea
    mover.wait_for_selector(".cell.take")
    take_one(mover, size)
    until(ann, "!document.getElementById('lastmove').textContent.startsWith('No card')")
    assert ann.locator("#watch-link").is_visible()

    # a second page opens the watch link mid-game and watches
    eve.goto(watch)
    eve.wait_for_selector("#join-go")
    assert eve.locator("form button").all_inner_texts() == ["Watch", "Back"]
    eve.click("#join-go")
    eve.wait_for_selector("#board")
    until(ann, "document.querySelector('.watching')?.textContent === '1 person watching'")
    # the spectator may pass on what brought them: the watch link, not the invite link
    open_invite(eve)
    assert eve.locator("#watch-link").get_attribute("href") == watch
    assert eve.locator("#invite-link").count() == 0
    assert eve.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shot(eve, f"{size}-43-invite-spectator")
    # Bea never opened hers: still folded
    assert not bea.locator("#watch-link").is_visible()
    for p in (ann, bea, eve):
        assert p.errors == [], p.errors


def test_copy_link_at_the_table_copies_the_watch_link(
    live_server: LiveServer, open_page: Any
) -> None:
    ann = open_page("desktop")
    join = new_table(ann, live_server, "Open table", "2")
    bea = open_page("phone")
    bea.goto(join)
    bea.wait_for_selector("#join-go")
    bea.fill("#player-name", "Bea")
    bea.click("#join-go")
    bea.wait_for_selector("#board")
    open_invite(bea)
    # a public table: its links carry no code
    watch = bea.locator("#watch-link").get_attribute("href")
    assert watch.endswith("/#/watch/" + join.rsplit("/", 1)[1])
    bea.click('[data-key="copy-watch-link"]')
    # copied, or (a browser that gives the page no clipboard) selected to copy by hand
    said = "document.getElementById('status').textContent"
    until(bea, f"/Link copied|Copy the link by hand/.test({said})")
    if "by hand" in bea.locator("#status").inner_text():
        assert bea.evaluate("() => String(getSelection())") == watch
    assert ann.errors == [] and bea.errors == []
