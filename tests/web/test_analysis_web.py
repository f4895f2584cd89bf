"""The expert's analysis and hints in a real browser (protocol 1.5, Debian's Chromium
through Playwright, a real server on loopback with an SQLite store and a small analysis
budget): a registered player's game against the computer at an unrated table with
hints, a hint asked for and its card marked; the game's end opens its replay, which is
analysed (each take's mark, the expert's card marked on the grid, each seat's summary,
the graph); the same game from the player's history analysed again (from the store);
the hints option hidden on a rated table, and no hint at a table without it. Every new
screen checked with axe-core and saved as a screenshot at 1280x800 and 360x640, none
wider than its screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.players.analyses import AnalysisBounds
from server.store import SqliteStore
from tests.helpers import web
from tests.helpers.pages import AXE, play_to_the_end, register, violations
from tests.helpers.web import LiveServer, shot, until

pytestmark = pytest.mark.e2e

DESK = {"width": 1280, "height": 800}
SMALL = {"width": 360, "height": 640}
WIDER_THAN_SCREEN = "document.documentElement.scrollWidth > window.innerWidth + 1"


@pytest.fixture
def kept_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    """A live server that keeps finished games (SQLite) and analyses them at a small
    budget in a thread, so an analysis takes a moment."""
    monkeypatch.setattr(web, "MemoryStore", lambda: SqliteStore(tmp_path / "server.db"))
    live = LiveServer(analysis=AnalysisBounds(budget=6, workers=0))
    try:
        yield live
    finally:
        live.stop()


def shots_at_both_sizes(page: Any, name: str, seen: dict[str, list[str]]) -> None:
    """Screenshots at 1280x800 and 360x640 (nothing wider than the screen), axe at each."""
    for size, box in (("desktop", DESK), ("small", SMALL)):
        page.set_viewport_size(box)
        assert not page.evaluate(WIDER_THAN_SCREEN), f"{name} at {size}"
        seen[f"{name}, {size}"] = violations(page) if AXE.exists() else []
        shot(page, f"{size}-50-{name}")
    page.set_viewport_size(DESK)


def analysed(page: Any, name: str, seen: dict[str, list[str]]) -> None:
    """Analyse the replay on show and check what the analysis shows."""
    page.click("#analyse")
    page.wait_for_selector("#analysis", timeout=60_000)
    summary = page.locator(".seat-summary li")
    assert summary.count() == 2
    assert "points lost by the expert's measure" in summary.first.inner_text()
    assert page.locator("svg.margin-graph polyline").count() == 2
    text = page.inner_text("main")
    assert "a blunder from" in text  # the thresholds the message carries
    # the costliest decision of the person (a card taken in turn, never the expert's)
    page.click("[data-key='worst-0']")
    until(page, "document.getElementById('verdict').textContent.includes('better')")
    verdict = page.inner_text("#verdict")
    assert verdict.startswith("Expert: "), verdict
    # the verdict and the grid's mark of the expert's card are both of that decision:
    # the grid's mark is waited for, not only a verdict that may be the decision before's
    until(page, "document.querySelector('.replay-grid td.best') !== null")
    best = page.locator(".replay-grid td.best")
    assert best.count() == 1 and "(the expert's card)" in best.text_content()
    assert best.text_content().split("expert")[0].lower() in verdict.lower()
    shots_at_both_sizes(page, name, seen)


@pytest.mark.long
def test_hints_then_the_game_analysed_from_its_end_and_from_the_history(
    kept_server: LiveServer, open_page: Any
) -> None:
    live = kept_server
    seen: dict[str, list[str]] = {}
    page = open_page("desktop")
    page.set_viewport_size(DESK)
    register(page, live, "Ada")

    # the form: hints offered, hidden as soon as the table is rated
    page.get_by_role("button", name="Back to the lobby").click()
    page.wait_for_selector("#new-table")
    page.click("#new-table")
    page.wait_for_selector("#opt-hints")
    page.check("#opt-rated")
    assert page.locator("#opt-hints").is_hidden()
    page.uncheck("#opt-rated")
    page.check("#opt-hints")
    page.fill("#opt-seed", "5")
    seen["new table with hints"] = violations(page) if AXE.exists() else []
    page.select_option("#seat-1", index=0)  # a computer again, once no longer rated
    page.click("#create-go")

    # at the table: everyone is told; the seat to move asks, the card is marked
    page.wait_for_selector(".cell.take:not([disabled])")
    assert "Hints are on" in page.inner_text("#hints-on")
    page.click("#hint")
    until(page, "document.querySelector('.cell.hinted') !== null")
    said = page.inner_text("#hint-said")
    assert said.startswith("The expert would take"), said
    assert page.locator(".cell.hinted .badge").text_content() == "hint"
    shots_at_both_sizes(page, "hint", seen)

    play_to_the_end(page, "desktop")
    page.wait_for_selector("#review")
    page.click("#review")
    page.wait_for_selector("#analyse")
    analysed(page, "analysis-from-the-end", seen)
    page.get_by_role("button", name="Back to the table").click()
    page.wait_for_selector("#end-h")

    # the same game from Ada's history: its analysis is kept, and shown again
    page.click("[data-key='to-lobby']")
    page.wait_for_selector("#your-player")
    page.click("#your-player")
    page.wait_for_selector("[data-key^='replay-']")
    page.click("[data-key^='replay-']")
    page.wait_for_selector("#analyse")
    analysed(page, "analysis-from-the-history", seen)
    assert not {k: v for k, v in seen.items() if v}, seen

    # a table without hints (the form's default): no Hint, nothing said of hints
    page.get_by_role("button", name="Back to the profile").click()
    page.get_by_role("button", name="Back to the lobby").click()
    page.click("#new-table")
    page.wait_for_selector("#opt-hints")
    page.click("#create-go")
    page.wait_for_selector(".cell.take:not([disabled])")
    assert page.locator("#hint").count() == 0 and page.locator("#hints-on").count() == 0
