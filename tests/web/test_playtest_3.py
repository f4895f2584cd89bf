"""What a third play-test of the web client found, held down: the new-table form offers
the third colour only for three players; the waiting screen says the table's name, terms,
colours and invite again after a reload; no mark of a card ("take", "chosen") lies over
its words; a laptop's short screen shows the whole grid; a spectator's log is the table's
own, and a reload keeps it; the header's Lobby link leads to the lobby from every form; a
three-player resignation stays in the log while a computer plays the seat; a long word
(a name, a table's name, a link in the chat) stays inside a phone's screen; "the server is
stopping" goes once it is back; the lobby says "not ready" of a seat before the game, as
the waiting screen does."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.helpers.pages import CUT_WORDS, WORDS_OVER_WORDS, my_turn, start_game, take_one
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_third_colour_is_offered_for_three_players_only(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    page = open_page(size)
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    third = page.locator("#opt-third")
    label = page.get_by_text("Third colour", exact=True)
    # two players (the default): no third colour, not even a disabled one
    assert not third.is_visible() and not label.is_visible()
    assert page.get_by_role("combobox", name="Third colour").count() == 0
    page.select_option("#opt-players", "3")
    assert third.is_visible() and third.is_enabled() and label.is_visible()
    page.select_option("#opt-third", "green")
    assert "Green (seat 3)" in page.locator("#opt-seat").inner_text()
    shot(page, f"{size}-40-new-table-three-colours")
    page.select_option("#opt-players", "2")
    assert not third.is_visible() and not label.is_visible()
    # back to three: the choice made is still there
    page.select_option("#opt-players", "3")
    assert third.is_visible() and third.input_value() == "green"
    assert page.errors == []


def new_table(page: Any, live: LiveServer, name: str, players: str = "2", **selects: str) -> None:
    """``name`` makes a table whose other seats wait for people; ``selects`` choose the
    form's selects by id (after the number of players)."""
    open_lobby(page, live)
    page.fill("#player-name", name)
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    page.select_option("#opt-players", players)
    for field, value in selects.items():
        page.select_option(f"#{field.replace('_', '-')}", value)
    for s in range(int(players)):
        if page.locator(f"#seat-{s}").count():
            page.select_option(f"#seat-{s}", "")
    page.fill("#table-name", "Three of us")


def waiting_words(page: Any) -> tuple[str, str]:
    """The waiting screen's heading and the table's terms."""
    return page.locator("#wait-h").inner_text(), page.locator(".waiting .terms").inner_text()


def seat_tags(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".waiting .seat-list .tag").all_inner_texts()]


def test_the_waiting_screen_says_the_same_after_a_reload(
    live_server: LiveServer, open_page: Any
) -> None:
    host = open_page("phone")
    new_table(host, live_server, "Ann", "3", opt_third="brown")
    host.click("#create-go")
    host.wait_for_selector("#wait-h")
    guest = open_page("desktop", color_scheme="dark")
    open_lobby(guest, live_server)
    guest.fill("#player-name", "Bea")
    guest.locator(".table-row", has_text="Three of us").get_by_role("button", name="Join").click()
    guest.wait_for_selector("#wait-h")
    before = waiting_words(guest)
    assert before[0].startswith("Three of us") and "third colour brown" in before[1]
    assert seat_tags(guest) == ["White", "Black", "Brown"]
    guest.reload()
    guest.wait_for_selector("#wait-h")
    until(guest, "document.querySelectorAll('.waiting .seat-list li').length === 3")
    assert waiting_words(guest) == before
    assert seat_tags(guest) == ["White", "Black", "Brown"]
    shot(guest, "desktop-41-waiting-reloaded")
    assert host.errors == [] and guest.errors == []


def test_a_private_table_keeps_its_invite_across_a_reload(
    live_server: LiveServer, open_page: Any
) -> None:
    host = open_page("desktop")
    new_table(host, live_server, "Ann", "3", opt_third="green")
    host.check("#opt-private")
    host.click("#create-go")
    host.wait_for_selector("#invite-code")
    invite = host.locator("#invite-code").inner_text()
    table = host.locator("#table-id").inner_text()
    link = host.locator("#invite-link").inner_text()
    assert link.endswith(f"/#/join/{table}/{invite}")
    host.reload()
    host.wait_for_selector("#wait-h")
    until(host, "!!document.getElementById('invite-code')")
    assert host.locator("#invite-code").inner_text() == invite
    assert host.locator("#invite-link").inner_text() == link
    assert host.locator("#wait-h").inner_text().startswith("Three of us")
    assert seat_tags(host) == ["White", "Black", "Green"]
    # who joins it by hand is told its name and its third colour too
    guest = open_page("phone")
    open_lobby(guest, live_server)
    guest.fill("#player-name", "Bea")
    guest.click("#join-code")
    guest.fill("#join-table", table)
    guest.fill("#join-invite", invite)
    guest.click("#join-go")
    guest.wait_for_selector("#wait-h")
    # the colours and the name come with the table's terms, which a private table's
    # joiner looks up by its invite a moment after the seats show ("Seat 3" and "Your
    # table" until then: no colour that may be wrong); a loaded run read that moment
    until(guest, "document.getElementById('wait-h').textContent.startsWith('Three of us')")
    assert seat_tags(guest) == ["White", "Black", "Green"]
    assert host.errors == [] and guest.errors == []


def game_at(open_page: Any, live: LiveServer, width: int, height: int) -> Any:
    """A desktop page of ``width`` x ``height`` at a new table against the computer
    (seed 1), on its first turn."""
    page = open_page("desktop")
    page.set_viewport_size({"width": width, "height": height})
    start_game(page, live, **{"opt-seed": "1"})
    page.wait_for_selector(".cell.take")
    return page


SCREENS = [(1920, 1080), (1366, 650), (1024, 700), (820, 1180), (600, 900)]
"""Desktop windows from a wide screen to a narrow one."""


def test_no_mark_lies_over_a_card_word(live_server: LiveServer, open_page: Any) -> None:
    """Seed 1's first turn, read at each window size from one page, resized (the grid's
    layout is its style sheet's alone; a game a size started the same table again):
    first as it is shown, then with each card to take chosen in turn."""
    page = game_at(open_page, live_server, *SCREENS[0])
    # seed 1: White's first line holds Dragon blood and Eye of newt (names of two lines
    # on a narrow card) and two wand cards (a line more) to take
    assert page.locator(".cell.take", has_text="Dragon blood").count() >= 1
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(WORDS_OVER_WORDS) == [], (width, height)
        assert page.evaluate(CUT_WORDS) == [], (width, height)
    takes = page.locator(".cell.take")
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        for i in range(takes.count()):
            takes.nth(i).click()
            until(page, f"document.querySelectorAll('.cell.take')[{i}].matches('.selected')")
            page.wait_for_selector(".cell.selected .badge")
            assert page.evaluate(WORDS_OVER_WORDS) == [], (width, height, i)
            assert page.evaluate(CUT_WORDS) == [], (width, height, i)
        shot(page, f"desktop{width}x{height}-42-chosen-card-words")
    assert page.errors == []


@pytest.mark.parametrize("width,height", [(1366, 650), (1280, 720), (1366, 800)])
def test_a_laptop_screen_shows_the_whole_grid_and_the_answers(
    live_server: LiveServer, open_page: Any, width: int, height: int
) -> None:
    page = game_at(open_page, live_server, width, height)
    board = page.locator("#board").bounding_box()
    assert board and board["y"] >= 0 and board["y"] + board["height"] <= height
    # choosing a card in the bottom row does not scroll: its answers are beside the grid
    page.locator(".cell.take").last.click()
    page.wait_for_selector(".options button")
    assert page.evaluate("window.scrollY") == 0
    answers = page.locator(".options button").last.bounding_box()
    assert answers and answers["y"] + answers["height"] <= height
    assert page.evaluate(WORDS_OVER_WORDS) == [] and page.evaluate(CUT_WORDS) == []
    assert page.errors == []


def log_lines(page: Any) -> list[str]:
    return [x.strip() for x in page.locator(".log-lines li").all_inner_texts()]


def test_a_spectator_s_log_is_the_table_s_own_and_a_reload_keeps_it(
    live_server: LiveServer, open_page: Any
) -> None:
    ann = open_page("desktop")
    start_game(ann, live_server, **{"table-name": "Table A", "opt-seed": "1"})
    ann.wait_for_selector(".cell.take")
    bob = open_page("desktop")
    start_game(bob, live_server, **{"table-name": "Table B", "opt-seed": "2"})
    bob.wait_for_selector(".cell.take")
    take_one(bob, "desktop")
    until(bob, "document.getElementById('lastmove').textContent.startsWith('Last move')")
    sue = open_page("phone", color_scheme="dark")
    open_lobby(sue, live_server)
    sue.fill("#player-name", "Sue")
    sue.locator(".table-row", has_text="Table A").get_by_role("button", name="Watch").tap()
    sue.wait_for_selector("#board")
    take_one(ann, "desktop")
    until(sue, "document.getElementById('lastmove').textContent.includes('Ann')")
    seen = log_lines(sue)
    last = sue.locator("#lastmove").inner_text()
    assert any("White (Ann) takes" in x for x in seen)
    sue.reload()
    sue.wait_for_selector("#board")
    until(sue, "document.querySelectorAll('.log-lines li').length > 0")
    assert log_lines(sue) == seen
    assert sue.locator("#lastmove").inner_text() == last
    # another table: none of the first one's log, and no "no card taken yet" when cards
    # were taken before the page came
    sue.get_by_role("button", name="Stop watching").tap()
    sue.locator(".table-row", has_text="Table B").get_by_role("button", name="Watch").tap()
    sue.wait_for_selector("#board")
    until(sue, "document.querySelectorAll('.log-lines li').length > 0")
    assert not any("Ann" in x for x in log_lines(sue))
    assert sue.locator("#lastmove").inner_text() != "No card taken yet."
    assert "Ann" not in sue.locator("#lastmove").inner_text()
    shot(sue, "phone-43-watching-another-table")
    assert ann.errors == [] and bob.errors == [] and sue.errors == []


def test_the_header_s_lobby_link_leads_back_from_every_form(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("phone")
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    for screen, link in [
        ("#new-table", "nav >> text=Lobby"),
        ("#join-code", "nav >> text=Lobby"),
        ("#your-player", "nav >> text=Lobby"),
        ("#leaderboard", "h1 a"),
        ("#new-table", "h1 a"),  # the address says "#/" already: no change of it
    ]:
        page.tap(screen)
        until(page, "!document.getElementById('tables')")
        page.tap(link)
        page.wait_for_selector("#tables")
        assert page.locator("#lobby-h").is_visible()
    # from the rules and back
    page.tap("nav >> text=How to play")
    page.wait_for_selector("#help-h")
    page.tap("nav >> text=Lobby")
    page.wait_for_selector("#tables")
    assert not page.locator("#help-h").is_visible()
    # at a table the link keeps the table: the seat is left by its own buttons
    page.tap("#new-table")
    page.select_option("#seat-1", "")
    page.tap("#create-go")
    page.wait_for_selector("#wait-h")
    page.tap("nav >> text=Lobby")
    assert page.locator("#wait-h").is_visible()
    assert page.errors == []


def test_a_resignation_stays_in_the_log_while_a_computer_plays_the_seat(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("phone")
    new_table(page, live_server, "Ann", "3")
    page.select_option("#seat-2", page.locator("#seat-2 option").first.get_attribute("value"))
    page.tap("#create-go")
    page.wait_for_selector("#wait-h")
    bea = open_page("desktop")
    open_lobby(bea, live_server)
    bea.fill("#player-name", "Bea")
    bea.locator(".table-row", has_text="Three of us").get_by_role("button", name="Join").click()
    page.wait_for_selector(".cell.take")
    until_turn(bea, page, "phone")  # her own decisions (a wand: two), then she resigns
    page.tap("[data-key=resign]")  # while Bea is to move
    page.tap("[data-key=resign-yes]")
    # the computer's takes for her seat decide nothing: her log (strict memory) still
    # shows from her own last take on, the resignation with it, and says whose they are
    after = """(() => {
      const lines = [...document.querySelectorAll('.log-lines li')].map(x => x.textContent);
      const gone = lines.findIndex(x => x.startsWith('White (Ann, you) resigned: a computer'));
      return gone >= 0 && lines.slice(gone).some(x =>
        x.startsWith('The computer played for you: White (Ann, you) takes'));
    })()"""
    deadline = time.monotonic() + 60
    while not page.evaluate(after):  # Bea plays on (a wand or a lost turn aside)
        assert time.monotonic() < deadline, "the computer never took for Ann's seat"
        if my_turn(bea):
            take_one(bea, "desktop", option=0)
        time.sleep(0.05)
    assert page.errors == [] and bea.errors == []


def until_turn(page: Any, other: Any, size: str) -> None:
    """Let ``other`` take (a card's wand may give it a second turn) until ``page``'s
    seat is to move."""
    deadline = time.monotonic() + 60
    while not my_turn(page):
        assert time.monotonic() < deadline, "the turn never came"
        if my_turn(other):
            take_one(other, size, option=0)
        time.sleep(0.05)


WIDER_THAN_THE_SCREEN = (
    "document.documentElement.scrollWidth > document.documentElement.clientWidth"
)


def test_a_long_word_stays_inside_a_phone_s_screen(live_server: LiveServer, open_page: Any) -> None:
    host = open_page("phone")
    open_lobby(host, live_server)
    host.fill("#player-name", "W" * 32)
    host.tap("#new-table")
    host.fill("#table-name", "T" * 48)
    host.select_option("#seat-1", "")
    host.tap("#create-go")
    host.wait_for_selector("#wait-h")
    assert not host.evaluate(WIDER_THAN_THE_SCREEN)
    guest = open_page("phone", color_scheme="dark")
    open_lobby(guest, live_server)
    guest.fill("#player-name", "B" * 32)
    guest.wait_for_selector(".table-row")
    assert not guest.evaluate(WIDER_THAN_THE_SCREEN)
    guest.locator(".table-row").first.get_by_role("button", name="Join").tap()
    host.wait_for_selector("#board")
    guest.fill("#chat-text", "https://example.org/" + "x" * 180)
    guest.press("#chat-text", "Enter")
    until(host, "document.querySelector('.chat-lines').textContent.includes('xxxx')")
    for page in (host, guest):
        assert not page.evaluate(WIDER_THAN_THE_SCREEN)
    shot(host, "phone-44-long-words")
    # nothing lies over the buttons below the log and the chat: Resign still answers
    host.tap("[data-key=resign]", timeout=5_000)
    host.wait_for_selector("[data-key=resign-yes]")
    assert host.errors == [] and guest.errors == []


def test_the_server_stopping_is_not_said_once_it_is_back(open_page: Any) -> None:
    first = LiveServer()
    port = first.server.port
    page = open_page("phone")
    open_lobby(page, first)
    first.stop()
    until(page, "document.getElementById('status').textContent.includes('server is stopping')")
    again = LiveServer(port=port)
    try:
        until(page, "document.getElementById('conn').textContent.startsWith('connected')")
        until(page, "document.getElementById('status').textContent === 'The server is back.'")
        page.wait_for_selector("#tables")
    finally:
        again.stop()
    # only the browser's own word of the refused connections while the server was away
    assert all("ERR_CONNECTION_REFUSED" in e for e in page.errors)


def test_the_lobby_says_ready_or_not_ready_before_the_game(
    live_server: LiveServer, open_page: Any
) -> None:
    host = open_page("desktop")
    new_table(host, live_server, "Ann")
    host.click("#create-go")
    host.wait_for_selector("#ready[aria-pressed=true]")
    guest = open_page("phone")
    open_lobby(guest, live_server)
    row = guest.locator(".table-row", has_text="Three of us")
    until(guest, "document.querySelector('.table-row .seats').textContent.includes('Ann (ready)')")
    host.click("#ready")
    host.wait_for_selector("#ready[aria-pressed=false]")
    # the list is asked for again every four seconds
    until(
        guest,
        "document.querySelector('.table-row .seats').textContent.includes('Ann (not ready)')",
        timeout=10_000,
    )
    assert "Black: free" in row.inner_text()
    assert host.errors == [] and guest.errors == []
