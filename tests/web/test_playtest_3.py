"""What a third play-test of the web client found, held down: the new-table form offers
the third colour only for three players."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import LiveServer, open_lobby, shot

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_third_colour_is_offered_for_three_players_only(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    page = open_page(size)
    open_lobby(page, live_server)
    page.fill("#player-name", "Ann")
    page.click("#new-table")
    page.wait_for_selector("#create-go")
    third = page.locator("#opt-third")
    label = page.get_by_text("Third colour", exact=True)
    # two players (the default): no third colour, not even a disabled one
    assert not third.is_visible() and not label.is_visible()
    assert page.get_by_role("combobox", name="Third colour").count() == 0
    page.select_option("#opt-players", "3")
    assert third.is_visible() and third.is_enabled() and label.is_visible()
    page.select_option("#opt-third", "green")
    assert "Green (seat 3)" in page.locator("#opt-seat").inner_text()
    shot(page, f"{size}-40-new-table-three-colours")
    page.select_option("#opt-players", "2")
    assert not third.is_visible() and not label.is_visible()
    # back to three: the choice made is still there
    page.select_option("#opt-players", "3")
    assert third.is_visible() and third.input_value() == "green"
    assert page.errors == []
