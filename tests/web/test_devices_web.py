"""A player's devices in a real browser (protocol 1.3, Debian's Chromium through
Playwright, a real server on loopback): the desktop that registered lists itself and a
phone added by a code, revokes the phone, and the phone's kept secret then signs in no
more; the list checked with axe-core."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import AXE, device_code, register, violations
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e


def test_the_profile_lists_devices_and_revokes_one(live_server: LiveServer, open_page: Any) -> None:
    desk = open_page("desktop")
    register(desk, live_server)
    phone = open_page("phone")
    open_lobby(phone, live_server)
    phone.click("#your-player")
    phone.wait_for_selector("#redeem-code")
    phone.fill("#redeem-code", device_code(desk))
    phone.click("#redeem-go")
    until(phone, "document.getElementById('profile-h')?.textContent === 'Player Ada'")

    desk.get_by_role("button", name="Back to the lobby").click()
    desk.click("#your-player")
    until(desk, "document.querySelectorAll('#devices li').length === 2")
    items = desk.locator("#devices li").all_inner_texts()
    assert items[0].startswith("This device") and "added with a code" in items[1], items
    assert "Your devices (2 of at most 10)" in desk.inner_text("main")
    assert not (violations(desk) if AXE.exists() else [])
    shot(desk, "desktop-43-players-devices")
    desk.get_by_role("button", name="Revoke the device added with a code").click()
    until(desk, "document.querySelectorAll('#devices li').length === 1")

    phone.reload()  # its kept secret is refused: the page says so, and stays anonymous
    phone.wait_for_selector("#tables")
    until(phone, "document.body.innerText.includes('Could not sign in as Ada')")
    assert not phone.inner_text("#conn").endswith("as Ada")
