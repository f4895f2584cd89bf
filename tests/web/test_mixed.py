"""A browser and a terminal at one table: Ann plays in Chromium, Jo in a real terminal
(``kupferkessel join`` in tmux) against the same in-process server on loopback, and a
second page watches; in the 3-player game a computer has the third seat. The whole game
is played turn by turn, and before every decision each person's screen must already
show what the others took since their own last one: the take of another client reaches
every kind of client in time. The server's game record says who took which card, so
the check does not trust any client.

Each page is waited for by what it shows, never by a fixed time: a paced page that is
behind (the spectator's shows every move, each a moment after the one before, so it
ends well after the game) only fails to arrive if it stops showing new moves."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from client.ui.render.cards import SYMBOL_WORD, short_name
from shared.cards import CARDS
from tests.client.tmux import KK, Tmux, needs_tmux
from tests.helpers.pages import web_words
from tests.helpers.web import LiveServer, open_lobby, save_text, shot, table_now, taken, until

pytestmark = [needs_tmux, pytest.mark.e2e]

GAME_TIMEOUT = 240.0  # seconds for the whole game, each person paced by a client
STALL = 20.0  # seconds a page may show nothing new before it counts as stuck
BY_ID = {c.id: c for c in CARDS}
COLOURS = ("White", "Black", "Lilac")
ANN, JO = 0, 1
NO_HOLD = "KUPFERKESSEL_HOLD=0"
"""Jo's take keys are not held when the turn comes back: the hold is for a person's
key pressed a moment too late, and this test presses only on a screen it has read."""


def term_words(card: str) -> str:
    """The card as the terminal's "since your take" line says it: ``Frog 3 boom``."""
    c = BY_ID[card]
    sym = f" {SYMBOL_WORD[c.symbol]}" if c.symbol else ""
    return f"{short_name(c.key)} {c.value}{sym}"


def since_line(screen: str, colour: str) -> str:
    """The terminal's "<colour>, since your take: ..." words ("so far" before the
    terminal's first take), unwrapped ('' if none). The line wraps inside its own
    column with the log beside it, two spaces or more away: each of its lines is cut
    there, continuation lines are indented by two."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        head = next(
            (h for h in (f"{colour}, since your take:", f"{colour}, so far:") if h in line), ""
        )
        col = line.find(head) if head else -1
        if col < 0:
            continue
        parts = [re.split(r"\s{2,}", line[col:])[0]]
        for more in lines[i + 1 :]:
            if more[col : col + 2] != "  " or more[col + 2 : col + 3] in ("", " "):
                break
            parts.append(re.split(r"\s{2,}", more[col + 2 :])[0])
        return " ".join(parts).removeprefix(f"{head} ")
    return ""


def enter(t: Tmux, screen: str) -> None:
    """Press Enter on Jo's ``screen`` and wait until the screen answers (a terminal slow
    to redraw under load gets the key again only after a whole second unchanged)."""
    for _ in range(20):
        t.keys("Enter", name="jo")
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            if t.screen("jo") != screen:
                return
            time.sleep(0.05)
    raise AssertionError(f"Jo's screen never answered Enter:\n{screen}")


PROGRESS = (
    "() => ['#turn', '#lastmove', '.deck', '#end-h']"
    ".map((s) => document.querySelector(s)?.textContent ?? '').join('|')"
)


def until_shown(page: Any, selector: str, what: str) -> None:
    """Wait until ``selector`` is on the page while the page keeps showing new moves;
    fail only if it shows nothing new for ``STALL`` seconds."""
    seen, moved = "", time.monotonic()
    while not page.locator(selector).count():
        now = page.evaluate(PROGRESS)
        if now != seen:
            seen, moved = now, time.monotonic()
        assert time.monotonic() - moved < STALL, f"{what}: stuck at {seen!r}"
        page.wait_for_timeout(50)


def tap(page: Any, locator: Any, size: str) -> None:
    locator.tap() if size == "phone" else locator.click()


def check_ann(page: Any, others: list[tuple[int, str]]) -> None:
    """Ann is to decide: her log has each take of the others since her last decision,
    and the move under the grid is the latest of all (or a corner stop after it, which
    takes nothing: the record holds takes only)."""
    log = page.locator(".log").inner_text()
    lines = log.splitlines()
    for seat, card in others:
        words = f" takes {web_words(card)}"
        said = any(ln.startswith(COLOURS[seat]) and words in ln for ln in lines)
        assert said, f"{COLOURS[seat]}{words!r} not in Ann's log:\n{log}"
    seat, card = others[-1]
    last = page.locator("#lastmove").inner_text()
    if "stops at a corner: nothing taken" in last:
        stops = [ln for ln in lines if "stops at a corner" in ln]
        assert stops and stops[-1] in last, (last, lines)  # as the log says it
        return
    assert last.startswith(f"Last move: {COLOURS[seat]}"), last
    assert f" takes {web_words(card)}" in last, last


def check_jo(screen: str, others: list[tuple[int, str]]) -> None:
    """Jo is to decide: each other seat's "since your take" line has its latest take."""
    latest = {seat: card for seat, card in others}
    for seat, card in latest.items():
        said = since_line(screen, COLOURS[seat])
        assert term_words(card) in said, f"{term_words(card)!r} not on Jo's screen:\n{screen}"


@pytest.mark.parametrize(
    ("players", "size", "watcher"),
    [(2, "desktop", "phone"), (3, "phone", "desktop")],
    ids=["two-people-desktop", "three-with-a-computer-phone"],
)
@pytest.mark.long
def test_a_browser_and_a_terminal_at_one_table_with_a_spectator(
    live_server: LiveServer,
    open_page: Any,
    tmp_path: Path,
    players: int,
    size: str,
    watcher: str,
) -> None:
    started = time.monotonic()
    port = live_server.server.port
    name = f"{size}-28-mixed-{players}p"
    ann = open_page(size, pace=None)  # the page's own pace: each move seen in time
    open_lobby(ann, live_server)
    ann.fill("#player-name", "Ann")
    ann.click("#new-table")
    ann.wait_for_selector("#create-go")
    ann.select_option("#opt-players", str(players))
    ann.select_option("#seat-1", "")  # Black: a person, not a computer
    if players == 3:  # Lilac: the computer player of the first, quickest level
        assert ann.locator("#seat-2").input_value() != ""
    ann.click("#create-go")
    ann.wait_for_selector("#invite-link")
    watch_link = ann.locator("#watch-link").get_attribute("href")
    assert watch_link

    t = Tmux(tmp_path)  # QUICK_PACE: other seats' moves shown 0.1 s apart
    try:
        t.start(
            f"{KK} join ws://127.0.0.1:{port} --name Jo", name="jo", size=(120, 40), env=NO_HOLD
        )
        t.wait("Ann's table", name="jo")
        t.keys("Enter", name="jo")
        t.wait("Deck", name="jo", timeout=30)
        ann.wait_for_selector("#board")

        eve = open_page(watcher, pace=None)
        eve.goto(watch_link)
        eve.wait_for_selector("#join-go")
        eve.click("#join-go")
        eve.wait_for_selector("#board")
        until(eve, "document.querySelector('#question').innerText.includes('watching')")
        until(ann, "document.querySelector('.seats').innerText.includes('Black Jo')")

        seen = {ANN: 0, JO: 0}  # the record's length at each person's last decision
        checks = {ANN: 0, JO: 0}
        jo_turns = 0  # Jo's decisions so far, each a take once it reaches the server
        deadline = time.monotonic() + GAME_TIMEOUT
        while time.monotonic() < deadline:
            if ann.locator("#end-h").count():
                break
            screen = t.screen("jo")
            if "Final score" in screen:
                break
            if ann.locator(".cell.take:not([disabled])").count():
                takes = taken(live_server)
                others = [(s, c) for s, c in takes[seen[ANN] :] if s != ANN]
                if others:
                    check_ann(ann, others)
                    checks[ANN] += 1
                    if checks[ANN] == 2:
                        shot(ann, f"{name}-browser-turn")
                cards = ann.locator(".cell.take:not([disabled])")
                cell = cards.nth(checks[ANN] % cards.count())
                card = cell.get_attribute("data-card")
                assert card
                seen[ANN] = len(takes)
                tap(ann, cell, size)
                answers = ann.locator(".options button")
                answers.first.wait_for()
                tap(ann, answers.nth(checks[ANN] % answers.count()), size)
                # the take is in the record before anyone is asked to decide again
                limit = time.monotonic() + STALL
                while len(taken(live_server)) == len(takes):
                    assert time.monotonic() < limit, "Ann's take never reached the server"
                    time.sleep(0.05)
                assert taken(live_server)[len(takes)] == (ANN, card)
                until(
                    ann,
                    "!document.querySelector('.options button') || "
                    "document.querySelector('.options button').disabled",
                )
                continue
            if "[y]es" in screen or "[k]eep" in screen or "Targets (" in screen:
                enter(t, screen)
                continue
            if "Your turn" in screen:
                takes, mover = table_now(live_server)
                if mover != JO or sum(s == JO for s, _ in takes) < jo_turns:
                    # a screen read before it showed Jo's last take: that take is not
                    # at the server yet, or others have taken since and the screen is
                    # still to show it: no decision of Jo's, look again
                    time.sleep(0.05)
                    continue
                jo_turns += 1
                others = [(s, c) for s, c in takes[seen[JO] :] if s != JO]
                if others:
                    check_jo(screen, others)
                    checks[JO] += 1
                    if checks[JO] == 2:
                        save_text(f"terminal-28-mixed-{players}p-jo-turn", screen)
                seen[JO] = len(takes)
                enter(t, screen)
                continue
            time.sleep(0.05)
        else:
            raise AssertionError(f"the game did not end in {GAME_TIMEOUT} s:\n{t.screen('jo')}")
        played = time.monotonic() - started

        # every person saw the others' moves, turn after turn, to the end
        assert checks[ANN] >= 5 and checks[JO] >= 5, checks
        until_shown(ann, "#end-h", "Ann's page")
        jo = t.wait("Final score", name="jo", timeout=STALL)
        assert "Ann" in jo and "Jo" in jo and "TOTAL" in jo, jo
        until_shown(eve, "#end-h", "the spectator's page")
        result = eve.locator("#result-words").inner_text()
        assert "played out" in result and ("wins" in result or "share the win" in result)
        assert result == ann.locator("#result-words").inner_text().replace(", you)", ")")
        assert eve.locator(".places li").count() == players
        assert eve.locator(".scores tbody tr").count() == players
        shot(ann, f"{name}-game-over")
        shot(eve, f"{watcher}-30-mixed-{players}p-spectator-end")
        save_text(f"terminal-29-mixed-{players}p-game-over", jo)
        assert ann.errors == [] and eve.errors == []
        print(
            f"{players} players: checked before {checks[ANN]} of Ann's and {checks[JO]} of"
            f" Jo's decisions; game {played:.1f} s, spectator's end"
            f" {time.monotonic() - started - played:.1f} s later"
        )
    finally:
        t.kill()
