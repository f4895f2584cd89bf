"""An accessibility check of every screen with axe-core (a dev package of ``web/``,
installed by ``npm ci``) at phone and desktop sizes: no serious or critical violation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import AXE, answer_then_resign, violations
from tests.helpers.web import LiveServer, open_lobby, shot

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_screen_has_no_serious_accessibility_violation(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run npm ci in web/")
    page = open_page(size)
    seen: dict[str, list[str]] = {}
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    seen["lobby"] = violations(page)
    page.click("#settings summary")
    seen["settings"] = violations(page)
    page.click("#settings summary")
    page.click("#join-code")
    page.wait_for_selector("#join-table")
    seen["join"] = violations(page)
    page.get_by_role("button", name="Back").click()
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    seen["new table"] = violations(page)
    page.select_option("#seat-1", "")  # wait for a person: the waiting screen stays
    page.click("#create-go")
    page.wait_for_selector("#invite-link")
    seen["waiting"] = violations(page)
    page.click("#leave")
    page.wait_for_selector("#new-table")
    page.click("#new-table")
    page.click("#create-go")
    page.wait_for_selector("#board")
    page.wait_for_selector(".cell.take:not([disabled])")
    seen["table"] = violations(page)
    page.locator(".cell.take").first.click()
    page.wait_for_selector(".options button")
    seen["question"] = violations(page)
    answer_then_resign(page)
    seen["game over"] = violations(page)
    shot(page, f"{size}-23-axe-game-over")
    page.goto(live_server.url + "#/help")
    page.wait_for_selector("#help:not([hidden])")
    seen["how to play"] = violations(page)
    bad = {screen: v for screen, v in seen.items() if v}
    assert bad == {}, "\n".join(f"{k}: {v}" for k, v in bad.items())
