"""What a second play-test of the web client found, held down: a clock with a reserve
said the reserve as if it came on top of the time left, an invite or watch link opened
in a tab that shows the page already did nothing, every spectator of the page chatted
as "kupferkessel-web (spectator)", the places at the end were numbered twice ("1. 1st:"),
and a person who resigned a three-player game was told "Waiting for ..." as if a move
of theirs were to come."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e


def test_the_reserve_is_a_part_of_the_time_left_and_the_places_are_numbered_once(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("phone")
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    page.fill("#opt-move", "45")
    page.fill("#opt-reserve", "120")
    page.click("#create-go")
    page.wait_for_selector(".cell.take")
    # 45 s of the move and 120 s of reserve: 2:45 in all, not 2:45 and 2:00 more
    clock = page.locator("#turn-clock").inner_text()
    assert re.fullmatch(r"Your time: 2:4\d left, 2:00 of it reserve, running", clock), clock
    page.click('[data-key="resign"]')
    page.click('[data-key="resign-yes"]')
    page.wait_for_selector("#end-h")
    places = page.locator(".places li")
    assert places.count() == 2
    assert places.first.inner_text().startswith("1st: ")
    # the words say the place: the list shows no number of its own before them
    assert places.first.evaluate("li => getComputedStyle(li).listStyleType") == "none"
    shot(page, "phone-32-places-once")
    assert page.errors == []


def test_a_link_opened_in_the_open_page_is_followed_and_a_spectator_speaks_by_name(
    live_server: LiveServer, open_page: Any
) -> None:
    host = open_page("desktop")
    open_lobby(host, live_server)
    host.fill("#player-name", "Ann")
    host.click("#new-table")
    host.select_option("#opt-players", "3")
    host.select_option("#seat-1", "")  # Black waits for a person; Lilac is a computer
    host.click("#create-go")
    host.wait_for_selector("#invite-link")
    link = host.locator("#invite-link").get_attribute("href")
    table = host.locator("#table-id").inner_text()

    # the link pasted into the address bar of a tab at the lobby: only the part after
    # "#" changes, so the page is not loaded again; it shows the invitation all the same
    guest = open_page("phone")
    open_lobby(guest, live_server)
    guest.goto(link)
    guest.wait_for_selector("#join-about")
    assert guest.locator("#join-table").input_value() == table
    assert guest.evaluate("location.hash") == ""
    guest.fill("#player-name", "Bea")
    guest.click("#join-go")
    host.wait_for_selector("#board")
    guest.wait_for_selector("#board")

    # at a table, a link is not followed: the page says why
    guest.goto(link.replace("/#/join/", "/#/watch/"))
    until(guest, "document.getElementById('status').textContent.includes('leave it first')")
    assert guest.locator("#board").count() == 1

    # a spectator who typed a name chats under it, not under the page's program name
    watcher = open_page("phone")
    open_lobby(watcher, live_server)
    watcher.fill("#player-name", "Sam")
    watcher.click(f'[data-key="watch-{table}"]')
    watcher.wait_for_selector("#board")
    watcher.fill("#chat-text", "good luck both")
    watcher.press("#chat-text", "Enter")
    for page in (host, guest, watcher):
        until(page, "document.querySelector('.chat-lines').innerText.includes('good luck')")
        assert page.locator(".chat-lines li").last.inner_text() == "Sam (spectator): good luck both"

    # three players: who resigned has no move to wait for, and is told what follows
    guest.click('[data-key="resign"]')
    guest.click('[data-key="resign-yes"]')
    until(guest, "document.getElementById('q-h').textContent === 'You resigned'")
    assert "A computer plays your seat to the end" in guest.locator("#question").inner_text()
    assert "Waiting for" not in guest.locator("#question").inner_text()
    shot(guest, "phone-33-resigned-of-three")
    for page in (host, guest, watcher):
        assert page.errors == []


# the pawns, the spaces and "land" beside the grid whose words do not fit inside them;
# and of those, the ones in the grid's first or last column (left or right of it)
CUT_RING = """() => [...document.querySelectorAll('#board > .ring')].flatMap(x => {
  const i = [...x.parentNode.children].indexOf(x);
  const side = i % 8 === 0 || i % 8 === 7;
  const cut = x.scrollWidth > x.clientWidth + 1 || x.scrollHeight > x.clientHeight + 1;
  return cut ? [`${x.textContent}${side ? ' (side)' : ''}`] : [];
})"""
# what stands in the first or last column: pawns' tags and "land"
ON_SIDES = """() => [...document.querySelectorAll('#board > .pawn, #board > .land')]
  .filter(x => [0, 7].includes([...x.parentNode.children].indexOf(x) % 8))
  .map(x => x.classList.contains('pawn') ? x.textContent.slice(-2) : 'land')"""


PHONES = [(320, 568), (390, 844)]
"""The narrowest phone and a usual one."""


def test_a_pawn_and_land_beside_the_grid_fit_a_phone(
    live_server: LiveServer, open_page: Any
) -> None:
    """At 320 px the spaces left and right of the grid were 13 px inside: White's "Wh"
    and "land" were cut there; at 390 px "land" was. One game, each of its turns read
    at both sizes from the same page, resized (the grid's layout is its style sheet's
    alone; a game a size played the same game again)."""
    page = open_page("phone")
    page.set_viewport_size({"width": PHONES[0][0], "height": PHONES[0][1]})
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    page.fill("#opt-seed", "7")
    page.click("#create-go")
    seen: set[str] = set()
    for _ in range(12):
        until(page, "document.querySelector('.cell.take') || document.getElementById('end-h')")
        if page.locator("#end-h").count():
            break
        takes = page.locator(".cell.take")
        for width, height in PHONES:
            page.set_viewport_size({"width": width, "height": height})
            assert page.evaluate(CUT_RING) == [], width
            seen.update(page.evaluate(ON_SIDES))
            for i in range(takes.count()):
                # chosen, not taken: where the pawn would land shows (a card chosen
                # already is not tapped again: a second tap takes a card of one answer)
                if takes.nth(i).get_attribute("aria-pressed") != "true":
                    takes.nth(i).tap()
                assert page.evaluate(CUT_RING) == [], (
                    width,
                    takes.nth(i).get_attribute("data-card"),
                )
                seen.update(page.evaluate(ON_SIDES))
        if {"Wh", "land"} <= seen:
            break
        # the farthest move: White walks round to the sides of the grid soonest
        values = [int(takes.nth(i).locator(".v").inner_text()) for i in range(takes.count())]
        farthest = takes.nth(values.index(max(values)))
        if farthest.get_attribute("aria-pressed") != "true":
            farthest.tap()
        page.locator(".options button").first.tap()
        until(page, "!document.querySelector('.cell.take[disabled]')")
    assert {"Wh", "land"} <= seen, seen
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"phone{width}-34-beside-the-grid", "#board")
    assert page.errors == []


END = "document.getElementById('end-h')"


def test_the_last_move_says_the_last_card_was_discarded(
    live_server: LiveServer, open_page: Any
) -> None:
    """The game's last card may be kept or discarded: "Last move" said only that it was
    taken, as if it went into the kettle. Ann discards it whenever she takes it; the
    game is played again (at most four times) until its last card was discarded."""
    page = open_page("desktop", pace="off")
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    for _ in range(4):
        page.click("#new-table")
        page.click("#create-go")
        page.wait_for_selector("#board")
        while not page.locator("#end-h").count():
            until(page, f"document.querySelector('.cell.take:not([disabled])') || {END}")
            if page.locator("#end-h").count():
                break
            page.locator(".cell.take").first.click()
            answers = page.locator(".options button")
            texts = answers.all_inner_texts()
            pick = next((i for i, t in enumerate(texts) if "discard it" in t), 0)
            answers.nth(pick).click()
            until(page, "!document.querySelector('.cell.take[disabled]')")
        until(page, "document.querySelector('.log').innerText.includes('The game is over')")
        last = page.locator("#lastmove").inner_text()
        discarded = "discards" in page.locator(".log-lines").inner_text()
        assert last.endswith("(the last card), and discards it.") == discarded, last
        if discarded:
            break
        page.click('[data-key="to-lobby"]')
        page.wait_for_selector("#new-table")
    assert discarded, "no game's last card was discarded"
    assert page.errors == []


def test_the_settings_close_on_a_tap_beside_them_and_on_esc(
    live_server: LiveServer, open_page: Any
) -> None:
    """The settings panel covers the turn banner and the top of the grid on a phone,
    and only a second tap on "Settings" closed it."""
    page = open_page("phone")
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.click("#create-go")
    page.wait_for_selector(".cell.take")
    settings = page.locator("#settings")
    page.locator("#settings summary").tap()
    assert settings.get_attribute("open") is not None
    page.select_option("#pace", "off")  # a choice inside it keeps it open
    page.locator(".settings-panel .muted").tap()
    assert settings.get_attribute("open") is not None
    page.locator(".lastmove").tap()  # beside it: closed
    until(page, "!document.getElementById('settings').open")
    assert page.evaluate("localStorage.getItem('kk:pace')") == "off"
    page.focus("#settings summary")
    page.keyboard.press("Enter")
    assert settings.get_attribute("open") is not None
    page.focus("#pace")
    page.keyboard.press("Escape")
    until(page, "!document.getElementById('settings').open")
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    assert page.errors == []


def test_the_invite_links_stay_inside_a_320_px_phone(
    live_server: LiveServer, open_page: Any
) -> None:
    """A private table's invite and watch links are one long word each: they pushed
    the waiting screen some 70 px wider than a 320 px phone, to be scrolled sideways."""
    page = open_page("phone")
    page.set_viewport_size({"width": 320, "height": 568})
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.select_option("#seat-1", "")
    page.check("#opt-private")
    page.click("#create-go")
    page.wait_for_selector("#invite-link")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    for link in ("#invite-link", "#watch-link"):
        box = page.locator(link).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 320, (link, box)
    shot(page, "phone320-35-invite-links")
    assert page.errors == []
