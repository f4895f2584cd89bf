"""A pawn beside the grid says its whole tag and arrow on a phone held sideways: there
the spaces left and right of the grid are narrow and high, and "◀Wh" in one line was cut
to "◀W"; beside the grid the arrow stands over the tag, above and below it beside."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import my_turn_at, take_one
from tests.helpers.web import LiveServer, shot, until

pytestmark = pytest.mark.e2e

# the pawns whose words run past their space, with where they stand
CUT_PAWNS = """() => [...document.querySelectorAll('#board .pawn')]
  .filter(p => p.scrollWidth > p.clientWidth + 1 || p.scrollHeight > p.clientHeight + 1)
  .map(p => p.getAttribute('aria-label'))"""
BESIDE = """() => [...document.querySelectorAll('#board > .pawn')].some(p => {
  const i = [...p.parentElement.children].indexOf(p) % 8; return i === 0 || i === 7; })"""


SIZES = [(568, 320), (640, 360), (740, 360), (844, 390)]
"""Phones held sideways, smallest first."""


def test_a_pawn_beside_the_grid_shows_its_whole_tag(
    live_server: LiveServer, open_page: Any
) -> None:
    """One game brings a pawn beside the grid; each phone's size is then read from the
    same page, resized (the grid's layout is its style sheet's alone): a game a size
    played the same moves again."""
    width, height = SIZES[0]
    page = my_turn_at(open_page, live_server, "phone", width, height)
    # seed 1: take the first card until a pawn stands beside the grid (left or right)
    for _ in range(12):
        if page.evaluate(BESIDE):
            break
        until(page, "document.querySelector('.cell.take:not([disabled])')")
        take_one(page, "phone")
        until(page, f"({BESIDE})() || document.querySelector('.cell.take:not([disabled])')")
    assert page.evaluate(BESIDE)
    cut = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"pawn-beside-{width}x{height}", "#board")
        cut[f"{width}x{height}"] = page.evaluate(CUT_PAWNS)
    assert cut == {size: [] for size in cut}
    assert page.errors == []
