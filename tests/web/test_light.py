"""What the page makes the browser animate during a game, in a real Chromium (Playwright)
against a real server on loopback: at most what the compositor moves alone
(``transform``, ``opacity``: no repaint of the page on every frame, which a phone pays
for in battery), nothing that runs for ever, and nothing at all when the system asks
for reduced motion; and the grid changed in place from move to move, not built anew.
How much that costs per move is measured by ``bench/web_render.py``, not here."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import my_turn, start_game, take_one
from tests.helpers.web import LiveServer, until

pytestmark = pytest.mark.e2e

# every animation and transition that starts, with what it animates and how often
RECORD = """
window.kkAnimations = [];
const seen = (e) => {
  for (const a of e.target.getAnimations ? e.target.getAnimations() : []) {
    const props = new Set();
    for (const frame of a.effect.getKeyframes())
      for (const p of Object.keys(frame))
        if (!["offset", "computedOffset", "easing", "composite"].includes(p)) props.add(p);
    window.kkAnimations.push({
      what: e.type + " " + (e.animationName || e.propertyName || ""),
      props: [...props],
      iterations: a.effect.getTiming().iterations,
    });
  }
};
document.addEventListener("animationstart", seen, true);
document.addEventListener("transitionstart", seen, true);
"""

# the grid as it is now, and a count of the nodes put into it or taken out of it
GRID_CHANGES = """() => {
  window.kkGrid = document.getElementById('board');
  window.kkNodes = 0;
  new MutationObserver((records) => {
    for (const r of records) window.kkNodes += r.addedNodes.length + r.removedNodes.length;
  }).observe(window.kkGrid, { childList: true, subtree: true });
}"""

RUNNING = "document.getAnimations().filter(a => a.playState === 'running').length"

# every formatter of Intl the page makes, counted (each works as before)
COUNT_FORMATTERS = """
window.kkFormatters = 0;
for (const kind of ["NumberFormat", "PluralRules", "ListFormat", "DateTimeFormat"]) {
  Intl[kind] = new Proxy(Intl[kind], {
    construct(made, args) { window.kkFormatters += 1; return Reflect.construct(made, args); },
  });
}
"""


def three_moves(page: Any, live: LiveServer) -> None:
    """A game against the computer at a phone's size: three takes of this seat, each
    answered by the computer (its take shown, marked *last*), then the page at rest."""
    start_game(page, live, **{"opt-seed": "1"})
    until(page, "document.querySelector('.cell.take:not([disabled])') !== null")
    page.evaluate(GRID_CHANGES)
    for _ in range(3):
        until(page, "document.querySelector('.cell.take:not([disabled])') !== null")
        take_one(page, "phone", option=0)
        until(page, "!document.querySelector('.options button:not([disabled])')")
    until(page, "document.querySelector('.cell.take:not([disabled])') !== null")
    assert my_turn(page)


def test_the_page_animates_only_transform_and_opacity_and_then_rests(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("phone")
    page.add_init_script(script=RECORD)
    three_moves(page, live_server)
    # the grid was changed in place, move after move, never built and laid out anew
    assert page.evaluate("() => window.kkGrid === document.getElementById('board')")
    # and in few places: a move changes the cells it changes, not every cell after the
    # first that differs (a grid's cells matched by their order were rewritten at
    # about 600 nodes a move once the line to take from had moved)
    changed = page.evaluate("() => window.kkNodes")
    assert changed <= 3 * 150, changed
    # once the moves are shown nothing keeps running: no animation for ever
    until(page, f"{RUNNING} === 0", timeout=10_000)
    for a in page.evaluate("() => window.kkAnimations"):
        assert set(a["props"]) <= {"transform", "opacity"}, a
        assert a["iterations"] != float("inf") and a["iterations"] <= 3, a
    assert page.errors == []


def test_reduced_motion_moves_nothing(live_server: LiveServer, open_page: Any) -> None:
    page = open_page("phone", reduced_motion="reduce")
    page.add_init_script(script=RECORD)
    three_moves(page, live_server)
    assert page.evaluate("() => window.kkAnimations") == []
    assert page.evaluate(f"() => {RUNNING}") == 0
    assert page.errors == []


def test_the_table_is_drawn_without_making_formatters_again(
    live_server: LiveServer, open_page: Any
) -> None:
    """A table screen shows a hundred numbers (each card's place, in its label) and is
    drawn about four times a move: a formatter made for each of them cost a phone a
    third of a move's script. Each kind is made once, for the language spoken, and
    writes what a new one writes."""
    page = open_page("phone")
    page.add_init_script(script=COUNT_FORMATTERS)
    three_moves(page, live_server)
    made = page.evaluate("() => window.kkFormatters")
    assert made <= 10, made  # a dozen tables drawn (about 1,500 numbers): a few formatters
    # the deck's line in the plural form a new formatter picks for its number
    line, n, form = page.evaluate(
        """() => {
          const line = document.querySelector('.deck').textContent.split(' · ')[0];
          const n = Number(line.match(/\\d+/)[0]);
          return [line, n, new Intl.PluralRules(document.documentElement.lang).select(n)];
        }"""
    )
    assert line == (f"Deck: {n} card" if form == "one" else f"Deck: {n} cards"), (line, form)
    assert page.errors == []


# the frames the page sends held back while ``kkHold`` is set (the take in flight for as
# long as the test wants), and the grid and the question as they were when the first
# of them went out: right after the take was pressed, its "sending" state shown
HOLD_FRAMES = """
window.kkHold = false;
window.kkHeld = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (!window.kkHold) return send.call(this, data);
  if (!window.kkHeld.length)
    window.kkSending = ['board', 'question'].map(
      (id) => document.getElementById(id).cloneNode(true));
  window.kkHeld.push(() => send.call(this, data));
};
"""


def test_a_take_being_sent_changes_what_a_whole_table_drawn_would(
    live_server: LiveServer, open_page: Any
) -> None:
    """A take pressed disables the cards to take and the answers while it is sent, and
    changes only them rather than drawing the whole table again (a tenth of a move's
    cost): the grid and the question then are exactly what the table drawn
    whole in that state shows (drawn for news, here someone coming to watch)."""
    ann = open_page("phone")
    ann.add_init_script(script=HOLD_FRAMES)
    start_game(ann, live_server, **{"opt-seed": "1"})
    until(ann, "document.querySelector('.cell.take:not([disabled])') !== null")
    ann.locator(".cell.take").first.tap()
    answer = ann.locator(".options button").first
    answer.wait_for()
    ann.evaluate("() => { window.kkHold = true; }")
    answer.tap()
    until(ann, "window.kkHeld.length > 0")
    # sending: every card to take and every answer disabled, the answers still shown
    live = ".cell.take:not([disabled]), .options button:not([disabled])"
    assert ann.evaluate(f"() => document.querySelectorAll({live!r}).length") == 0
    assert ann.locator(".options button").count() > 0
    # while the take is held, Eve comes to watch: Ann's table is drawn whole for it
    (table,) = live_server.call(tables(live_server))
    eve = open_page("phone", pace=None)
    eve.goto(f"{live_server.url}#/watch/{table}")
    eve.click("#join-go")
    eve.wait_for_selector("#board")
    until(ann, "document.querySelector('.seats').innerText.includes('1 person watching')")
    same = ann.evaluate(
        """() => window.kkSending.map((was) => {
          const now = document.getElementById(was.id);
          return was.isEqualNode(now) ? null : [was.outerHTML, now.outerHTML];
        })"""
    )
    assert same == [None, None], same
    # the take goes out: the game goes on
    ann.evaluate("() => { window.kkHold = false; window.kkHeld.splice(0).forEach((go) => go()); }")
    until(ann, "document.querySelector('.lastmove').textContent.includes('Last move')")
    assert ann.errors == [] and eve.errors == []


async def tables(live: LiveServer) -> list[str]:
    return [str(t) for t in live.server.lobby.tables]
