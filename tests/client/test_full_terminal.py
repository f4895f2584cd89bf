"""A new table refused in the terminal because a game of the player's own runs on
with nobody at it (protocol 1.6's ``limit`` of ``server_full``): the player closed the
terminal mid-game against the computer, starts it again and makes a new table. The
status line says why in the player's language, the list's cursor is on that game, and
Enter takes the seat back. A real server and store, the real client library and screens."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input

from client import i18n
from client.i18n import _
from client.lib import Client
from client.tokens import TokenStore
from client.ui.app import KupferApp
from client.ui.refusals import FULL, REFUSALS
from protocol import messages as m
from server.app import Server, ServerConfig
from server.lobby import Quotas
from server.store import MemoryStore
from tests.helpers.languages import untranslated
from tests.helpers.screens import SizedOutput, draw

ONE_UNATTENDED = Quotas(lobby_tables=0, unattended_games=1, bot_games=0)
"""One running game with nobody at it per address, no other quota."""


@pytest.fixture
async def strict() -> AsyncIterator[Server]:
    config = ServerConfig(host="127.0.0.1", port=0, bot_think=0.01, quotas=ONE_UNATTENDED)
    srv = Server(config, MemoryStore())
    await srv.start()
    yield srv
    await srv.stop()
    i18n.use("en")


async def _until(what: Callable[[], object], deadline: float = 30) -> None:
    async with asyncio.timeout(deadline):
        while not what():
            await asyncio.sleep(0.02)


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_game_left_running_is_said_and_enter_takes_it_back(
    strict: Server, tmp_path: Path, lang: str
) -> None:
    url = f"ws://127.0.0.1:{strict.port}"
    tokens = TokenStore(tmp_path / "tokens")
    first = Client(url, name="Ann", tokens=tokens, protocol=m.PROTOCOL_VERSION)
    await first.connect()
    made = await first.create_table(
        "Ann's", m.TableOptions(players=2), bots=[(1, "easy")], player="Ann", seat=0
    )
    await first.ready()
    await _until(lambda: first.view is not None)
    other = Client(url, name="Bo", persist_tokens=False, protocol=m.PROTOCOL_VERSION)
    await other.connect()  # another table, listed too
    await other.create_table("Bo's", m.TableOptions(players=2), player="Bo", seat=0)
    await first.close()  # the terminal closed mid-game: the game waits for seat 0
    table = strict.lobby.tables[made.table.id]
    await _until(lambda: not table.seating.attended)

    i18n.use(lang)
    again = Client(url, name="Ann", tokens=tokens, protocol=m.PROTOCOL_VERSION)
    await again.connect()
    with create_pipe_input() as inp:
        kapp = KupferApp(name="Ann", client=again, input=inp, output=SizedOutput())
        kapp.lobby.tables = await again.list_tables()
        kapp.key("down")  # the cursor on Bo's table, not on the game
        assert kapp.lobby.tables[kapp.lobby.table_index].id != made.table.id
        kapp.key("n")  # a new table, as the form has it
        form = kapp.lobby.form
        assert form is not None
        form.focus = len(form.fields()) - 1
        kapp.key("enter")  # Create table
        await _until(lambda: kapp.status)
        said = _(FULL["unattended"])
        assert kapp.status == f"! {said} {_('It is chosen in the list: Enter takes it back.')}"
        assert said != _(REFUSALS["server_full"])
        chosen = kapp.lobby.tables[kapp.lobby.table_index]
        assert chosen.id == made.table.id and kapp.lobby.focus == "tables"
        assert said in draw(kapp, 200, 24).replace("\n", " ")  # shown, on a wide screen
        assert lang == "en" or untranslated(kapp.status, lang, {"Enter"}) == [], kapp.status
        kapp.key("enter")  # back at the game
        await _until(lambda: again.table == made.table.id and again.seat == 0)
    await again.close()
    await other.close()
