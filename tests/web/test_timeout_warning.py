"""1.2: the page warns a person whose time ran out, counting the time-outs in a row
before a computer takes the seat, and the warning goes once they take a card."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest

from tests.helpers.pages import create_table, my_turn, take_one
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e

WARNING = "document.getElementById('timeout-warning')?.textContent ?? ''"


def test_time_outs_in_a_row_are_counted_for_the_seat_and_its_own_take_ends_them(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("phone")
    open_lobby(page, live_server)
    create_table(page, fill={"opt-move": "2", "opt-absent": "9"})
    page.wait_for_selector(".cell.take")
    warning = page.locator("#timeout-warning")
    assert warning.inner_text() == "" and warning.get_attribute("role") == "status"
    until(page, f"({WARNING}).includes('ran out once: at 9 in a row')")
    until(page, f"({WARNING}).includes('ran out 2 times in a row: at 9 in a row')")
    box = warning.bounding_box()  # on the first screen of a phone, by the clock
    assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"]
    shot(page, "phone-40-timeout-warning")
    # two seconds a move: take at once when the turn comes back; on a loaded machine
    # the time may run out first (the count goes on, far from 9): try the next turn
    errors = pytest.importorskip("playwright.sync_api").Error
    deadline = time.monotonic() + 60
    while page.evaluate(WARNING) != "":  # only our own take clears it before 9
        assert time.monotonic() < deadline, page.evaluate(WARNING)
        if my_turn(page):
            with contextlib.suppress(errors):
                take_one(page, "phone", timeout=1_500)
        time.sleep(0.1)
    assert page.errors == []
