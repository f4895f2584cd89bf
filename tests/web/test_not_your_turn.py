"""While another seat is to move the question's panel is headed "Not your turn" above
"Waiting for Black (beginner bot).", not "Your move", which said the opposite of the
line under it; on one's turn it is "Your turn"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import start_game, take_one
from tests.helpers.web import LiveServer, until

pytestmark = pytest.mark.e2e

HEADING = "document.querySelector('#question h2').textContent"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_panel_says_not_your_turn_while_another_seat_moves(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    # slow: each of the computer's moves stays 1.5 s on screen
    page = open_page(size, pace="slow")
    start_game(page, live_server, **{"opt-seed": "1"})
    page.wait_for_selector(".cell.take")
    assert page.evaluate(HEADING) == "Your turn"
    take_one(page, size, pick=1)  # seed 1: Eye of newt, no symbol: the turn passes
    until(page, "document.querySelector('#question').innerText.includes('Waiting for')")
    assert page.evaluate(HEADING) == "Not your turn"
    assert page.locator("#question p").inner_text() == "Waiting for Black (beginner bot)."
    assert page.errors == []
