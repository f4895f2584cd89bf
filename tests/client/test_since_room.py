"""What the rows under the grid hold when they are few: the "since your take" lines
before the log (with three players at 80x24, a clock line and recipes in the panel,
both other seats' takes, not a pointer to ``L`` and a line of our own move), and at
60x20 the side panel's kettles before the since lines' full words."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from client.lib import Client
from client.ui.app import KupferApp
from client.ui.recent import Recent
from protocol import messages as m
from tests.helpers.screens import app_at, draw, took


@pytest.mark.parametrize(("width", "height"), [(80, 24), (60, 20), (120, 40)])
async def test_both_other_seats_takes_show_under_the_grid(
    seated: tuple[KupferApp, Client],
    width: int,
    height: int,
) -> None:
    kapp, _ = seated
    game = kapp.game
    game.recent = Recent()
    game.recent.decided = True  # mid-game: we took before
    events = [
        *took(1, "moss-3", 2),
        *took(2, "root-2", 3),
        m.MovedEvent(seat=0, from_space=4, to_space=6, skipped=()),
    ]
    game.on_update(m.EventsMsg(state_version=1, events=tuple(events)))
    v = game.table.view
    assert v is not None and game.table.my_turn
    clock = m.ClockInfo(move_ms=30_000, running=0, left_ms=(29_000,) * 3, reserve_ms=(0,) * 3)
    game.table.set_view(v.model_copy(update={"clock": clock}), game.table.state_version + 1)
    game.chat.add(m.ChatLineMsg(table="t", name="Bob", text="hello all"))  # fresh: it shows
    screen = draw(kapp, width, height)
    assert "Moss 3 (col 2)" in screen, screen
    assert "Root 2 wand (col 3)" in screen, screen
    assert "since your take, more: L" not in screen, screen


@pytest.fixture
async def strict3(url: str) -> AsyncIterator[tuple[KupferApp, Client]]:
    """Ann's turn at a three-player recipe table of strict memory against two bots."""
    async with app_at(url, m.TableOptions(players=3, recipes=True, seed=5)) as at_table:
        yield at_table


async def test_at_60x20_the_kettles_come_before_the_words_of_the_takes(
    strict3: tuple[KupferApp, Client],
) -> None:
    """Under the grid the panel shows the kettles the since lines would push away: those
    lines go in fewer words (one line a seat) rather than page a kettle off the screen."""
    kapp, client = strict3
    game = kapp.game
    game.recent = Recent()
    game.recent.decided = True  # mid-game: we took before
    boom = m.TookEvent(
        seat=1, card="frog_slime-2", line="row3", row=3, col=1, special=True, ends_game=False
    )
    hit = m.ExplodedEvent(seat=1, target=0, card="moss-3", to="deck")
    events = [
        m.MovedEvent(seat=1, from_space=1, to_space=4, skipped=()),
        boom,
        hit,
        m.RefilledEvent(row=3, col=1, card="dragon_blood-4"),
        *took(2, "root-2", 3),
    ]
    game.on_update(m.EventsMsg(state_version=1, events=tuple(events)))
    wrapped = game.recent.lines(3, ("white", "black", "lilac"), game.cards(), 60)
    assert len(wrapped) > 2  # in full words Black's turn takes two lines
    screen = draw(kapp, 60, 20)
    lines = screen.split("\n")[:20]
    assert any(ln.startswith("Black") and "Frog 2 boom (row 3)" in ln for ln in lines), screen
    assert any(ln.startswith("Lilac") and "Root 2 wand (col 3)" in ln for ln in lines), screen
    view = client.view
    assert view is not None
    for k in view.kettles[:2]:  # White's and Black's: the third gives way to the PgDn line
        tag = ("Wh White", "Bk Black")[k.seat]
        assert any(ln.startswith(tag) for ln in lines), screen
