"""The truth about who played, said in the page's words: the end of a game says how it
ended for each seat (resigned, a computer's takes for it) and why a seat that resigned
places last whatever its points; a rated table's end says each seat's rating change
(protocol 1.4); and a seat taken up in a second tab of the same browser is said plainly
in both tabs, the first one letting it go for good."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.helpers.pages import (
    GAME_TIMEOUT,
    join_by_invite,
    my_turn,
    play_to_the_end,
    register,
    take_one,
)
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e


@pytest.mark.long
def test_the_end_says_who_resigned_and_why_they_place_last(
    live_server: LiveServer, open_page: Any
) -> None:
    ann = open_page("phone")
    ann.set_viewport_size({"width": 360, "height": 640})
    open_lobby(ann, live_server)
    ann.fill("#player-name", "Ann")
    ann.click("#new-table")
    ann.wait_for_selector("#create-go")
    ann.select_option("#opt-players", "3")
    ann.select_option("#seat-1", "")  # Black: Bea; Lilac: a computer player
    ann.click("#create-go")
    bea = join_by_invite(ann, open_page)
    bea.click('[data-key="resign"]')
    bea.click('[data-key="resign-yes"]')
    until(bea, "document.getElementById('q-h')?.textContent === 'You resigned'")
    play_to_the_end(ann, "phone")
    until(ann, "document.querySelectorAll('.places li').length === 3")
    places = ann.locator(".places").inner_text()
    bea_line = ann.locator('.places li[data-seat="1"]').inner_text()
    # Bea resigned, and a computer played her seat to the end: both said, with a count
    assert bea_line.startswith("3rd: Black (Bea)"), places
    assert re.search(r"\(resigned; a computer made (1 of its takes|\d+ of its takes)\)", bea_line)
    assert "resigned" not in ann.locator('.places li[data-seat="0"]').inner_text()
    # a resigned seat places last whatever its points: the page says why
    assert "places after the others, whatever the points" in ann.inner_text("#places-why")
    assert not re.search(r"\b1 points\b", places), places
    shot(ann, "phone360x640-53-end-resigned")
    assert ann.errors == [] and bea.errors == []


@pytest.mark.long
def test_a_rated_game_s_end_says_each_seat_s_rating_change(
    live_server: LiveServer, open_page: Any
) -> None:
    ada = open_page("desktop")
    register(ada, live_server, "Ada")
    grace = open_page("phone")
    register(grace, live_server, "Grace")
    open_lobby(ada, live_server)
    ada.click("#new-table")
    ada.wait_for_selector("#opt-rated")
    ada.check("#opt-rated")
    ada.click("#create-go")
    ada.wait_for_selector("#invite-link")
    grace.goto(ada.locator("#invite-link").get_attribute("href"))
    grace.wait_for_selector("#join-go")
    grace.click("#join-go")
    ada.wait_for_selector("#board")
    grace.wait_for_selector("#board")
    # a rated game counts once every seat made 3 takes of its own: then Grace resigns.
    # Each seat plays every turn it is given, also past its 3 (a wand, or the other's
    # corner stop, gives it another): a turn left alone would time out after a minute
    # and a computer would make that take (the line would say so)
    made = {"desktop": 0, "phone": 0}
    deadline = time.monotonic() + GAME_TIMEOUT
    while min(made.values()) < 3:
        assert time.monotonic() < deadline, made
        for page, size in ((ada, "desktop"), (grace, "phone")):
            if my_turn(page):
                take_one(page, size)
                made[size] += 1
                until(
                    page,
                    "!document.querySelector('.options button') || "
                    "document.querySelector('.options button').disabled",
                )
        ada.wait_for_timeout(30)
    grace.click('[data-key="resign"]')
    grace.click('[data-key="resign-yes"]')
    for page in (ada, grace):
        until(page, "document.querySelectorAll('.places li .rating').length === 2")
        ada_line = page.locator('.places li[data-seat="0"]').inner_text()
        grace_line = page.locator('.places li[data-seat="1"]').inner_text()
        # both new: a first rated game each, Ada up from nothing, Grace who resigned down
        assert re.search(r"; rating -?\d+\.\d \(a first rated game\)$", ada_line), ada_line
        assert "(resigned)" in grace_line, grace_line
        assert re.search(r"; rating -?\d+\.\d \(a first rated game\)$", grace_line), grace_line
    shot(grace, "phone-54-end-rated")
    assert ada.errors == [] and grace.errors == []


def test_a_second_tab_taking_the_seat_is_said_in_both_tabs(
    live_server: LiveServer, open_page: Any
) -> None:
    first = open_page("phone")
    open_lobby(first, live_server)
    first.fill("#player-name", "Ann")
    first.click("#new-table")
    first.wait_for_selector("#create-go")
    first.click("#create-go")
    first.wait_for_selector(".cell.take:not([disabled])")
    second = first.context.new_page()  # a tab of the same browser: its storage, its seat
    second.errors = []
    second.goto(live_server.url)
    second.wait_for_selector("#board")
    until(second, "document.getElementById('conn').textContent.startsWith('connected')")
    # the first tab says where its seat went, and lets it go for good
    until(first, "document.getElementById('away-h')?.textContent !== undefined")
    assert first.inner_text("#away-h") == "Your seat is played in another tab"
    assert "Another tab of this browser took your seat up" in first.inner_text("main")
    assert first.inner_text("#status") == ""  # no error besides the notice
    # the second one says it plays the seat now, where it came from
    until(second, "document.querySelector('.log').innerText.includes('This tab plays your seat')")
    assert "another tab of this browser had it, and let it go" in second.inner_text(".log")
    # the first tab does not take it back by itself: the second keeps playing
    second.wait_for_selector(".cell.take:not([disabled])")
    take_one(second, "phone")
    until(second, "document.getElementById('lastmove').textContent.includes('Ann, you')")
    assert first.locator("#away-h").count() == 1
    shot(first, "phone-55-seat-in-another-tab")
    assert first.errors == [] and second.errors == []
