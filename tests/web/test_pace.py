"""The pace setting of the page: other seats' moves are shown a moment apart, "normal"
(0.9 s) for a first visit; "fast" (0.3 s), chosen in the settings, shows them sooner at
once, and the browser keeps the choice over a reload. The gaps are measured in the page
between two displayed moves, and held to their order of magnitude only, so a loaded
machine (a slow bot, a slow page) does not make the test fail."""

from __future__ import annotations

import itertools
import statistics
import time
from typing import Any

import pytest

from tests.helpers.pages import create_table, my_turn, take_one
from tests.helpers.web import PACE_KEY, LiveServer, open_lobby, until

pytestmark = pytest.mark.e2e

WATCH_MOVES = """() => {
    window.kkMoves = [];
    const seen = () => {
        const text = document.getElementById('lastmove')?.textContent ?? '';
        const last = window.kkMoves[window.kkMoves.length - 1];
        if (text && (!last || last[1] !== text)) window.kkMoves.push([performance.now(), text]);
    };
    new MutationObserver(seen).observe(document.getElementById('main'),
        {childList: true, characterData: true, subtree: true});
    seen();
}"""
"""Every move the page puts above the grid ("Last move: ..."), with the page's time."""


def other_gaps(page: Any, want: int, size: str = "desktop") -> list[float]:
    """Take this seat's turns until the page has shown ``want`` moves of the other seat
    after a move shown since now; the seconds between each and the move before it."""
    start = page.evaluate("window.kkMoves.length")
    deadline = time.monotonic() + 60
    while True:
        moves: list[list[Any]] = page.evaluate("window.kkMoves")[start:]
        gaps = [
            (b[0] - a[0]) / 1000
            for a, b in itertools.pairwise(moves)
            if "you)" not in b[1]  # another seat's move (this seat's says "(Ann, you)")
        ]
        if len(gaps) >= want:
            return gaps
        assert time.monotonic() < deadline, f"only {gaps} in 60 s: {moves}"
        assert not page.locator("#end-h").count(), f"the game ended first: {moves}"
        if my_turn(page):
            take_one(page, size)
            until(
                page,
                "!document.querySelector('.options button') || "
                "document.querySelector('.options button').disabled",
            )
        else:
            page.wait_for_timeout(20)


def rounded(gaps: list[float]) -> list[float]:
    return [round(g, 2) for g in gaps]


@pytest.mark.long
def test_fast_shows_other_seats_moves_sooner_and_is_kept(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("desktop", pace=None)  # a first visit: nothing kept
    open_lobby(page, live_server)
    pace = page.get_by_label("Other players' moves")
    assert pace.input_value() == "normal"
    create_table(page)  # against the computer: White (Ann) begins
    page.wait_for_selector("#board")
    page.evaluate(WATCH_MOVES)
    normal = other_gaps(page, 4)

    # the settings, opened from the keyboard, change the pace in mid-game
    page.focus("#settings summary")
    page.keyboard.press("Enter")
    assert page.locator("#settings").get_attribute("open") is not None
    pace.select_option("fast")
    assert page.evaluate(f"localStorage.getItem({PACE_KEY!r})") == "fast"
    fast = other_gaps(page, 4)
    assert statistics.median(normal) >= 0.8, normal
    assert statistics.median(fast) < 0.6, (fast, normal)

    # kept in the browser: the page comes back fast
    page.reload()
    page.wait_for_selector("#board")
    assert page.get_by_label("Other players' moves").input_value() == "fast"
    page.evaluate(WATCH_MOVES)
    again = other_gaps(page, 3)
    assert statistics.median(again) < 0.6, again
    assert page.errors == []
    print(f"gaps (s): normal {rounded(normal)}, fast {rounded(fast)}, reload {rounded(again)}")
