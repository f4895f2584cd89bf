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
    "size,width,height",
    [
        ("desktop", 1366, 768),
        ("desktop", 1920, 1080),
        ("desktop", 1280, 900),
        ("desktop", 820, 1180),
        ("phone", 390, 844),
        ("phone", 320, 568),
    ],
)
def test_the_turn_banner_is_as_wide_as_the_grid(
    live_server: LiveServer, open_page: Any, size: str, width: int, height: int
) -> None:
    page = my_turn_at(open_page, live_server, size, width, height)
    edges = page.evaluate(EDGES)
    shot(page, f"banner-{width}x{height}")
    turn, board = edges["#turn"], edges["#board"]
    assert abs(turn[0] - board[0]) <= 1 and abs(turn[1] - board[1]) <= 1, edges
    # the line under the grid starts where the grid does and ends inside its width
    assert abs(edges["#lastmove"][0] - board[0]) <= 1 and edges["#lastmove"][1] <= board[1] + 1
    # on the screen, and the answers still beside the grid on a wide one
    assert board[0] >= 0 and board[1] <= width
    if width >= 1024:
        question = page.locator("#question").bounding_box()
        assert question and question["x"] >= board[1]
    assert page.errors == []
