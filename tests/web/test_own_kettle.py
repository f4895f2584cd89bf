"""With casual memory a seat may look through its own kettle: the players panel lists it
by ingredient as the scores count it, each with its colour (one's own counts double)
and its cards' values joined by "+" ("Toad (brown) 2+4"), not "Toad 2 4", which read
as a value of 24 or as two ingredients. Only one's own seat's list shows."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.helpers.pages import create_table, take_one
from tests.helpers.web import LiveServer, open_lobby, shot, until

pytestmark = pytest.mark.e2e

COLOURS = "white|black|gray|blue|brown|green|lilac"
READ_PANEL = """() => {
  const mine = [...document.querySelectorAll('.seat')].find((s) => s.textContent.includes('(you)'));
  return {
    own: mine.querySelector('.own').innerText,
    kettle: mine.querySelector('.kettle').innerText,
    top: mine.querySelector('.kettle .chip').innerText,
    owns: document.querySelectorAll('.seat .own').length,
  };
}"""
"""One's own seat's panel, read in one go: a view coming between two reads (the last
take's, the computer's move) would make them disagree."""
GROUP = re.compile(rf"[A-Z][a-z]+(?: [a-z]+)* \(({COLOURS})\) [1-4](?:\+[1-4])*")


def test_one_s_own_kettle_is_listed_by_ingredient_colour_and_values(
    live_server: LiveServer, open_page: Any
) -> None:
    page = open_page("phone", pace="off")
    open_lobby(page, live_server)
    create_table(page, **{"opt-memory": "casual"})
    page.wait_for_selector("#board")
    for _ in range(4):
        until(
            page,
            "document.querySelector('.cell.take:not([disabled])') || "
            "document.querySelector('#end-h')",
        )
        if page.locator("#end-h").count():
            break
        take_one(page, "phone")
    # the last take's view has come when the turn is back (or the game is over): the
    # panel is read then, all of it at one moment, as a person sees it
    until(
        page,
        "document.querySelector('.cell.take:not([disabled])') || document.querySelector('#end-h')",
    )
    until(page, "document.querySelector('.seat .own')")
    seen = page.evaluate(READ_PANEL)
    shot(page, "own-kettle", ".seats")
    own = seen["own"]
    assert own.startswith("In your kettle: "), own
    groups = own.removeprefix("In your kettle: ").split("; ")
    assert all(GROUP.fullmatch(g) for g in groups), groups
    counted = re.search(r"(\d+) cards?", seen["kettle"])
    assert counted
    count = int(counted[1])
    assert sum(g.count("+") + 1 for g in groups) == count
    # the top card is in it, under its ingredient and colour
    top = seen["top"]  # "Toad 4 (brown)", "Moss 2 wand (blue)"
    found = re.fullmatch(r"(.+?) ([1-4])(?: \w+)? \((\w+)\)", top)
    assert found, top
    name, value, colour = found.groups()
    assert any(g.startswith(f"{name} ({colour}) ") and value in g for g in groups), (top, groups)
    assert seen["owns"] == 1  # the other seat's kettle stays hidden
    assert page.errors == []
