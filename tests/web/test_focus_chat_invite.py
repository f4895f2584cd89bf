"""Three more play-test findings held down: the keyboard focus after one's own take, a
"no" and a resignation stays on the page (never on ``<body>``); a spectator's chat
lines outlive a reload, as a seat's do, and no more than the page keeps; an invite or
watch link says what it leads to (the table's name, terms and free seats) and offers
only what can be done there."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers.pages import new_table, start_game
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e

ACTIVE = """() => { const a = document.activeElement;
  return a === document.body ? 'body' : a.id || a.dataset.key || a.className; }"""

# the focus on the turn banner or on a card one may take (a card has an id of its own)
ON_TURN_OR_CARD = """() => { const a = document.activeElement;
  return a.id === 'turn' || a.classList.contains('take'); }"""

# records every moment (polled) the focus is on <body> while the table is shown
WATCH_BODY = """() => { window.__lost = 0; window.__poll = setInterval(() => {
  if (document.activeElement === document.body && document.getElementById('board')) window.__lost++;
}, 5); }"""


def test_the_focus_stays_on_the_page_after_a_take_a_no_and_resigning(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("desktop")
    start_game(page, live_server, **{"opt-seed": "3"})
    page.wait_for_selector(".cell.take")
    until(page, "document.activeElement.classList.contains('take')")
    page.evaluate(WATCH_BODY)
    deck = "parseInt(document.querySelector('.deck').textContent.slice(6))"
    # a keyboard take: Enter chooses the card, Enter on the answer takes it; the focus
    # is on the banner while the move goes out, and on a card again once the turn is
    # back (the computer may have moved before the page is read: a busy machine)
    left = page.evaluate(deck)
    page.keyboard.press("Enter")
    until(page, "document.activeElement.closest('.options') !== null")
    page.keyboard.press("Enter")
    assert page.evaluate(ON_TURN_OR_CARD), page.evaluate(ACTIVE)
    until(page, f"{deck} < {left}")  # taken (the deck refilled the slot)
    assert page.evaluate(ON_TURN_OR_CARD), page.evaluate(ACTIVE)
    # the computer moves; the turn comes back: the focus goes to a card again
    until(page, "document.activeElement.classList.contains('take')")
    assert page.evaluate("window.__lost") == 0

    # a take with the mouse leaves it on the banner too (or on a card: a wand's extra
    # turn, or the computer was quick)
    left = page.evaluate(deck)
    page.locator(".cell.take").first.click()
    page.locator(".options button").first.click()
    until(page, f"{deck} < {left}")  # taken (the deck refilled the slot)
    assert page.evaluate(ON_TURN_OR_CARD), page.evaluate(ACTIVE)
    until(page, "document.activeElement.classList.contains('take')")

    # "No, play on" gives the focus back to Resign; "Yes, resign" to the game's end
    page.locator("[data-key=resign]").focus()
    page.keyboard.press("Enter")
    until(page, "document.activeElement.dataset.key === 'resign-no'")
    page.keyboard.press("Enter")
    until(page, "document.activeElement.dataset.key === 'resign'")
    page.keyboard.press("Enter")
    page.locator("[data-key=resign-yes]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#end-h")
    until(page, "document.activeElement.id === 'end-h'")
    assert page.evaluate("window.__lost") == 0
    shot(page, "desktop-40-focus-after-resign")
    assert page.errors == []


def test_a_three_player_resignation_leaves_the_focus_on_the_turn_banner(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("phone")
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.select_option("#opt-players", "3")  # both other seats: computers
    page.click("#create-go")
    page.wait_for_selector(".cell.take")
    page.evaluate(WATCH_BODY)
    page.locator("[data-key=resign]").click()
    page.locator("[data-key=resign-yes]").click()
    # a computer plays the seat to the end: the page is still the table's
    until(page, "document.querySelector('.seats').innerText.includes('resigned')")
    assert page.evaluate(ACTIVE) in ("turn", "end-h"), page.evaluate(ACTIVE)
    assert page.evaluate("window.__lost") == 0
    shot(page, "phone-40-focus-after-resign-3p")
    assert page.errors == []


def chat(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.click(".chat-form button")


def lines(page: Any) -> list[str]:
    return page.locator(".chat-lines li").all_inner_texts()


def test_a_spectators_chat_outlives_a_reload_as_a_seats_does(
    live_server: LiveServer, open_page: Any
) -> None:
    ann = open_page("desktop")
    start_game(ann, live_server)
    ann.wait_for_selector("#board")
    eve = open_page("phone")
    open_lobby(eve, live_server)
    eve.locator("#tables button", has_text="Watch").first.click()
    eve.wait_for_selector("#board")
    chat(ann, "hello watcher")
    chat(eve, "hi Ann")
    for page in (ann, eve):
        until(page, "document.querySelector('.chat-lines').innerText.includes('hi Ann')")
    before = lines(eve)
    assert len(before) == 2 and "hello watcher" in before[0], before
    for page in (eve, ann):
        page.reload()
        page.wait_for_selector("#board")
        until(page, "document.querySelector('.chat-lines').innerText.includes('hi Ann')")
        assert lines(page) == before, lines(page)
    shot(eve, "phone-41-spectator-chat-after-reload")
    eve.set_viewport_size({"width": 1280, "height": 800})
    shot(eve, "desktop-41-spectator-chat-after-reload")
    eve.set_viewport_size({"width": 390, "height": 844})

    # kept bounded: of 150 lines kept, the page shows and keeps the last 100
    key = eve.evaluate("() => Object.keys(localStorage).find(k => k.startsWith('kk:chat:'))")
    assert key and key.endswith(":watching"), key
    many = [{"seat": None, "name": "Eve (spectator)", "text": f"line {i}"} for i in range(150)]
    eve.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(many)])
    eve.reload()
    eve.wait_for_selector("#board")
    until(eve, "document.querySelectorAll('.chat-lines li').length === 100")
    assert lines(eve)[0].endswith("line 50") and lines(eve)[-1].endswith("line 149")
    chat(eve, "one more")
    until(eve, "document.querySelector('.chat-lines').innerText.includes('one more')")
    kept = json.loads(eve.evaluate("k => localStorage.getItem(k)", key))
    assert len(kept) == 100 and kept[-1]["text"] == "one more"

    # a spectator who stops watching keeps nothing of the table's chat
    eve.locator("[data-key=to-lobby]").click()
    eve.wait_for_selector("#tables")
    assert eve.evaluate("k => localStorage.getItem(k)", key) is None
    assert ann.errors == [] and eve.errors == []


def seat_choices(page: Any) -> list[str]:
    return page.locator("#join-seat option").all_inner_texts()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_invite_or_watch_link_says_what_it_leads_to(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    three = new_table(open_page("desktop"), live_server, "Alma's kitchen", "3")
    two = new_table(open_page("desktop"), live_server, "Two by two", "2")
    hidden = new_table(open_page("desktop"), live_server, "Back room", "2", private=True)

    # the invite link of a listed table: its name, terms, seats; only free seats offered
    bea = open_page(size)
    bea.goto(three)
    bea.wait_for_selector("#join-go")
    assert bea.locator("#join-h").inner_text() == "You are invited to Alma's kitchen"
    about = bea.locator("#join-about").inner_text()
    terms = ("3 players", "recipes", "strict memory", "30 s a move", "Waiting for players")
    for words in (*terms, "Ann", "free seat"):
        assert words in about, about
    assert seat_choices(bea) == ["the first free seat", "Black (seat 2)", "Lilac (seat 3)"]
    assert bea.locator("#join-go").inner_text() == "Join"
    shot(bea, f"{size}-42-invite-link")

    # a 2-player table has no third seat to offer
    cleo = open_page(size)
    cleo.goto(two)
    cleo.wait_for_selector("#join-about")
    assert seat_choices(cleo) == ["the first free seat", "Black (seat 2)"]
    assert "2 players" in cleo.locator("#join-about").inner_text()

    # a private table is not listed: the page says no more than its link
    dan = open_page(size)
    dan.goto(hidden)
    dan.wait_for_selector("#join-go")
    assert dan.locator("#join-h").inner_text() == "You are invited to a table"
    assert dan.locator("#join-about").count() == 0
    assert len(seat_choices(dan)) == 4

    # a watch link: Watch is all it offers
    eve = open_page(size)
    eve.goto(three.replace("/#/join/", "/#/watch/"))
    eve.wait_for_selector("#join-about")
    assert eve.locator("#join-h").inner_text() == "Watch Alma's kitchen"
    assert eve.locator("#join-seat").count() == 0 and eve.locator("#player-name").count() == 0
    assert eve.locator("form button").all_inner_texts() == ["Watch", "Back"]
    shot(eve, f"{size}-42-watch-link")

    # Bea joins by the link: her waiting screen has the table's name and terms
    bea.fill("#player-name", "Bea")
    bea.select_option("#join-seat", "2")
    bea.click("#join-go")
    bea.wait_for_selector("#wait-h")
    assert bea.locator("#wait-h").inner_text() == "Alma's kitchen: waiting for players"
    assert "3 players, recipes" in bea.locator(".waiting .terms").inner_text()
    # the table now has one free seat: a new invite page offers that one only
    fred = open_page(size)
    fred.goto(three)
    fred.wait_for_selector("#join-about")
    assert seat_choices(fred) == ["the first free seat", "Black (seat 2)"]
    eve.click("#join-go")
    eve.wait_for_selector("#wait-h")

    # a full game on the invite link: watching is all there is to do
    fred.fill("#player-name", "Fred")
    fred.click("#join-go")
    fred.wait_for_selector("#board")
    gus = open_page(size)
    gus.goto(three)
    gus.wait_for_selector("#join-about")
    assert "every seat is taken" in gus.locator("#join-about").inner_text()
    assert gus.locator("#join-seat").count() == 0
    assert gus.locator("form button").all_inner_texts() == ["Watch", "Back"]
    shot(gus, f"{size}-42-invite-link-full")
    for p in (bea, cleo, dan, eve, fred, gus):
        assert p.errors == [], p.errors
