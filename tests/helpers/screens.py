"""The terminal client's screens in the tests: an app at a table on a real server
(``app_at``), drawn at a terminal size (``draw``, ``SizedOutput``, ``SIZES``), read as
plain text (``flat``, ``whole``), and the updates a test hands it (``took``,
``with_away``). The fixtures built on them are in ``tests/client/conftest.py``."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator

from prompt_toolkit.data_structures import Size as PtSize
from prompt_toolkit.formatted_text import fragment_list_to_text
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.lib import Client
from client.ui.app import KupferApp
from client.ui.render import (
    Size,
)
from protocol import messages as m

SIZES = [(60, 20), (80, 24), (120, 40)]

ADA = m.PlayerInfo(
    name="Ada",
    since=1764583200,
    rating=12.41,
    mu=27.9,
    sigma=5.16,
    provisional=True,
    rated_games=4,
    games=31,
    wins=17,
)
"""A registered player's profile (protocol 1.2), provisional, for the players' screens."""


class SizedOutput(DummyOutput):
    def __init__(self) -> None:
        self.size = PtSize(rows=24, columns=80)

    def get_size(self) -> PtSize:
        return self.size


def flat(text: str) -> str:
    """The screen as one line of words: wrapped text reads on across lines."""
    return re.sub(r"\s+", " ", text)


def draw(kapp: KupferApp, width: int, height: int) -> str:
    """The screen; with the side panel beside the grid, each column read on its own
    (after the whole screen), so that text wrapped within a column reads on."""
    out = kapp.app.output
    assert isinstance(out, SizedOutput)
    out.size = PtSize(rows=height, columns=width)
    text = fragment_list_to_text(kapp.text())
    assert kapp.cut_lines == [], kapp.cut_lines  # no line was too long for the screen
    lines = text.split("\n")
    assert len(lines) == height, text
    assert all(len(line) == width for line in lines), text
    size = Size(width, height)
    split = 0
    if kapp.screen == "table" and size.side_right and not kapp.show_help:
        split = size.grid_width + 1
    elif kapp.screen == "lobby" and kapp.lobby.form is None and not kapp.show_help:
        split = 35
    if split:
        # a line whose word runs across the split is one full line (under the grid), read
        # whole above: cut there, its halves would read as words ("ran" of "rangée")
        columns = [ln for ln in lines if not (ln[split - 1].isalnum() and ln[split].isalnum())]
        text += "\n" + "\n".join(ln[:split] for ln in columns)
        text += "\n" + "\n".join(ln[split:] for ln in columns)
    return text


def whole(needle: str, screen: str) -> None:
    assert flat(needle) in flat(screen), f"{needle!r} is cut or missing:\n{screen}"


@contextlib.asynccontextmanager
async def app_at(
    url: str, options: m.TableOptions, bots: int = 2, name: str = "Ann"
) -> AsyncIterator[tuple[KupferApp, Client]]:
    """An app seated at a new table at seat 1 against ``bots`` easy bots, once its
    turn comes (the bots never move first)."""
    client = Client(url, name=name, persist_tokens=False)
    await client.connect()
    seats = [(seat, "easy") for seat in range(1, bots + 1)]
    await client.create_table("t", options, bots=seats, player="Ann", seat=0)
    await client.ready()
    async with asyncio.timeout(30):
        while client.view is None or client.view.to_move != 0:
            await asyncio.sleep(0.02)
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", client=client, input=inp, output=SizedOutput())
        kapp.sat_down(client)
        yield kapp, client
    await client.close()


def took(seat: int, card: str, col: int) -> list[m.GameEvent]:
    return [
        m.MovedEvent(seat=seat, from_space=1, to_space=4, skipped=()),
        m.TookEvent(
            seat=seat, card=card, line=f"col{col}", row=2, col=col, special=False, ends_game=False
        ),
        m.RefilledEvent(row=2, col=col, card="toad-1"),
    ]


def with_away(client: Client, absent: bool = True) -> m.PresenceMsg:
    assert client.presence is not None
    bob = {"name": "Bob", "bot": None, "absent": absent, "computer": absent}
    bob["connected"] = not absent
    seats = tuple(s.model_copy(update=bob) if s.seat == 1 else s for s in client.presence.seats)
    return m.PresenceMsg(table=client.table, state="playing", seats=seats, spectators=0)
