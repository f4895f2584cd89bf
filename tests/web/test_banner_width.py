"""The turn banner lines up with the grid under it: the same left and right edges on a
desktop's wide screen (where the grid stops at its largest width), on a tablet, and on a
phone held upright."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import my_turn_at
from tests.helpers.web import LiveServer, shot

pytestmark = pytest.mark.e2e

EDGES = """() => Object.fromEntries(['#turn', '#board', '#lastmove'].map(s => {
  const r = document.querySelector(s).getBoundingClientRect();
  return [s, [r.left, r.right]]; }))"""


@pytest.mark.parametrize(
    ("size", "screens"),
    [
        ("desktop", [(1366, 768), (1920, 1080), (1280, 900), (820, 1180)]),
        ("phone", [(390, 844), (320, 568)]),
    ],
)
def test_the_turn_banner_is_as_wide_as_the_grid(
    live_server: LiveServer, open_page: Any, size: str, screens: list[tuple[int, int]]
) -> None:
    """One table a kind of device, its first turn read at each of its screens from the
    same page, resized (the layout is its style sheet's alone; a table a screen started
    the same first turn again)."""
    page = my_turn_at(open_page, live_server, size, *screens[0])
    for width, height in screens:
        page.set_viewport_size({"width": width, "height": height})
        edges = page.evaluate(EDGES)
        shot(page, f"banner-{width}x{height}")
        turn, board = edges["#turn"], edges["#board"]
        assert abs(turn[0] - board[0]) <= 1 and abs(turn[1] - board[1]) <= 1, (width, edges)
        # the line under the grid starts where the grid does and ends inside its width
        line = edges["#lastmove"]
        assert abs(line[0] - board[0]) <= 1 and line[1] <= board[1] + 1, (width, edges)
        # on the screen, and the answers still beside the grid on a wide one
        assert board[0] >= 0 and board[1] <= width, (width, edges)
        if width >= 1024:
            question = page.locator("#question").bounding_box()
            assert question and question["x"] >= board[1], (width, question, edges)
    assert page.errors == []
