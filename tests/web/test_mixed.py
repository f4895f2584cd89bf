"""A browser and a terminal at one table: Ann plays in Chromium, Jo in a real terminal
(``kupferkessel join`` in tmux) against the same in-process server on loopback, and a
second page watches. The whole game is played turn by turn, and before every decision
each person's screen must already show what the other took since their own last one:
the take of another client reaches every kind of client in time. The server's game
record says which cards were taken, so the check does not trust either client."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from client.ui.render.cards import SYMBOL_WORD, short_name
from shared.cards import CARDS
from tests.client.tmux import KK, Tmux, needs_tmux

from .conftest import SCREENSHOTS, LiveServer, open_lobby, shot, until

pytestmark = [needs_tmux, pytest.mark.e2e]

GAME_TIMEOUT = 300.0  # seconds for the whole game, two people each paced by a client
SEEN_TIMEOUT = 20_000  # ms for the browser's page to show a move it was sent
BY_ID = {c.id: c for c in CARDS}


def web_words(card: str) -> str:
    """The card as the page's log says it: ``Frog slime 3 boom (green)``."""
    c = BY_ID[card]
    sym = f" {SYMBOL_WORD[c.symbol]}" if c.symbol else ""
    return f"{c.key.replace('_', ' ').capitalize()} {c.value}{sym} ({c.colour})"


def term_words(card: str) -> str:
    """The card as the terminal's "since your take" line says it: ``Frog 3 boom``."""
    c = BY_ID[card]
    sym = f" {SYMBOL_WORD[c.symbol]}" if c.symbol else ""
    return f"{short_name(c.key)} {c.value}{sym}"


def taken(live: LiveServer) -> list[str]:
    """The cards taken so far at the server's one table, in order (its game record)."""

    async def read() -> list[str]:
        (table,) = live.server.lobby.tables.values()
        return [a.card for a in table.record.actions] if table.record else []

    result: list[str] = live.call(read())
    return result


def since_line(screen: str) -> str:
    """The terminal's "White, since your take: ..." words, unwrapped ('' if none). The
    line wraps inside its own column with the log beside it, two spaces or more away:
    each of its lines is cut there, continuation lines are indented by two."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        col = line.find("White, since your take:")
        if col < 0:
            continue
        parts = [re.split(r"\s{2,}", line[col:])[0]]
        for more in lines[i + 1 :]:
            if more[col : col + 2] != "  " or more[col + 2 : col + 3] in ("", " "):
                break
            parts.append(re.split(r"\s{2,}", more[col + 2 :])[0])
        return " ".join(parts).removeprefix("White, since your take: ")
    return ""


def enter(t: Tmux, screen: str) -> None:
    """Press Enter on Jo's ``screen`` until the screen changes: the terminal holds the
    take keys a moment when the turn comes back (``KUPFERKESSEL_HOLD``), so a key sent
    in that moment is not taken and must go again."""
    for _ in range(20):
        t.keys("Enter", name="jo")
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            if t.screen("jo") != screen:
                return
            time.sleep(0.05)
    raise AssertionError(f"Jo's screen never answered Enter:\n{screen}")


def test_a_browser_and_a_terminal_at_one_table_with_a_spectator(
    live_server: LiveServer, open_page: Any, tmp_path: Path
) -> None:
    port = live_server.server.port
    ann = open_page("desktop")
    open_lobby(ann, live_server)
    ann.fill("#player-name", "Ann")
    ann.click("#new-table")
    ann.wait_for_selector("#create-go")
    ann.select_option("#seat-1", "")  # a person, not a computer
    ann.click("#create-go")
    ann.wait_for_selector("#invite-link")
    watch_link = ann.locator("#watch-link").get_attribute("href")
    assert watch_link

    t = Tmux(tmp_path)  # QUICK_PACE: other seats' moves shown 0.1 s apart
    try:
        t.start(f"{KK} join ws://127.0.0.1:{port} --name Jo", name="jo", size=(120, 40))
        t.wait("Ann's table", name="jo")
        t.keys("Enter", name="jo")
        t.wait("Deck", name="jo", timeout=30)
        ann.wait_for_selector("#board")

        eve = open_page("phone")
        eve.goto(watch_link)
        eve.wait_for_selector("#join-go")
        eve.click("#join-go")
        eve.wait_for_selector("#board")
        until(eve, "document.querySelector('#question').innerText.includes('watching')")
        until(ann, "document.querySelector('.seats').innerText.includes('Black Jo')")

        ann_takes: list[str] = []  # the cards Ann took, in order
        ann_seen = 0  # record length after Ann's last take: what followed is Jo's
        jo_seen = 0  # Ann's takes Jo had been shown at Jo's last decision
        ann_checks = jo_checks = 0
        deadline = time.monotonic() + GAME_TIMEOUT
        while time.monotonic() < deadline:
            if ann.locator("#end-h").count():
                break
            screen = t.screen("jo")
            if "Final score" in screen:
                break
            if ann.locator(".cell.take:not([disabled])").count():
                # Ann decides: her page shows Jo's last take since her own
                jo_cards = taken(live_server)[ann_seen:]
                if jo_cards:
                    words = f"Black (Jo) takes {web_words(jo_cards[-1])}"
                    log = ann.locator(".log").inner_text()
                    assert words in log, f"{words!r} not in Ann's log:\n{log}"
                    # and the last move above the log is Jo's, the latest take of all
                    last = ann.locator("#lastmove").inner_text()
                    assert last.startswith(f"Last move: {words}"), last
                    ann_checks += 1
                cards = ann.locator(".cell.take:not([disabled])")
                cell = cards.nth(len(ann_takes) % cards.count())
                card = cell.get_attribute("data-card")
                assert card
                if ann_checks == 1 and jo_cards:
                    shot(ann, "desktop-28-mixed-browser-turn")
                before = len(taken(live_server))
                cell.click()
                answers = ann.locator(".options button")
                answers.first.wait_for()
                answers.nth(len(ann_takes) % answers.count()).click()
                ann_takes.append(card)
                # the take is in the record before anyone is asked to decide again
                limit = time.monotonic() + 20
                while len(taken(live_server)) == before:
                    assert time.monotonic() < limit, "Ann's take never reached the server"
                    time.sleep(0.05)
                assert taken(live_server)[before] == card
                ann_seen = before + 1
                until(
                    ann,
                    "!document.querySelector('.options button') || "
                    "document.querySelector('.options button').disabled",
                )
                continue
            if "Your turn" in screen:
                # Jo decides: the same screen shows Ann's last take since Jo's own
                if ann_takes[jo_seen:]:
                    said = since_line(screen)
                    words = term_words(ann_takes[-1])
                    assert words in said, f"{words!r} not on Jo's screen:\n{screen}"
                    jo_checks += 1
                    if jo_checks == 1:
                        (SCREENSHOTS / "terminal-28-mixed-jo-turn.txt").write_text(screen)
                jo_seen = len(ann_takes)
                enter(t, screen)
                continue
            if "[y]es" in screen or "[k]eep" in screen or "Targets (" in screen:
                enter(t, screen)
                continue
            time.sleep(0.05)
        else:
            raise AssertionError(f"the game did not end in {GAME_TIMEOUT} s:\n{t.screen('jo')}")

        # every person saw the other's moves, turn after turn, to the end
        assert ann_checks >= 5 and jo_checks >= 5, (ann_checks, jo_checks)
        ann.wait_for_selector("#end-h", timeout=SEEN_TIMEOUT)
        jo = t.wait("Final score", name="jo", timeout=30)
        assert "Ann" in jo and "Jo" in jo and "TOTAL" in jo, jo
        eve.wait_for_selector("#end-h", timeout=SEEN_TIMEOUT)
        result = eve.locator("#result-words").inner_text()
        assert "played out" in result and ("wins" in result or "share the win" in result)
        assert result == ann.locator("#result-words").inner_text().replace(", you)", ")")
        assert eve.locator(".places li").count() == 2
        assert eve.locator(".scores tbody tr").count() == 2
        shot(ann, "desktop-29-mixed-game-over")
        shot(eve, "phone-30-mixed-spectator-end")
        (SCREENSHOTS / "terminal-29-mixed-game-over.txt").write_text(jo)
        assert ann.errors == [] and eve.errors == []
        print(f"checked before {ann_checks} of Ann's and {jo_checks} of Jo's decisions")
    finally:
        t.kill()
