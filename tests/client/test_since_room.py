"""The "since your take" lines come before the log under the grid: with three players
at 80x24 (a clock line, recipes in the panel) the rows left under the grid hold both
other seats' takes, not a pointer to ``L`` and a line of our own move."""

from __future__ import annotations

import pytest

from client.lib import Client
from client.ui.app import KupferApp
from client.ui.recent import Recent
from protocol import messages as m

from .test_screens import draw, seated  # noqa: F401  (the fixture)


def took(seat: int, card: str, col: int) -> list[m.GameEvent]:
    return [
        m.MovedEvent(seat=seat, from_space=1, to_space=4, skipped=()),
        m.TookEvent(
            seat=seat, card=card, line=f"col{col}", row=2, col=col, special=False, ends_game=False
        ),
        m.RefilledEvent(row=2, col=col, card="toad-1"),
    ]


@pytest.mark.parametrize(("width", "height"), [(80, 24), (60, 20), (120, 40)])
async def test_both_other_seats_takes_show_under_the_grid(
    seated: tuple[KupferApp, Client],  # noqa: F811
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
