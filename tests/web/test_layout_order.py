"""What is seen and what the keyboard meets agree, and a wide screen's table stands
together: the tab key walks the table in the order its parts are seen (the grid's
column first, then the side column from top to bottom), on a phone held sideways as on
a desktop; and on a desktop's wide screen the grid and the panel beside it stand next
to each other, with no empty band between them."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.helpers.pages import my_turn_at
from tests.helpers.web import LiveServer, shot

pytestmark = pytest.mark.e2e

# where the focused element lies: its column, and its place inside the column's own
# content (a column that scrolls to show it does not change that place)
WHERE = """() => { const e = document.activeElement;
  const col = e && e.closest('.board-col, .side');
  if (!col || !e.closest('.table-screen')) return null;
  const r = e.getBoundingClientRect(), c = col.getBoundingClientRect();
  return {col: col.classList.contains('side') ? 1 : 0,
    top: Math.round(r.top - c.top + col.scrollTop), left: Math.round(r.left),
    name: e.dataset.key || e.id || e.tagName}; }"""


def tab_walk(page: Any) -> list[dict[str, Any]]:
    """The table's focusable parts in the order Tab reaches them, from the turn banner."""
    page.locator("#turn").focus()
    seen: list[dict[str, Any]] = []
    for _ in range(60):
        page.keyboard.press("Tab")
        where = page.evaluate(WHERE)
        if where is None:
            break
        seen.append(where)
    return seen


@pytest.mark.parametrize(
    "size,width,height",
    [("phone", 844, 390), ("phone", 568, 320), ("phone", 740, 360), ("desktop", 1280, 900)],
)
def test_the_tab_key_meets_the_table_in_the_order_it_is_seen(
    live_server: LiveServer, open_page: Any, size: str, width: int, height: int
) -> None:
    page = my_turn_at(open_page, live_server, size, width, height)
    seen = tab_walk(page)
    names = [s["name"] for s in seen]
    # the grid, the answers' panel, the seat's own buttons and the chat all reached
    assert {"resign", "leave", "chat-text"} <= set(names) and names[0].startswith("cell"), names
    cols = [s["col"] for s in seen]
    assert cols == sorted(cols) and cols[0] == 0, seen  # the grid's column, then the side
    side = [(s["top"], s["left"]) for s in seen if s["col"] == 1]
    # top to bottom; on one line (a few px apart), left to right
    for (top_a, left_a), (top_b, left_b) in itertools.pairwise(side):
        assert top_b > top_a + 8 or (abs(top_b - top_a) <= 8 and left_b > left_a), seen
    # the seat's own buttons right under the question, before the players panel
    q = page.evaluate("document.querySelector('#question').getBoundingClientRect().bottom")
    a = page.evaluate("document.querySelector('.actions').getBoundingClientRect().top")
    p = page.evaluate("document.querySelector('.seats').getBoundingClientRect().top")
    assert q <= a < p
    shot(page, f"order-{width}x{height}")
    assert page.errors == []


BOXES = """() => Object.fromEntries(['main', '#board', '.board-col', '#question', '.side']
  .map(s => { const r = document.querySelector(s).getBoundingClientRect();
    return [s, {left: r.left, right: r.right}]; }))"""


WIDE = [(1280, 900), (1366, 768), (1920, 1080), (1100, 800)]
"""Laptop and desktop screens."""


def test_a_wide_screen_shows_the_grid_and_the_panel_side_by_side(
    live_server: LiveServer, open_page: Any
) -> None:
    """The first turn read at each screen from one page, resized (the layout is its
    style sheet's alone; a table a screen started the same first turn again)."""
    page = my_turn_at(open_page, live_server, "desktop", *WIDE[0])
    for width, height in WIDE:
        page.set_viewport_size({"width": width, "height": height})
        b = page.evaluate(BOXES)
        shot(page, f"wide-{width}x{height}")
        board, side = b["#board"], b[".side"]
        # the grid fills its column and the panel starts one gap (16px) after it
        assert abs(b[".board-col"]["right"] - board["right"]) <= 1, (width, b)
        assert 0 <= side["left"] - board["right"] <= 17, (width, b)
        assert b["#question"]["left"] >= board["right"], (width, b)
        # the pair centred on the screen: as much room left of the grid as right of the panel
        assert abs(board["left"] - (width - side["right"])) <= 2, (width, b)
    assert page.errors == []
