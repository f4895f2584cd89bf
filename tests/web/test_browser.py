"""Whole games in a real browser (Debian's Chromium through Playwright) against a real
server on loopback: against the computer at phone and desktop sizes, two people at one
table by invite link with a spectator, a reload in mid-game, and a game played with the
keyboard alone. Every screen is saved under ``screenshots/`` at both sizes."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest

from tests.helpers.pages import (
    GAME_TIMEOUT,
    create_table,
    join_by_invite,
    my_turn,
    play_to_the_end,
    take_one,
)
from tests.helpers.web import DESKTOP, PHONE, TABLET, LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.long
def test_a_whole_game_against_the_computer(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    page = open_page(size)
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    shot(page, f"{size}-1-lobby")
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    shot(page, f"{size}-2-new-table")
    page.click("#create-go")
    page.wait_for_selector("#board")
    shot(page, f"{size}-3-table")
    assert page.locator("#board .pawn").count() == 2
    assert page.locator("#board .corner").count() == 4
    takes = play_to_the_end(page, size, shots=size)
    assert takes >= 5
    end = page.locator("#result-words").inner_text()
    assert "played out" in end and ("wins" in end or "share the win" in end)
    assert page.locator(".places li").count() == 2
    assert page.locator(".scores tbody tr").count() == 2
    shot(page, f"{size}-6-game-over")
    # the live region read the computer's moves out
    assert page.locator("#announce").inner_text() != ""

    # rematch: the computer agrees at once, colours move one seat on
    page.click("#rematch")
    until(
        page, "document.querySelector('#turn') && !document.querySelector('#end-h')", timeout=20_000
    )
    page.wait_for_selector("#board .pawn")
    assert "Black" in page.locator(".seat", has_text="(you)").inner_text()
    shot(page, f"{size}-7-rematch")

    # resign the rematch: with two players the other seat wins at once. One tap asks,
    # even as the computer's first move is drawn (test_rematch_tap.py)
    page.click('[data-key="resign"]')
    page.wait_for_selector('[data-key="resign-yes"]', timeout=5_000)
    shot(page, f"{size}-8-resign-asked")
    page.click('[data-key="resign-yes"]')
    page.wait_for_selector("#end-h", timeout=20_000)
    assert "resigned" in page.locator("#result-words").inner_text()
    shot(page, f"{size}-9-resigned")
    page.click('[data-key="to-lobby"]')
    page.wait_for_selector(".table-row")
    # the lobby is drawn at once from the list the page had (the rematch playing), then
    # again from the listing it asks for: the table is finished there
    until(page, "document.querySelector('.table-row').innerText.includes('finished')")
    shot(page, f"{size}-10-lobby-with-tables")
    page.goto(live_server.url + "#/help")
    page.wait_for_selector("#help:not([hidden])")
    shot(page, f"{size}-11-how-to-play")
    assert page.errors == []


@pytest.mark.long
def test_two_people_by_invite_link_and_a_spectator(live_server: LiveServer, open_page: Any) -> None:
    host = open_page("desktop")
    open_lobby(host, live_server)
    host.fill("#player-name", "Ann")
    host.click("#new-table")
    host.check("#opt-private")
    host.select_option("#opt-memory", "casual")
    host.select_option("#seat-1", "")  # a person, not a computer
    host.fill("#opt-move", "120")
    host.click("#create-go")
    host.wait_for_selector("#invite-link")
    link = host.locator("#invite-link").get_attribute("href")
    assert link and "/#/join/" in link
    invite = host.locator("#invite-code").inner_text()
    watch_link = host.locator("#watch-link").get_attribute("href")
    assert watch_link == link.replace("/#/join/", "/#/watch/")
    assert invite in link
    shot(host, "desktop-12-waiting")
    host.set_viewport_size(PHONE)
    shot(host, "phone-12-waiting")
    host.set_viewport_size(DESKTOP)

    guest = open_page("phone")
    guest.goto(link)
    guest.wait_for_selector("#join-go")
    assert guest.locator("#join-invite").input_value() == invite
    guest.fill("#player-name", "Bea")
    shot(guest, "phone-13-invited")
    guest.click("#join-go")
    host.wait_for_selector("#board")
    guest.wait_for_selector("#board")

    table = link.split("/#/join/")[1].split("/")[0]
    watcher = open_page("desktop")
    open_lobby(watcher, live_server)
    watcher.click("#join-code")
    watcher.fill("#join-table", table)
    watcher.fill("#join-invite", invite)
    watcher.get_by_role("button", name="Watch").click()
    # a second spectator by the watch link
    second = open_page("phone")
    second.goto(watch_link)
    second.wait_for_selector("#join-go")
    assert second.locator("#join-go").inner_text() == "Watch"
    second.click("#join-go")
    second.wait_for_selector("#board")
    watcher.wait_for_selector("#board")
    assert "watching" in watcher.locator("#question").inner_text()

    # clocks run and each person sees the other's move
    assert "left" in host.locator("[data-clock]").first.inner_text()
    deadline = time.monotonic() + GAME_TIMEOUT
    moves = 0
    while moves < 6 and time.monotonic() < deadline:
        for page, size in ((host, "desktop"), (guest, "phone")):
            if moves < 6 and my_turn(page):
                other = guest if page is host else host
                words = take_one(page, size)
                card = words.removeprefix("Take ").split(":")[0]
                moves += 1
                # the other person and the spectator see the take in their log
                for seen in (other, watcher):
                    until(
                        seen,
                        "card => document.querySelector('.log').innerText.includes(card)",
                        arg=card,
                        timeout=10_000,
                    )
        host.wait_for_timeout(50)
    assert moves == 6
    assert "watching" in second.locator("#question").inner_text()
    # casual memory: each person sees their own kettle, and the whole log
    assert host.locator(".seat .own").count() == 1
    shot(host, "desktop-14-two-people")
    shot(guest, "phone-14-two-people")
    shot(watcher, "desktop-15-watching")
    host.set_viewport_size(TABLET)
    shot(host, "tablet-14-two-people")
    host.set_viewport_size(DESKTOP)
    watcher.set_viewport_size(PHONE)
    shot(watcher, "phone-15-watching")

    # chat reaches everyone at the table, the spectator marked as one
    guest.fill("#chat-text", "good luck!")
    guest.click(".chat-form button")
    until(host, "document.querySelector('.chat-lines').innerText.includes('good luck!')")
    watcher.fill("#chat-text", "nice")
    watcher.click(".chat-form button")
    until(host, "document.querySelector('.chat-lines').innerText.includes('(spectator)')")
    for page in (host, guest, watcher):
        assert page.errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_reload_in_mid_game_resumes_the_seat(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    page = open_page(size)
    open_lobby(page, live_server)
    create_table(page)
    page.wait_for_selector("#board")
    play_to_the_end(page, size, limit=3)
    before = page.locator("#log-h").count()
    assert before == 1
    log_before = page.locator(".log-lines li").all_inner_texts()
    page.reload()
    page.wait_for_selector("#board")
    until(page, "document.getElementById('conn').textContent.startsWith('connected')")
    assert "(you)" in page.locator(".seat", has_text="Ann").inner_text()
    # the log the memory rule allows is still there
    page.wait_for_selector(".log-lines li")
    assert page.locator(".log-lines li").all_inner_texts()[: len(log_before)] != []
    shot(page, f"{size}-16-after-reload")
    assert play_to_the_end(page, size, limit=1) == 1
    # a dropped connection: the page says so, comes back by itself and resumes the seat
    # every text the status line shows from here on (it may say "reconnecting" only for
    # the half second before the page is back: a busy test machine can poll past it)
    page.evaluate(
        """() => {
        const conn = document.getElementById('conn');
        window.kkConnSaid = [];
        new MutationObserver(() => window.kkConnSaid.push(conn.textContent))
            .observe(conn, {childList: true, characterData: true, subtree: true});
    }"""
    )
    live_server.drop_connections()
    until(page, "window.kkConnSaid.some(t => t.includes('reconnecting'))")
    shot(page, f"{size}-17-connection-lost")
    until(
        page, "document.getElementById('conn').textContent.startsWith('connected')", timeout=20_000
    )
    page.wait_for_selector("#board")
    assert play_to_the_end(page, size, limit=2) == 2
    assert page.errors == []


def tab_to(page: Any, selector: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.evaluate(
            "s => !!document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("size", ["desktop"])
@pytest.mark.long
def test_a_whole_game_by_keyboard_alone(live_server: LiveServer, open_page: Any, size: str) -> None:
    page = open_page(size, reduced_motion="reduce")
    open_lobby(page, live_server)
    tab_to(page, "#player-name")
    page.keyboard.type("Kim")
    tab_to(page, "#new-table")
    page.keyboard.press("Enter")
    page.wait_for_selector("#create-go")
    tab_to(page, "#create-go")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board")
    deadline = time.monotonic() + GAME_TIMEOUT
    takes = 0
    while time.monotonic() < deadline:
        if page.locator("#end-h").count():
            break
        if not my_turn(page):
            page.wait_for_timeout(50)
            continue
        # the turn puts the focus on a card to take; arrows move between them
        until(page, "document.activeElement && document.activeElement.matches('.cell.take')")
        for _ in range(takes % 3):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.matches('.cell.take')")
        page.keyboard.press("Enter")
        until(page, "document.activeElement && document.activeElement.matches('.options button')")
        if takes == 1:
            shot(page, "desktop-18-keyboard-question")
        for _ in range(takes % 2):
            page.keyboard.press("Tab")
        if not page.evaluate("document.activeElement.matches('.options button')"):
            page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")
        takes += 1
        until(
            page,
            "!document.querySelector('.options button') || "
            "document.querySelector('.options button').disabled",
        )
    assert page.locator("#end-h").count() == 1, "the game did not end"
    assert takes >= 5
    tab_to(page, "#rematch")
    shot(page, "desktop-19-keyboard-end")
    assert page.errors == []


@pytest.mark.long
def test_three_players_with_recipes_and_casual_memory(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("phone")
    open_lobby(page, live_server)
    page.fill("#player-name", "Cy")
    page.click("#new-table")
    page.select_option("#opt-players", "3")
    page.check("#opt-recipes")
    page.select_option("#opt-memory", "casual")
    page.select_option("#opt-third", "green")
    page.select_option("#opt-seat", "1")  # Black: a computer begins
    shot(page, "phone-20-new-table-three")
    page.click("#create-go")
    page.wait_for_selector("#board")
    assert page.locator("#board .pawn").count() == 3
    assert "Green" in page.locator(".seats").inner_text()
    mine = page.locator(".seat", has_text="(you)")
    assert "Black" in mine.inner_text() and "Recipes:" in mine.inner_text()
    play_to_the_end(page, "phone", shots="phone-21-three")
    assert page.locator(".places li").count() == 3
    assert page.locator(".scores tbody tr").count() == 3
    assert (
        "recipe" in page.locator(".scores").inner_text().lower()
        or page.locator(".scores .chip", has_text="met").count()
    )
    shot(page, "phone-22-three-game-over")
    assert page.errors == []


def test_a_clock_running_out_ends_the_game(live_server: LiveServer, open_page: Any) -> None:
    page = open_page("desktop")
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.fill("#opt-move", "1")
    page.click("#create-go")
    page.wait_for_selector("[data-clock]")
    # nobody moves for White: after three expiries in a row the game ends
    page.wait_for_selector("#end-h", timeout=60_000)
    words = page.locator("#result-words").inner_text()
    assert "Time ran out for White (Ann, you)" in words and "wins" in words
    assert (
        "Time ran out for White (Ann, you): a computer moved" in page.locator(".log").inner_text()
    )
    shot(page, "desktop-24-timed-out")
    assert page.errors == []


def play_until(
    page: Any, size: str, js: str, other: Any = None, also: tuple[Any, str] | None = None
) -> None:
    """Take ``page``'s turns (and those of the page ``also`` names, with its size), so
    its clock never runs out, until ``js`` is true in ``other`` (default: the page
    itself)."""
    deadline = time.monotonic() + 30
    players = [(page, size), *([also] if also else [])]
    while not (other or page).evaluate(f"() => ({js})"):
        assert time.monotonic() < deadline, f"never true: {js}"
        for player, player_size in players:
            if my_turn(player):
                # the turn may move on under the tap (a clock ran out): look again
                with contextlib.suppress(pytest.importorskip("playwright.sync_api").TimeoutError):
                    take_one(player, player_size, timeout=5_000)
        page.wait_for_timeout(50)


def test_away_back_and_claim(live_server: LiveServer, open_page: Any) -> None:
    host = open_page("desktop")
    open_lobby(host, live_server)
    host.fill("#player-name", "Ann")
    host.click("#new-table")
    host.select_option("#seat-1", "")
    # 10 s a move: Ann's runs out soon; Bea plays on (play_until) and never runs out (6 s
    # ran out under a loaded machine's slow page once, and the computer, playing both
    # seats, played the game out before the claim)
    host.fill("#opt-move", "10")
    host.fill("#opt-grace", "0")
    host.fill("#opt-absent", "1")
    host.click("#create-go")
    guest = join_by_invite(host, open_page)
    # White lets the time run out: a computer plays the seat, Bea may claim the win
    play_until(guest, "phone", "!!document.querySelector('[data-key=\"back\"]')", host)
    assert "a computer plays" in host.locator(".seat", has_text="(you)").inner_text()
    play_until(guest, "phone", "!!document.querySelector('[data-key=\"claim\"]')")
    shot(host, "desktop-25-away")
    shot(guest, "phone-25-claim-offered")
    play_until(
        guest,
        "phone",
        "document.querySelector('.log').innerText.includes('is away: a computer plays')",
    )
    host.click('[data-key="back"]')
    # Ann plays her turns again too: a clock of hers run out would hand her seat to the
    # computer once more, which with Bea plays the game out quickly on a slow machine
    ann = (host, "desktop")
    play_until(guest, "phone", "!document.querySelector('[data-key=\"back\"]')", host, ann)
    play_until(guest, "phone", "!document.querySelector('[data-key=\"claim\"]')", also=ann)
    play_until(
        guest,
        "phone",
        "document.querySelector('.log').innerText.includes('White (Ann) is back')",
        also=ann,
    )
    # Ann's connection goes (grace 0): Bea claims the win
    host.close()
    play_until(guest, "phone", "!!document.querySelector('[data-key=\"claim\"]')")
    # the claim is pressed with Bea's clock fresh: her move first, if it is hers (a
    # loaded machine once let it run out under the press, and the computer, playing
    # both seats, ended the game before the press landed)
    if my_turn(guest):
        take_one(guest, "phone", timeout=5_000)
    for _ in range(5):  # it asks first; a press on a board drawn anew under it: again
        guest.click('[data-key="claim"]')
        with contextlib.suppress(pytest.importorskip("playwright.sync_api").TimeoutError):
            guest.click('[data-key="claim-yes"]', timeout=3_000)
            break
    guest.wait_for_selector("#end-h")
    assert "claimed the win" in guest.locator("#result-words").inner_text()
    assert "Black (Bea, you) wins" in guest.locator("#result-words").inner_text()
    shot(guest, "phone-26-claimed")
    assert guest.errors == []


def test_a_quiet_page_is_not_an_idle_client(open_page: Any) -> None:
    from protocol import messages as m

    live = LiveServer(limits=m.DEFAULT_LIMITS.model_copy(update={"idle_timeout": 3}))
    try:
        page = open_page("desktop")
        open_lobby(page, live)
        page.fill("#player-name", "Ann")
        page.click("#new-table")
        page.select_option("#seat-1", "")  # wait at the table: nothing else is sent
        page.click("#create-go")
        page.wait_for_selector("#invite-link")
        (session,) = live.server.sessions
        page.wait_for_timeout(8000)  # well over idle_timeout
        assert session in live.server.sessions
        assert page.locator("#conn").inner_text().startswith("connected")
    finally:
        live.stop()


def test_a_seat_taken_up_in_another_tab_is_let_go(live_server: LiveServer, open_page: Any) -> None:
    first = open_page("desktop")
    open_lobby(first, live_server)
    create_table(first)
    first.wait_for_selector("#board")
    # a second tab of the same browser (the same storage) goes back to the seat
    second = first.context.new_page()
    second.goto(live_server.url)
    second.wait_for_selector("#board")
    first.wait_for_selector("#play-here")
    shot(first, "desktop-27-played-elsewhere")
    second.wait_for_timeout(2000)  # the first tab does not take the seat back by itself
    assert "(you)" in second.locator(".seats").inner_text()
    assert second.locator("#conn").inner_text().startswith("connected")
    assert first.locator("#play-here").count() == 1
    first.click("#play-here")
    first.wait_for_selector("#board")
    second.wait_for_selector("#play-here")
    assert first.errors == []


def test_the_lobby_pages_through_many_tables(live_server: LiveServer, open_page: Any) -> None:
    from tests.server.wsclient import WsClient

    async def make_tables() -> None:
        for batch in range(3):
            client = await WsClient.open(live_server.server.port, name=f"maker{batch}")
            for i in range(20):
                await client.request("create_table", name=f"table {batch * 20 + i:02d}")
            await client.close()

    live_server.call(make_tables(), timeout=60)
    page = open_page("desktop")
    open_lobby(page, live_server)
    page.wait_for_selector('[data-key="next-page"]')
    assert page.locator(".table-row").count() == 50
    assert "50 of 60 tables shown" in page.locator("#tables").inner_text()
    page.click('[data-key="next-page"]')
    until(page, "document.querySelectorAll('.table-row').length === 10")
    assert "table 59" in page.locator("#tables").inner_text()
    page.click('[data-key="first-page"]')
    until(page, "document.querySelectorAll('.table-row').length === 50")
    assert page.errors == []
