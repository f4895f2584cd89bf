"""Registered players in a real browser (protocol 1.2, Debian's Chromium through
Playwright, a real server on loopback): a name registered at desktop size, signed in
again by itself after a reload, a device code shown there and redeemed on a phone, the
profile with a rated game (played by the Python client as the same player, from another
device code, against another player), its replay stepped through, the leaderboard, the
rated option of the new-table form; every new screen checked with axe-core and saved
as a screenshot at both sizes."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.store import SqliteStore
from tests.client.rated import play_rated_game
from tests.helpers import web
from tests.helpers.pages import AXE, device_code, register, violations
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e


@pytest.fixture
def kept_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    """The live server of the browser tests on an SQLite store: a memory store keeps no
    finished games, so it has no games to list or replay."""
    monkeypatch.setattr(web, "MemoryStore", lambda: SqliteStore(tmp_path / "server.db"))
    live = LiveServer()
    try:
        yield live
    finally:
        live.stop()


def rated_game(url: str, code: str) -> None:
    """``play_rated_game`` in a thread of its own (Playwright holds this thread's loop)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(play_rated_game(url, code))
        except BaseException as e:
            failed.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join(180)
    assert not t.is_alive() and not failed, failed


@pytest.mark.long
def test_register_sign_in_move_devices_profile_replay_and_leaderboard(
    kept_server: LiveServer, open_page: Any
) -> None:
    live_server = kept_server
    ws = live_server.url.replace("http://", "ws://")
    seen: dict[str, list[str]] = {}
    check = AXE.exists()
    desk = open_page("desktop")
    open_lobby(desk, live_server)
    desk.click("#your-player")
    desk.wait_for_selector("#reg-name")
    seen["account, desktop"] = violations(desk) if check else []
    shot(desk, "desktop-40-players-account")
    desk.fill("#reg-name", "Ada")
    desk.click("#register-go")
    desk.wait_for_selector("#profile-h")
    until(desk, "document.getElementById('profile-h').textContent === 'Player Ada'")
    secret = desk.evaluate("() => JSON.parse(localStorage.getItem('kk:player:' + location.host))")
    assert secret["name"] == "Ada" and re.fullmatch(r"[A-Za-z0-9_-]{43}", secret["secret"])
    assert secret["secret"] not in desk.content()  # never on the page

    desk.reload()  # a later visit signs in by itself
    desk.wait_for_selector("#tables")
    until(desk, "document.getElementById('conn').textContent.endsWith('as Ada')")
    assert desk.input_value("#player-name") == "Ada"
    desk.click("#new-table")
    desk.wait_for_selector("#opt-rated")
    desk.check("#opt-rated")
    assert desk.locator("#seat-1 option").all_inner_texts() == ["a person (wait for them)"]
    assert desk.is_disabled("#opt-memory") and desk.is_disabled("#opt-seed")
    seen["new rated table"] = violations(desk) if check else []
    desk.get_by_role("button", name="Back").click()

    desk.click("#your-player")
    desk.wait_for_selector("#device-code-go")
    rated_game(ws, device_code(desk))  # the Python client as Ada, on "another device"

    phone = open_page("phone")
    open_lobby(phone, live_server)
    phone.click("#your-player")
    phone.wait_for_selector("#redeem-code")
    phone.fill("#redeem-code", device_code(desk).lower().replace("-", ""))
    phone.click("#redeem-go")
    phone.wait_for_selector("#rating")
    until(phone, "document.getElementById('profile-h').textContent === 'Player Ada'")
    kept = phone.evaluate("() => JSON.parse(localStorage.getItem('kk:player:' + location.host))")
    assert kept["name"] == "Ada" and kept["secret"] != secret["secret"]  # its own secret

    for page, size in ((phone, "phone"), (desk, "desktop")):
        page.reload()
        page.wait_for_selector("#your-player")
        until(page, "document.getElementById('conn').textContent.endsWith('as Ada')")
        page.click("#your-player")
        page.wait_for_selector("[data-key^='replay-']")
        text = page.inner_text("main")
        assert "Recent games (1)" in text and "Rated evening" in text and "rated" in text
        assert re.search(r"Rating\s+-?\d+\.\d\?", text), text  # provisional after one game
        seen[f"profile, {size}"] = violations(page) if check else []
        shot(page, f"{size}-41-players-profile")
        page.click("[data-key^='replay-']")
        page.wait_for_selector("#replay-step")
        assert page.inner_text("#replay-step").startswith("The start")
        page.click("#replay-next")
        until(page, "document.getElementById('replay-step').textContent.startsWith('Take 1 of')")
        page.keyboard.press("End")
        until(page, "document.getElementById('replay-step').textContent.includes('took')")
        assert "the game is over" in page.inner_text("main")
        seen[f"replay, {size}"] = violations(page) if check else []
        shot(page, f"{size}-42-players-replay")
        page.get_by_role("button", name="Back to the profile").click()
        page.wait_for_selector("#to-board")
        page.click("#to-board")
        page.wait_for_selector(".board-table")
        names = page.locator(".board-table tbody th").all_inner_texts()
        assert sorted(names) == ["Ada", "Grace"]
        seen[f"leaderboard, {size}"] = violations(page) if check else []
        shot(page, f"{size}-43-players-leaderboard")
        page.get_by_role("button", name="Grace").click()
        until(page, "document.getElementById('profile-h').textContent === 'Player Grace'")
        assert not page.locator("#device-code-go").count()  # not hers to ask for
    bad = {k: v for k, v in seen.items() if v}
    assert bad == {}, bad
    assert desk.errors == [] and phone.errors == []


def test_an_anonymous_visitor_sees_the_leaderboard_and_keeps_nothing(
    live_server: LiveServer, open_page: Any
) -> None:
    """An anonymous visitor sees the lobby as before, plus the two buttons; nothing is
    kept in storage until a name is registered."""
    page = open_page("phone")
    open_lobby(page, live_server)
    assert page.is_visible("#your-player") and page.is_visible("#leaderboard")
    page.click("#leaderboard")
    page.wait_for_selector("#board-h")
    assert "Nobody has played a rated game yet." in page.inner_text("main")
    keys = page.evaluate("() => Object.keys(localStorage)")
    assert not [k for k in keys if k.startswith("kk:player:")]
    assert page.errors == []


def test_a_registered_players_seat_reads_registered(
    live_server: LiveServer, open_page: Any
) -> None:
    """Presence marks a registered player's seat (1.2): at an unrated table the page
    tells "Ada (registered)" from someone else who typed the name Ada, on the waiting
    screen, in the lobby's listing and at the table."""
    desk = open_page("desktop")
    register(desk, live_server)
    desk.reload()
    desk.wait_for_selector("#tables")
    until(desk, "document.getElementById('conn').textContent.endsWith('as Ada')")
    desk.click("#new-table")
    desk.wait_for_selector("#create-go")
    desk.select_option("#seat-1", "")  # wait for a person
    desk.click("#create-go")
    desk.wait_for_selector(".seat-list")
    until(desk, "document.querySelector('.seat-list').textContent.includes('(registered) (you)')")
    phone = open_page("phone")
    open_lobby(phone, live_server)
    phone.fill("#player-name", "Ada")
    phone.wait_for_selector("[data-key^='join-']")
    assert "Ada (registered)" in phone.inner_text("#tables")
    phone.click("[data-key^='join-']")  # both ready at once: the game starts
    for page in (desk, phone):
        until(page, "document.querySelectorAll('li.seat strong').length === 2")
    assert desk.locator("li.seat strong").all_inner_texts() == ["Ada (registered) (you)", "Ada"]
    assert phone.locator("li.seat strong").all_inner_texts() == ["Ada (registered)", "Ada (you)"]
    assert desk.errors == [] and phone.errors == []
