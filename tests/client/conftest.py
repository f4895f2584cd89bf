"""Fixtures for the client tests: a real server on loopback and a private data dir."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from client.lib import Client
from client.tokens import DATA_DIR_ENV
from client.ui.app import KupferApp
from client.ui.table import LogEntry
from protocol import messages as m
from server.app import Server, ServerConfig
from server.store import MemoryStore
from tests.helpers.screens import app_at, with_away


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its seat tokens in its own directory, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_ENV, str(d))
    return d


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    srv = Server(ServerConfig(host="127.0.0.1", port=0, bot_think=0.01), MemoryStore())
    await srv.start()
    yield srv
    await srv.stop()


@pytest.fixture
def url(server: Server) -> str:
    return f"ws://127.0.0.1:{server.port}"


@pytest.fixture
async def seated(url: str) -> AsyncIterator[tuple[KupferApp, Client]]:
    """An app at a three-player recipe table against two bots that never move first."""
    options = m.TableOptions(players=3, recipes=True, memory="casual", seed=5)
    async with app_at(url, options, name="Annabelle-Marie") as seated:
        yield seated


@pytest.fixture
async def away(url: str) -> AsyncIterator[tuple[KupferApp, Client]]:
    """Ann's turn at a two-player table whose other seat, Bob's, is away."""
    async with app_at(url, m.TableOptions(seed=5), bots=1) as (kapp, client):
        assert client.presence is not None
        kapp.game.table.log.extend(
            LogEntry(f"entry {n}: Black (Bob) takes Dragon blood 4 from column 3") for n in range(9)
        )
        bob = {"name": "Bob", "bot": None, "absent": True, "computer": True, "connected": False}
        seats = tuple(s.model_copy(update=bob) if s.seat == 1 else s for s in client.presence.seats)
        kapp.game.on_update(
            m.PresenceMsg(table=client.table, state="playing", seats=seats, spectators=0)
        )
        yield kapp, client


@pytest.fixture
async def away3(url: str) -> AsyncIterator[tuple[KupferApp, Client]]:
    """Ann's turn at a three-player recipe table; Black (Bob) is away."""
    async with app_at(url, m.TableOptions(players=3, recipes=True, seed=5)) as (kapp, client):
        kapp.game.on_update(with_away(client))
        yield kapp, client
