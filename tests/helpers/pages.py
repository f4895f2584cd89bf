"""What a person does on the browser client's pages, for the web tests: a table made,
joined by its invite, a take, a game played to its end or started at a size, a new
table from the form; the page's words checked (``CUT_WORDS``, ``WORDS_OVER_WORDS``) and
its accessibility (``violations``, axe-core)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from client.ui.render.cards import SYMBOL_WORD
from shared.cards import CARDS
from tests.helpers.web import LiveServer, open_lobby, shot, until

GAME_TIMEOUT = 240.0  # seconds for a whole game (the bot's moves shown 0.3 s apart)


def create_table(
    page: Any, name: str = "Ann", fill: dict[str, str] | None = None, **options: str
) -> None:
    """Create a table as ``name``: ``options`` are the form's choices (select id to
    value), ``fill`` its typed fields (input id to text)."""
    page.fill("#player-name", name)
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    for field, value in options.items():
        page.select_option(f"#{field}", value)
    for field, text in (fill or {}).items():
        page.fill(f"#{field}", text)
    page.click("#create-go")


def join_by_invite(host: Any, open_page: Any, name: str = "Bea") -> Any:
    """A phone page that opens the waiting ``host``'s invite link and sits down as
    ``name``; returns it once both pages show the table."""
    host.wait_for_selector("#invite-link")
    guest = open_page("phone")
    guest.goto(host.locator("#invite-link").get_attribute("href"))
    guest.fill("#player-name", name)
    guest.click("#join-go")
    host.wait_for_selector("#board")
    guest.wait_for_selector("#board")
    return guest


def tap(page: Any, locator: Any, size: str, timeout: float | None = None) -> None:
    if size == "phone":
        locator.tap(timeout=timeout)
    else:
        locator.click(timeout=timeout)


TURN = ".cell.take:not([disabled])"
"""A card this seat may take now: its turn."""


def my_turn(page: Any) -> bool:
    return bool(page.locator(TURN).count())


def take_one(
    page: Any, size: str, pick: int = 0, option: int = -1, timeout: float | None = None
) -> str:
    """Take a card by touch or mouse: choose it, then one of the answers; returns the
    answer's words. ``timeout`` (ms) bounds each wait (Playwright's default: 30 s)."""
    cards = page.locator(".cell.take:not([disabled])")
    tap(page, cards.nth(pick % max(1, cards.count())), size, timeout)
    answers = page.locator(".options button")
    answers.first.wait_for(timeout=timeout)
    n = answers.count()
    choice = answers.nth(option % n if option >= 0 else n - 1)
    words: str = choice.inner_text(timeout=timeout)
    tap(page, choice, size, timeout)
    return words


def play_to_the_end(page: Any, size: str, shots: str | None = None, limit: int = 10_000) -> int:
    """Play every turn of this seat until the game ends (or ``limit`` takes); returns the
    takes made. The first turn with a question is saved as a screenshot."""
    deadline = time.monotonic() + GAME_TIMEOUT
    takes = 0
    asked = False
    while time.monotonic() < deadline and takes < limit:
        # the end or this seat's turn, whichever comes first (the computer's moves are
        # shown meanwhile): one wait, not a look at both every 50 ms
        left = max(0.0, deadline - time.monotonic())
        until(
            page,
            f"!!document.getElementById('end-h') || !!document.querySelector({TURN!r})",
            timeout=left * 1000,
        )
        if page.locator("#end-h").count():
            return takes
        if my_turn(page):
            cards = page.locator(TURN)
            if shots and takes == 0:
                shot(page, f"{shots}-4-your-turn")
            tap(page, cards.nth(takes % cards.count()), size)
            answers = page.locator(".options button")
            try:
                answers.first.wait_for(timeout=5_000)
            except pytest.importorskip("playwright.sync_api").TimeoutError:
                # the board was drawn anew under the tap (the seat resumed after a lost
                # connection): tap again, as a person would
                continue
            assert page.locator("#preview").inner_text().startswith(("This card", "With the wand"))
            if shots and not asked and answers.count() > 1:
                shot(page, f"{shots}-5-question")
                shot(page, f"{shots}-5-question-board", "#board")
                asked = True
            # alternate between the answers: symbols used and declined
            answers.nth(takes % answers.count()).click() if size == "desktop" else answers.nth(
                takes % answers.count()
            ).tap()
            takes += 1
            until(
                page,
                "!document.querySelector('.options button') || "
                "document.querySelector('.options button').disabled",
            )
    if takes >= limit:
        return takes
    raise AssertionError(f"the game did not end in {GAME_TIMEOUT} s")


# every shown word of every card on the grid that does not fit inside its card
CUT_WORDS = """() => [...document.querySelectorAll('#board .cell.card')].flatMap(c => {
  const r = c.getBoundingClientRect();
  return [...c.children].filter(x => !x.classList.contains('sr-only')
      && getComputedStyle(x).display !== 'none')
    .filter(x => {
      const q = x.getBoundingClientRect();
      return q.top < r.top || q.bottom > r.bottom || q.left < r.left || q.right > r.right
        || x.scrollWidth > x.clientWidth + 1;
    })
    .map(x => `${c.getAttribute('aria-label') || c.dataset.card}: ${x.textContent}`);
})"""


def start_game(page: Any, live: LiveServer, **fields: str) -> None:
    """A new table against the computer: ``fields`` fill the form's inputs by id."""
    open_lobby(page, live)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    for field, value in fields.items():
        page.fill(f"#{field}", value)
    page.click("#create-go")


def three_with_recipes(page: Any, live: LiveServer) -> None:
    """A new table of three with the recipe variant, Ann against two computers."""
    open_lobby(page, live)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.select_option("#opt-players", "3")
    page.check("#opt-recipes")
    page.click("#create-go")
    page.wait_for_selector("#board")


def my_turn_at(open_page: Any, live: LiveServer, size: str, width: int, height: int) -> Any:
    """A page of ``size`` ("phone", "desktop") set to ``width`` x ``height``, at a new
    table against the computer (seed 1), its cards to take on the screen."""
    page = open_page(size)
    page.set_viewport_size({"width": width, "height": height})
    start_game(page, live, **{"opt-seed": "1"})
    page.wait_for_selector(".cell.take")
    return page


AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"


AXE_RUN = """() => axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
  .filter(v => v.impact === "serious" || v.impact === "critical")
  .map(v => v.id + " (" + v.impact + "): " +
    v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", ")))"""


def violations(page: Any) -> list[str]:
    """Serious and critical axe-core violations of the page as it is now. (The script
    is handed in through the DevTools protocol, which the page's CSP does not govern.)"""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    found: list[str] = page.evaluate(AXE_RUN)
    return found


# every pair of a card's shown lines of words that lie over each other (a line's box
# taken 2 px in from above and below, the slack of its font's ascent and descent)
WORDS_OVER_WORDS = """() => [...document.querySelectorAll('#board .cell.card')].flatMap(c => {
  const lines = [...c.children]
    .filter(x => !x.classList.contains('sr-only') && getComputedStyle(x).display !== 'none')
    .flatMap(x => {
      const range = document.createRange();
      range.selectNodeContents(x);
      return [...range.getClientRects()].map(r => [x.textContent, r]);
    });
  const out = [];
  lines.forEach(([a, p], i) => lines.slice(i + 1).forEach(([b, q]) => {
    if (p.left < q.right && q.left < p.right
        && p.top + 2 < q.bottom - 2 && q.top + 2 < p.bottom - 2)
      out.push(`${c.dataset.card}: "${a}" over "${b}"`);
  }));
  return out;
})"""


def new_table(page: Any, live: LiveServer, name: str, players: str, private: bool = False) -> str:
    """Ann's table for people to join (every other seat waits for a person); returns
    its invite link."""
    start = {"table-name": name, "opt-move": "30"}
    open_lobby(page, live)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    page.select_option("#opt-players", players)
    page.check("#opt-recipes")
    if private:
        page.check("#opt-private")
    for s in range(1, int(players)):
        page.select_option(f"#seat-{s}", "")
    for field, value in start.items():
        page.fill(f"#{field}", value)
    page.click("#create-go")
    page.wait_for_selector("#invite-link")
    return str(page.locator("#invite-link").get_attribute("href"))


def device_code(page: Any) -> str:
    """Ask for a new device code and read it: once the page shows a code other than the
    one it showed before (a second ask leaves the first, used code up until the answer
    comes, and a busy machine reads it then)."""
    shown = page.locator("#device-code")
    before = shown.inner_text() if shown.count() else None
    page.click("#device-code-go")
    until(
        page,
        "arg => { const c = document.getElementById('device-code');"
        " return !!c && c.textContent !== arg; }",
        before,
    )
    code: str = page.inner_text("#device-code")
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", code), code
    return code


def register(page: Any, live: LiveServer, name: str = "Ada") -> None:
    """Open the lobby and register ``name`` from the page's Your player screen."""
    open_lobby(page, live)
    page.click("#your-player")
    page.wait_for_selector("#reg-name")
    page.fill("#reg-name", name)
    page.click("#register-go")
    until(page, f"document.getElementById('profile-h')?.textContent === 'Player {name}'")


def web_words(card: str) -> str:
    """A card as the page says it: ``Frog slime 3 boom (green)``."""
    c = next(x for x in CARDS if x.id == card)
    sym = f" {SYMBOL_WORD[c.symbol]}" if c.symbol else ""
    return f"{c.key.replace('_', ' ').capitalize()} {c.value}{sym} ({c.colour})"


def answer_then_resign(page: Any) -> None:
    """With the question of a take on the screen: answer it, wait for the turn to come
    back, resign and wait for the game's end."""
    page.locator(".options button").first.click()
    # the turn comes back once the computer's move is shown: the page stands still (a
    # press while the question goes and the computer's move comes in can land beside
    # the button it aimed at, as a CI run's "Yes, resign" once did)
    page.wait_for_selector(".options button", state="detached")
    page.wait_for_selector(".cell.take:not([disabled])")
    page.click('[data-key="resign"]')
    page.click('[data-key="resign-yes"]')
    page.wait_for_selector("#end-h")
