"""A tap on Resign just as the page enters a rematch's table opens the question, the
first time. The rematch's first screen is followed at once by the news of its start and,
a moment later (at the person's pace), by the other seat's first move: that move drew the
table anew under a finger still on the button (lines added to the log above it moved it
down; the turn coming to this seat moved the focus to the grid and scrolled the page
there), so the press ended over something else and was no click at all. News now waits
while a press is in progress, and a question being answered keeps the focus."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import start_game
from tests.helpers.web import LiveServer, shot, until

pytestmark = pytest.mark.e2e

RESIGN = '[data-key="resign"]'
YES = '[data-key="resign-yes"]'


def rematch_view(page: Any, live: LiveServer) -> None:
    """A game against the computer resigned at once, then a rematch (the computer agrees
    at once): back when the rematch's table is on screen, before the computer, who now
    plays White, has been seen to move. The page's clock stands still from the rematch
    on: the computer's move waits in the page for its pace until ``page.clock`` is let
    run (``resume``, ``run_for``), however long the test takes on a loaded machine."""
    page.clock.install()
    start_game(page, live)
    page.wait_for_selector(RESIGN)
    page.click(RESIGN)
    page.click(YES)
    page.wait_for_selector("#end-h")
    # a day ahead of the page's clock (Playwright takes seconds here): a moment the page's
    # own clock cannot have passed by the time the pause reaches it, which Playwright
    # refuses ("Cannot fast-forward to the past"); nothing of this page waits a day
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 86_400)
    page.click("#rematch")
    until(
        page,
        "document.querySelector('#board .pawn') && !document.querySelector('#end-h')",
        timeout=20_000,
    )


def hold(page: Any, selector: str, ms: int) -> None:
    """Press the middle of ``selector`` while ``ms`` milliseconds of the page's standing
    clock run, then let go and let the clock flow again."""
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert page.evaluate("s => document.activeElement === document.querySelector(s)", selector)
    page.clock.run_for(ms)
    page.mouse.up()
    page.clock.resume()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_one_tap_on_resign_as_the_rematch_begins_asks(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    page = open_page(size)
    rematch_view(page, live_server)
    assert page.locator("#lastmove").inner_text().startswith("No card")
    if size == "phone":
        page.locator(RESIGN).tap()
    else:
        page.click(RESIGN)
    assert page.locator(YES).count() == 1
    # the computer's first move comes: the question stays, in view, with the focus
    page.clock.resume()
    until(page, "document.getElementById('lastmove').textContent.startsWith('Last move')")
    until(page, "document.querySelector('.cell.take')")
    assert page.locator(YES).count() == 1
    assert page.evaluate("document.activeElement.dataset.key") == "resign-no"
    box = page.locator("#resign-q").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
    shot(page, f"{size}-rematch-resign-asked")
    page.click(YES)
    page.wait_for_selector("#end-h", timeout=20_000)
    assert "resigned" in page.locator("#result-words").inner_text()
    assert page.errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_press_held_while_the_other_seat_moves_is_still_a_click(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    page = open_page(size)
    rematch_view(page, live_server)
    assert page.locator("#lastmove").inner_text().startswith("No card")
    page.locator(RESIGN).scroll_into_view_if_needed()
    # longer than the pace between moves (0.3 s): without the wait the computer's first
    # move would be drawn under the finger
    hold(page, RESIGN, 700)
    assert page.locator(YES).count() == 1
    # the move, held back by the press, shows once it has ended
    until(page, "document.getElementById('lastmove').textContent.startsWith('Last move')")
    assert page.locator(YES).count() == 1
    page.click('[data-key="resign-no"]')
    assert page.locator(YES).count() == 0
    assert page.errors == []


def test_a_redraw_keeps_the_seat_s_buttons(live_server: LiveServer, open_page: Any) -> None:
    page = open_page("desktop")
    rematch_view(page, live_server)
    assert page.locator("#lastmove").inner_text().startswith("No card")
    page.evaluate("window.kkResign = document.querySelector('[data-key=\"resign\"]')")
    page.clock.resume()
    # the computer's first move draws the table anew: the button is the same element
    until(page, "document.getElementById('lastmove').textContent.startsWith('Last move')")
    assert page.evaluate(
        "window.kkResign === document.querySelector('[data-key=\"resign\"]')"
        " && window.kkResign.isConnected"
    )
    assert page.errors == []
