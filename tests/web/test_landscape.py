"""A phone held sideways: the table screen fits the short, wide screen. The header is one
line, the banner and the grid fill the left of the screen and the question and the
seat's own buttons the right; the page itself never scrolls (each column does, if it
must), so that no card is out of reach and nothing jumps under a finger."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import CUT_WORDS, WORDS_OVER_WORDS, start_game
from tests.helpers.web import LiveServer, shot

pytestmark = pytest.mark.e2e

BOX = """sel => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
  right: r.right}; }"""
PAGE_SCROLLS = """() => ({x: scrollX, y: scrollY,
  tall: document.documentElement.scrollHeight > innerHeight + 1,
  wide: document.documentElement.scrollWidth > innerWidth + 1})"""


def inside(page: Any, selector: str) -> bool:
    """``selector``'s element lies wholly on the screen."""
    box = page.evaluate(BOX, selector)
    size = page.viewport_size
    return bool(
        box
        and box["top"] >= 0
        and box["left"] >= 0
        and box["bottom"] <= size["height"] + 0.5
        and box["right"] <= size["width"] + 0.5
    )


def still(page: Any) -> None:
    """The page has not scrolled, and has nothing to scroll."""
    assert page.evaluate(PAGE_SCROLLS) == {"x": 0, "y": 0, "tall": False, "wide": False}


def sideways(open_page: Any, live: LiveServer, width: int, height: int) -> Any:
    page = open_page("phone")
    page.set_viewport_size({"width": width, "height": height})
    # seed 1: White's first line holds boom and wand cards, one of them in the last row
    start_game(page, live, **{"opt-seed": "1"})
    page.wait_for_selector(".cell.take")
    return page


@pytest.mark.parametrize("width,height", [(844, 390), (932, 430), (812, 375)])
def test_a_phone_held_sideways_shows_the_whole_grid_the_banner_and_the_answers(
    live_server: LiveServer, open_page: Any, width: int, height: int
) -> None:
    page = sideways(open_page, live_server, width, height)
    shot(page, f"landscape-{width}x{height}-table")
    still(page)
    for part in ("#turn", "#board", "#question", '[data-key="resign"]', ".top"):
        assert inside(page, part), part
    # the banner, the grid and the answers side by side, not one under the other
    board, question = page.evaluate(BOX, "#board"), page.evaluate(BOX, "#question")
    assert question["left"] >= board["right"]
    assert page.evaluate(WORDS_OVER_WORDS) == [] and page.evaluate(CUT_WORDS) == []
    # every card to take, chosen by touch: its answers beside it, nothing moved
    takes = page.locator(".cell.take")
    for i in range(takes.count()):
        takes.nth(i).tap()
        page.wait_for_selector(".cell.selected .badge")
        still(page)
        assert inside(page, ".options button") and inside(page, ".cell.selected")
        assert page.evaluate(WORDS_OVER_WORDS) == [] and page.evaluate(CUT_WORDS) == []
    shot(page, f"landscape-{width}x{height}-chosen")
    page.locator(".options button").last.tap()
    page.wait_for_selector("#lastmove:has-text('Last move')")
    still(page)
    assert page.errors == []


@pytest.mark.parametrize("width,height", [(568, 320), (640, 360), (740, 360)])
def test_a_small_phone_sideways_reaches_every_card_without_the_page_moving(
    live_server: LiveServer, open_page: Any, width: int, height: int
) -> None:
    page = sideways(open_page, live_server, width, height)
    shot(page, f"landscape-{width}x{height}-table")
    still(page)
    for part in ("#turn", "#question", ".top"):
        assert inside(page, part), part
    # most of the grid on the first screen: at least its first four rows of cards
    row4 = page.evaluate(BOX, "#board > :nth-child(39)")  # the grid's row 3, column 5
    assert row4["top"] >= page.evaluate(BOX, "#turn")["bottom"] and row4["bottom"] <= height
    assert page.evaluate(WORDS_OVER_WORDS) == [] and page.evaluate(CUT_WORDS) == []
    # the rest by scrolling the grid's own column: the page stays where it is
    page.evaluate("document.querySelector('.board-col').scrollTop = 1e6")
    assert page.evaluate(BOX, "#board")["bottom"] <= height + 0.5
    still(page)
    takes = page.locator(".cell.take")
    for i in range(takes.count()):
        takes.nth(i).tap()
        page.wait_for_selector(".cell.selected .badge")
        still(page)
        assert inside(page, ".cell.selected") and inside(page, "#question h2")
        assert page.evaluate(WORDS_OVER_WORDS) == [] and page.evaluate(CUT_WORDS) == []
    shot(page, f"landscape-{width}x{height}-chosen")
    assert page.errors == []
