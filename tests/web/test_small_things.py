"""Small things a person meets on a phone, in a real Chromium (Playwright) against a real
server on loopback: every control big enough for a finger, your own game first in the
lobby, refusals said in words, and a device code typed as people type it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import device_code, register, start_game
from tests.helpers.web import LiveServer, open_lobby, until

pytestmark = pytest.mark.e2e

SIZES = [(360, 640), (390, 844)]

# every control shown (a link, button, field, list box, summary, checkbox with its
# label) whose box is under 44 x 44 CSS px; a link inside a sentence is text, not a
# target of its own (WCAG 2.5.8 leaves it out too)
SMALL = """() => [...document.querySelectorAll(
    'a[href], button, input, select, textarea, summary, [role="button"]')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .filter(el => !(el.tagName === 'A' && el.parentElement.closest('p, li, dd, td')
    && el.parentElement.textContent.trim() !== el.textContent.trim()))
  .filter(el => {  // not one kept off the screen (the skip link until it has the focus)
    const r = el.getBoundingClientRect();
    return r.right > 0 && r.left < innerWidth;
  })
  .map(el => {
    let r = el.getBoundingClientRect();
    for (const label of el.labels ?? []) {  // a box's label is tapped as the box is
      if (el.type !== 'checkbox' && el.type !== 'radio') break;
      const q = label.getBoundingClientRect();
      r = {width: Math.max(r.right, q.right) - Math.min(r.left, q.left),
           height: Math.max(r.bottom, q.bottom) - Math.min(r.top, q.top)};
    }
    return [el.outerHTML.slice(0, 80), Math.round(r.width * 10) / 10,
            Math.round(r.height * 10) / 10];
  })
  .filter(([, w, h]) => w < 44 || h < 44)"""


def too_small(page: Any, screen: str) -> list[str]:
    """What is under 44 px on ``screen`` at each of ``SIZES`` (the same page, resized:
    its layout is its style sheet's alone; a walk a size walked the same screens again)."""
    found: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        found += [
            f"{screen} {width}x{height}: {w} x {h} {html}" for html, w, h in page.evaluate(SMALL)
        ]
    return found


def test_every_control_is_at_least_44_px_on_a_phone(
    live_server: LiveServer, open_page: Any
) -> None:
    from tests.server.wsclient import WsClient

    async def a_table() -> None:
        client = await WsClient.open(live_server.server.port, name="Bo")
        await client.request("create_table", name="Bo's table")

    live_server.call(a_table())
    page = open_page("phone")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    small: list[str] = []
    open_lobby(page, live_server)
    page.wait_for_selector(".table-row")
    small += too_small(page, "lobby")
    page.click("#settings summary")
    small += too_small(page, "settings")
    page.click("#settings summary")
    page.click("#your-player")
    page.wait_for_selector("#redeem-code")
    small += too_small(page, "sign in")
    page.fill("#reg-name", "Ada")
    page.click("#register-go")
    until(page, "document.querySelectorAll('#devices li').length === 1")
    small += too_small(page, "devices")
    page.get_by_role("button", name="Back to the lobby").click()
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    small += too_small(page, "new table")
    page.click("#create-go")
    page.wait_for_selector(".cell.take:not([disabled])")
    small += too_small(page, "table")
    page.locator(".cell.take:not([disabled])").first.tap()
    page.wait_for_selector(".options button")
    small += too_small(page, "question")
    assert small == []
    assert page.errors == []


def test_your_running_game_comes_first_in_the_lobby(
    live_server: LiveServer, open_page: Any
) -> None:
    from tests.server.wsclient import WsClient

    async def waiting_tables() -> None:  # listed first by the server: seats free
        client = await WsClient.open(live_server.server.port, name="Bo")
        for i in range(4):
            await client.request("create_table", name=f"waiting {i}")
        await client.close()

    live_server.call(waiting_tables())
    page = open_page("phone")
    start_game(page, live_server, **{"table-name": "Ann's game"})
    page.wait_for_selector(".cell.take")
    page.click('[data-key="leave"]')  # the seat waits for Ann while the game runs
    until(page, "document.querySelectorAll('.table-row').length === 5")
    first = page.locator(".table-row").first.inner_text()
    assert "Ann's game" in first and "Back to my seat" in first, first
    assert page.errors == []


def test_a_refusal_is_said_in_words(live_server: LiveServer, open_page: Any) -> None:
    register(open_page("desktop"), live_server, "Ada")
    page = open_page("phone")
    open_lobby(page, live_server)
    page.click("#your-player")
    page.wait_for_selector("#reg-name")
    page.fill("#reg-name", "ADA")  # reads as Ada's name
    page.click("#register-go")
    until(page, "document.getElementById('status').textContent !== ''")
    said = page.inner_text("#status")
    assert said.startswith("That name is registered here already"), said
    assert "name_taken" not in said and "Refused" not in said
    assert page.errors == []


def test_a_device_code_is_taken_as_typed(live_server: LiveServer, open_page: Any) -> None:
    desk = open_page("desktop")
    register(desk, live_server)
    code = device_code(desk)
    phone = open_page("phone")
    open_lobby(phone, live_server)
    phone.click("#your-player")
    phone.wait_for_selector("#redeem-code")
    phone.fill("#redeem-code", "7KQ2 MX4")  # one letter short: told, not blocked mutely
    phone.click("#redeem-go")
    until(phone, "document.getElementById('status').textContent.includes('8 letters')")
    # lower case, a space instead of the dash, a space at the end, as a phone types it
    phone.fill("#redeem-code", f"{code[:4].lower()} {code[5:].lower()} ")
    phone.click("#redeem-go")
    until(phone, "document.getElementById('profile-h')?.textContent === 'Player Ada'")
    assert phone.errors == []
