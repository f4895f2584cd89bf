"""What a play-test of the web client found, held down: the settings panel and every
word of a card inside a narrow phone's screen, the clock of the seat to move beside the
turn banner, a resignation and a claimed win in the log, "Claim the win" asking first,
"Back at the table" only when moves were made meanwhile, an id and invite code typed
loosely, plain refusals, "Copy link" without a clipboard, "1 recipe card"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.helpers.pages import CUT_WORDS, start_game, three_with_recipes
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e


NARROW = [(390, 844), (320, 568)]
"""A phone, and the narrowest one."""


def test_a_narrow_phone_shows_the_settings_every_card_word_and_the_clock(
    live_server: LiveServer, open_page: Any
) -> None:
    """Seed 1's first turn read at each phone's size from one page, resized (its layout
    is its style sheet's alone; a game a size started the same table again), then its
    settings opened, at each size again."""
    page = open_page("phone")
    page.set_viewport_size({"width": NARROW[0][0], "height": NARROW[0][1]})
    # seed 1: White's first line holds a boom and a wand card, each marked take
    start_game(page, live_server, **{"opt-seed": "1", "opt-move": "120"})
    page.wait_for_selector(".cell.take")
    takes = page.locator(".cell.take")
    assert takes.filter(has=page.locator(".sym")).count() >= 1
    clock = page.locator("#turn-clock")
    for width, height in NARROW:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(CUT_WORDS) == [], width
        for i in range(takes.count()):
            assert takes.nth(i).locator(".badge").inner_text().lower() == "take"
            assert takes.nth(i).locator(".badge").is_visible()
        # the clock of the seat to move is under the banner, on the first screen
        assert re.fullmatch(r"Your time: [12]:\d\d left, running", clock.inner_text())
        box = clock.bounding_box()
        assert box and box["y"] + box["height"] <= height, width
    page.click("#settings summary")
    for width, height in NARROW:
        page.set_viewport_size({"width": width, "height": height})
        panel = page.locator(".settings-panel").bounding_box()
        assert panel and panel["x"] >= 0 and panel["x"] + panel["width"] <= width, width
        shot(page, f"phone{width}-30-settings-and-take-words")
    assert page.errors == []


def two_people(open_page: Any, live: LiveServer, grace: str = "60") -> tuple[Any, Any, str, str]:
    """Ann (desktop, White) makes a private table for two; returns her page, a phone's
    page on the join-by-code screen, the table id and the invite code."""
    host = open_page("desktop")
    host.add_init_script(script="Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    open_lobby(host, live)
    host.fill("#player-name", "Ann")
    host.click("#new-table")
    host.select_option("#seat-1", "")
    host.check("#opt-private")
    host.fill("#opt-grace", grace)
    host.click("#create-go")
    host.wait_for_selector("#invite-code")
    table = host.locator("#table-id").inner_text()
    invite = host.locator("#invite-code").inner_text()
    guest = open_page("phone")
    open_lobby(guest, live)
    guest.fill("#player-name", "Bea")
    guest.click("#join-code")
    guest.wait_for_selector("#join-table")
    return host, guest, table, invite


def test_a_resignation_is_logged_and_read_out_and_the_lobby_speaks_plainly(
    live_server: LiveServer, open_page: Any
) -> None:
    host, guest, table, invite = two_people(open_page, live_server)
    # no clipboard (a plain-http LAN address): the link is selected, the page says so
    host.click('[data-key="copy-invite-link"]')
    until(host, "document.getElementById('status').textContent.includes('Copy the link by hand')")
    link = host.locator("#invite-link").get_attribute("href")
    assert host.evaluate("() => String(getSelection())") == link

    # a phone keyboard's capital letter and a stray space are let go; plain refusals
    for field in ("#join-table", "#join-invite"):
        assert guest.locator(field).get_attribute("autocapitalize") == "off"
        assert guest.locator(field).get_attribute("spellcheck") == "false"
    guest.fill("#join-table", f" {table.upper()} ")
    guest.fill("#join-invite", "wrong")
    guest.click("#join-go")
    until(guest, "document.getElementById('status').textContent.includes('No table with that id')")
    guest.fill("#join-invite", f"{invite.upper()} ")
    guest.select_option("#join-seat", "0")
    guest.click("#join-go")
    until(guest, "document.getElementById('status').textContent !== ''")
    said = guest.locator("#status").inner_text()
    assert said == "White (seat 1) is taken: choose another seat.", said
    guest.select_option("#join-seat", "")
    guest.click("#join-go")
    host.wait_for_selector(".cell.take")
    guest.wait_for_selector("#board")

    # a reload with nothing played meanwhile says nothing of moves made meanwhile
    host.reload()
    host.wait_for_selector(".cell.take")
    host.wait_for_timeout(300)
    assert "Back at the table" not in host.locator(".log").inner_text()
    # Bea's page goes; Ann takes a card; Bea's page comes back: Ann's take is shown to
    # her (1.4: the moves missed), once, not twice, and no line says moves were missed
    guest.goto("about:blank")
    host.locator(".cell.take").first.click()
    host.locator(".options button").first.click()
    until(host, "!document.querySelector('.cell.take')")
    took = host.locator("#lastmove").inner_text().removeprefix("Last move: White (Ann, you)")
    took = took.split(",")[0].removesuffix(".")
    for _ in range(2):
        guest.goto(live_server.url)
        guest.wait_for_selector(".cell.take")
        guest.wait_for_timeout(300)
        assert guest.locator(".log li", has_text=f"White (Ann){took}").count() == 1
        assert guest.locator(".log li", has_text="Back at the table").count() == 0

    # Ann resigns: both logs say so and the end, Bea hears it and is shown the end
    host.click('[data-key="resign"]')
    host.click('[data-key="resign-yes"]')
    seen = ((host, "White (Ann, you)", "Black (Bea)"), (guest, "White (Ann)", "Black (Bea, you)"))
    for page, ann, bea in seen:
        page.wait_for_selector("#end-h")
        until(page, "document.querySelector('.log').innerText.includes('The game is over')")
        log = page.locator(".log-lines li").all_inner_texts()
        assert log[-2:] == [f"{ann} resigned", f"The game is over: {bea} wins."], log
        assert "resigned" in page.locator("#announce").inner_text()
        assert page.evaluate("document.activeElement.id") == "end-h"
    shot(guest, "phone-31-resigned")
    for page in (host, guest):
        assert page.errors == []


def test_claiming_the_win_asks_first(live_server: LiveServer, open_page: Any) -> None:
    host, guest, table, invite = two_people(open_page, live_server, grace="0")
    guest.fill("#join-table", table)
    guest.fill("#join-invite", invite)
    guest.click("#join-go")
    host.wait_for_selector(".cell.take")
    guest.close()  # grace 0: Bea is away at once
    host.wait_for_selector('[data-key="claim"]')
    host.click('[data-key="claim"]')
    assert host.locator("#claim-q").inner_text().startswith("Claim the win?")
    assert host.evaluate("document.activeElement.dataset.key") == "claim-no"
    host.click('[data-key="claim-no"]')
    assert host.locator("#end-h").count() == 0
    host.click('[data-key="claim"]')
    host.click('[data-key="claim-yes"]')
    host.wait_for_selector("#end-h")
    assert "claimed the win" in host.locator("#result-words").inner_text()
    until(host, "document.querySelector('.log').innerText.includes('The game is over')")
    assert host.errors == []


def test_one_recipe_card_is_one_card(live_server: LiveServer, open_page: Any) -> None:
    page = open_page("desktop")
    three_with_recipes(page, live_server)
    # three players hold one recipe card each; the others' are hidden
    until(page, "document.querySelectorAll('.seat .recipes').length === 3")
    hidden = [t for t in page.locator(".seat .recipes").all_inner_texts() if "hidden" in t]
    assert hidden == ["1 recipe card, hidden"] * 2
    assert page.errors == []


def test_ready_is_said_only_before_the_game_and_the_toggle_keeps_its_name(
    live_server: LiveServer, open_page: Any
) -> None:
    """The lobby listed the players of running games as "Ann (ready)", and the ready
    toggle read "Ready (press to wait)": now a running game's players show how they are
    (online, away), and the toggle keeps its name, pressed (``aria-pressed``) or not."""
    page = open_page("desktop")
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    page.select_option("#seat-1", "")  # a person: wait for them
    page.click("#create-go")
    ready = page.locator("#ready")
    ready.wait_for()
    if ready.get_attribute("aria-pressed") == "false":
        ready.click()
    until(page, "document.getElementById('ready').getAttribute('aria-pressed') === 'true'")
    assert ready.inner_text() == "\u2713 I am ready"
    assert "You are ready: press the button again to wait." in page.inner_text("main")
    ready.click()
    until(page, "document.getElementById('ready').getAttribute('aria-pressed') === 'false'")
    assert ready.inner_text() == "I am ready"
    page.click("#leave")  # off this table: the listing holds the running game only
    other = open_page("desktop")
    start_game(other, live_server)  # Ann again, against the computer: it starts at once
    other.wait_for_selector("#board")
    watcher = open_page("desktop")
    open_lobby(watcher, live_server)
    until(watcher, "document.getElementById('tables').innerText.includes('playing')")
    listing = watcher.locator("#tables").inner_text()
    assert "Ann (online)" in listing and "(ready)" not in listing, listing
    assert page.errors == [] and other.errors == [] and watcher.errors == []


def test_a_table_where_you_hold_a_seat_offers_your_seat_not_watching(
    live_server: LiveServer, open_page: Any
) -> None:
    """The lobby row of a running game you left offered "Watch" beside "Back to my
    seat": watching your own game as a spectator is never what a seated player means."""
    page = open_page("desktop")
    start_game(page, live_server)
    page.wait_for_selector("#board")
    table = next(iter(live_server.server.lobby.tables))
    page.click('[data-key="leave"]')  # the seat stays ours while the game runs
    page.wait_for_selector(f'[data-key="resume-{table}"]')
    assert page.locator(f'[data-key="watch-{table}"]').count() == 0
    assert "your seat" in page.locator(f'[data-key="table-{table}"]').inner_text()
    page.click(f'[data-key="resume-{table}"]')
    page.wait_for_selector("#board")
    assert page.errors == []
