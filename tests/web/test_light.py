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
