"""A play-tester's two findings: black cards that blended into the dark theme's page, and
a phone that scrolled the chosen card off the screen when its answers came up."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.pages import AXE, create_table, violations
from tests.helpers.web import SCREENSHOTS, LiveServer, open_lobby, shot

pytestmark = pytest.mark.e2e

SEED = "7"  # a deal with black cards on the grid

CONTRAST = """() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const opaque = (c) => rgb(c).length < 4 || rgb(c)[3] > 0;
  const page = rgb(getComputedStyle(document.documentElement).backgroundColor);
  return [...document.querySelectorAll('#board .cell.c-black')].map((el) => {
    const st = getComputedStyle(el);
    const face = rgb(st.backgroundColor);
    const border = parseFloat(st.borderTopWidth) > 0 && opaque(st.borderTopColor)
      ? ratio(rgb(st.borderTopColor), page) : 1;
    return {take: el.matches('.take'), face: ratio(face, page), border,
            text: ratio(rgb(st.color), face)};
  });
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_black_cards_stand_out_in_dark_mode(
    live_server: LiveServer, open_page: Any, size: str
) -> None:
    page = open_page(size, color_scheme="dark")
    open_lobby(page, live_server)
    create_table(page, fill={"opt-seed": SEED})
    page.wait_for_selector(".cell.take:not([disabled])")
    cards = page.evaluate(CONTRAST)
    assert any(not c["take"] for c in cards), "the deal has no black card off the line"
    for c in cards:
        # the card's edge (its border, or its face) stands apart from the page (WCAG's
        # 3:1 for the parts of a control), and its words from its face (4.5:1)
        assert max(c["face"], c["border"]) >= 3, c
        assert c["text"] >= 4.5, c
    shot(page, f"{size}-50-dark-table")
    if AXE.exists():
        assert violations(page) == []
    assert page.errors == []


def in_view(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.evaluate(
        """s => { const r = document.querySelector(s).getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, height: window.innerHeight}; }""",
        selector,
    )
    return box


def test_choosing_a_card_on_a_phone_keeps_it_in_view(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("phone")
    open_lobby(page, live_server)
    create_table(page, fill={"opt-seed": SEED})
    cards = page.locator(".cell.take:not([disabled])")
    cards.first.wait_for()
    # the first turn's line is a column: its top card is the furthest above the answers
    top = page.evaluate(
        """() => { const all = [...document.querySelectorAll('.cell.take:not([disabled])')];
        all.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
        return all[0].dataset.key; }"""
    )
    page.locator(f'.cell[data-key="{top}"]').tap()
    page.wait_for_selector(".options button")
    page.wait_for_timeout(300)  # any scrolling done
    # what the screen shows (not the whole page)
    page.screenshot(path=str(SCREENSHOTS / "phone-51-chosen-card.png"))
    card = in_view(page, f'.cell[data-key="{top}"]')
    answer = in_view(page, ".options button")
    assert card["top"] >= 0 and card["bottom"] <= card["height"], card
    assert answer["top"] >= 0 and answer["bottom"] <= answer["height"], answer
    # the keyboard's focus went to the first answer all the same
    assert page.evaluate("document.activeElement.matches('.options button')")
    assert page.errors == []
