"""Lobby tables nobody attends expire: a table still waiting for its game, with no person
seated or watching (server-side bots do not count) for ``lobby_ttl`` seconds, is finished
as ``abandoned`` by the sweep and leaves memory; the store marks it finished, a restart
does not bring it back and its seat tokens stop working. Real servers on loopback, real
websockets clients, a real SQLite database in a temp dir; the sweep is driven with an
explicit ``now``."""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from server.app import Server, ServerConfig
from server.commands.serve import add_arguments, config_from_args
from server.core.table import Table
from server.lobby import Lobby
from server.store import MemoryStore
from shared.options import Options
from tests.helpers.servers import MakeServer

from .wsclient import WsClient, create, http_get, human_table, join, serving

TTL = 100.0


async def one_table(
    make_server: MakeServer, name: str, **create_kw: Any
) -> tuple[Server, WsClient, Table, str | None]:
    """A server with ``lobby_ttl=TTL`` and one lobby table created by ``name``."""
    server = await make_server(lobby_ttl=TTL)
    c = await WsClient.open(server.port, name)
    table_id, _, token = await create(c, **create_kw)
    return server, c, server.lobby.get(table_id), token


async def idle(table: Table) -> float:
    """Wait until the server has seen the last person go; since when the table is idle."""
    async with asyncio.timeout(10):
        while table.seating.idle_since is None:
            await asyncio.sleep(0.01)
    return table.seating.idle_since


def stored_state(db: Path, table: str) -> str:
    con = sqlite3.connect(db)
    try:
        (state,) = con.execute("SELECT state FROM tables WHERE id = ?", (table,)).fetchone()
    finally:
        con.close()
    return str(state)


async def test_an_unattended_lobby_table_expires_after_the_ttl(make_server: MakeServer) -> None:
    server, c, table, _ = await one_table(make_server, "creator", player=None)  # nobody sits
    lobby, table_id = server.lobby, table.id
    since = await idle(table)
    assert await lobby.sweep_all(now=since + TTL - 1) == 0
    assert lobby.get(table_id).state == "lobby"
    assert await lobby.sweep_all(now=since + TTL) == 1
    assert table_id not in lobby.tables
    assert (table.state, table.finish_reason) == ("finished", "abandoned")
    assert lobby.finished_here == 0
    counts = lobby.health_counts()
    assert (counts["tables_abandoned"], counts["games_finished"], counts["tables"]) == (1, 0, 0)
    listed = await c.request("list_tables")
    assert table_id not in {t.id for t in listed.tables}
    err = await c.request("join", table=table_id, player="late")
    assert err.type == "error" and err.code == "no_such_table"
    await c.close()


async def test_a_connected_player_keeps_the_table(make_server: MakeServer) -> None:
    server, c, table, _ = await one_table(make_server, "alice")
    table_id = table.id
    assert table.seating.idle_since is None
    assert await server.lobby.sweep_all(now=time.time() + 100 * TTL) == 0
    assert server.lobby.get(table_id).state == "lobby"
    await c.ping()  # the player is still at the table and can go on
    await c.close()


async def test_it_expires_ttl_after_the_last_player_left(make_server: MakeServer) -> None:
    server = await make_server(lobby_ttl=TTL)
    lobby = server.lobby
    a = await WsClient.open(server.port, "alice")
    b = await WsClient.open(server.port, "bob")
    table_id, _, _ = await create(a, options={"players": 3})
    await join(b, table_id, "bob")
    table = lobby.get(table_id)
    left = await a.request("leave")
    assert left.type == "left"
    assert table.seating.idle_since is None  # bob is still there
    assert await lobby.sweep_all(now=time.time() + 100 * TTL) == 0
    before = time.time()
    await b.close()  # the connection closes: the seat stays bob's, nobody is there
    since = await idle(table)
    assert since >= before
    assert await lobby.sweep_all(now=since + TTL - 1) == 0
    assert lobby.get(table_id).state == "lobby"
    assert await lobby.sweep_all(now=since + TTL) == 1
    assert table_id not in lobby.tables
    await a.close()


async def test_a_player_coming_back_restarts_the_clock(make_server: MakeServer) -> None:
    server, a, table, token = await one_table(make_server, "alice")
    table_id = table.id
    await a.close()
    first = await idle(table)
    again = await WsClient.open(server.port, "alice")
    assert (await again.request("resume", token=token)).type == "resumed"
    assert table.seating.idle_since is None
    assert await server.lobby.sweep_all(now=first + 100 * TTL) == 0
    await again.close()
    second = await idle(table)
    assert second >= first
    assert await server.lobby.sweep_all(now=second + TTL) == 1
    assert table_id not in server.lobby.tables


async def test_a_spectator_keeps_it_alive(make_server: MakeServer) -> None:
    server, c, table, _ = await one_table(make_server, "creator", player=None)
    lobby, table_id = server.lobby, table.id
    w = await WsClient.open(server.port, "watcher")
    assert (await w.request("watch", table=table_id)).type == "watching"
    assert table.seating.idle_since is None
    assert await lobby.sweep_all(now=time.time() + 100 * TTL) == 0
    assert lobby.get(table_id).state == "lobby"
    assert (await w.request("leave")).type == "left"
    since = await idle(table)
    assert await lobby.sweep_all(now=since + TTL) == 1
    assert table_id not in lobby.tables
    await w.close()
    await c.close()


async def test_bot_seats_do_not_keep_a_lobby_table(make_server: MakeServer) -> None:
    server = await make_server(lobby_ttl=TTL)
    c = await WsClient.open(server.port, "creator")
    table_id, _, _ = await create(
        c, player=None, options={"players": 3}, bots=[{"seat": 0, "level": "easy"}]
    )
    table = server.lobby.get(table_id)
    assert table.state == "lobby" and table.seats[0].occupant is not None
    since = await idle(table)
    assert await server.lobby.sweep_all(now=since + TTL) == 1
    assert table_id not in server.lobby.tables
    await c.close()


async def test_a_started_game_is_not_expired_as_a_lobby(make_server: MakeServer) -> None:
    """``lobby_ttl`` is for tables before their game; a running game has its own,
    ``abandon_ttl`` (tests/server/test_endings.py), here switched off."""
    server = await make_server(lobby_ttl=TTL, abandon_ttl=0)
    table_id, clients, tokens = await human_table(server.port, 2)
    table = server.lobby.get(table_id)
    for c in clients:
        await c.close()
    since = await idle(table)  # everyone went away, but the game is running
    assert await server.lobby.sweep_all(now=since + 1000 * TTL) == 0
    assert server.lobby.get(table_id).state == "playing"
    back = await WsClient.open(server.port, "p0")
    assert (await back.request("resume", token=tokens[0])).type == "resumed"
    await back.close()


async def test_a_resume_token_of_an_expired_table_is_bad(make_server: MakeServer) -> None:
    server = await make_server(lobby_ttl=TTL)
    a = await WsClient.open(server.port, "alice")
    table_id, _, token = await create(a)
    assert token is not None
    table = server.lobby.get(table_id)
    await a.close()
    since = await idle(table)
    assert await server.lobby.sweep_all(now=since + TTL) == 1
    again = await WsClient.open(server.port, "alice")
    err = await again.request("resume", token=token)
    assert err.type == "error" and err.code == "bad_token"
    await again.close()


@pytest.mark.parametrize("ttl", [0.0, -5.0])
async def test_a_ttl_of_zero_or_less_disables_expiry(make_server: MakeServer, ttl: float) -> None:
    server = await make_server(lobby_ttl=ttl)
    c = await WsClient.open(server.port, "creator")
    table_id, _, _ = await create(c, player=None)
    far = time.time() + 1e9
    assert await server.lobby.expire_lobbies(now=far) == 0
    assert await server.lobby.sweep_all(now=far) == 0
    assert server.lobby.get(table_id).state == "lobby"
    await c.close()


async def test_expired_tables_free_the_table_limit(make_server: MakeServer) -> None:
    server = await make_server(lobby_ttl=TTL, max_tables=1)
    c = await WsClient.open(server.port, "creator")
    table_id, _, _ = await create(c, player=None)
    err = await c.request("create_table", name="second")
    assert err.type == "error" and err.code == "server_full"
    since = await idle(server.lobby.get(table_id))
    assert await server.lobby.sweep_all(now=since + TTL) == 1
    await create(c, player=None, name="second")
    await c.close()


async def test_healthz_counts_abandoned_tables(make_server: MakeServer) -> None:
    server = await make_server(lobby_ttl=TTL)
    counts = json.loads((await http_get(server.port))[2])
    assert counts["tables_abandoned"] == 0
    c = await WsClient.open(server.port, "creator")
    table_id, _, _ = await create(c, player=None)
    since = await idle(server.lobby.get(table_id))
    await server.lobby.sweep_all(now=since + TTL)
    counts = json.loads((await http_get(server.port))[2])
    assert (counts["tables_abandoned"], counts["games_finished"], counts["tables"]) == (1, 0, 0)
    await c.close()


async def test_the_store_marks_it_finished_and_a_restart_does_not_restore_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "kk.db"
    async with serving(db, lobby_ttl=TTL) as server:
        a = await WsClient.open(server.port, "alice")
        b = await WsClient.open(server.port, "bob")
        table_id, _, token = await create(a)
        kept_id, _, _ = await create(b, player=None, name="kept")  # not yet expired
        table = server.lobby.get(table_id)
        await a.close()
        await b.close()
        since = await idle(table)
        kept_since = server.lobby.get(kept_id).seating.idle_since
        assert kept_since is not None
        server.lobby.get(kept_id).seating.idle_since = since + 1  # made later: expires after
        assert await server.lobby.sweep_all(now=since + TTL) == 1
        assert table_id not in server.lobby.tables and kept_id in server.lobby.tables
    assert stored_state(db, table_id) == "finished"
    assert stored_state(db, kept_id) == "lobby"
    before = time.time()
    async with serving(db, lobby_ttl=TTL) as server:
        assert table_id not in server.lobby.tables
        kept = server.lobby.get(kept_id)
        assert kept.state == "lobby"
        assert (
            kept.seating.idle_since is not None and kept.seating.idle_since >= before
        )  # the restart
        c = await WsClient.open(server.port, "alice")
        err = await c.request("resume", token=token)
        assert err.type == "error" and err.code == "bad_token"
        assert await server.lobby.sweep_all(now=kept.seating.idle_since + TTL - 1) == 0
        assert await server.lobby.sweep_all(now=kept.seating.idle_since + TTL) == 1
        await c.close()
    assert stored_state(db, kept_id) == "finished"
    async with serving(db, lobby_ttl=TTL) as server:
        assert server.lobby.tables == {}


class _GatedStore(MemoryStore):
    """A store whose ``finish`` waits until the test lets it go."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = asyncio.Event()
        self.go = asyncio.Event()

    async def finish(
        self, table_id: str, result: dict[str, Any] | None, *, epoch: int | None = None
    ) -> None:
        self.entered.set()
        await self.go.wait()


class _Occupant:
    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: None


async def test_someone_arriving_while_it_expires_still_sees_the_end() -> None:
    """A spectator who comes while the store marks the table finished is told so, and the
    table stays (finished) until the ordinary sweep of finished tables."""
    store = _GatedStore()
    lobby = Lobby(store, lobby_ttl=TTL, finished_ttl=60)
    table, _ = await lobby.create("t", Options(players=2))
    assert table.seating.idle_since is not None
    expiring = asyncio.create_task(lobby.expire_lobbies(now=table.seating.idle_since + TTL))
    await store.entered.wait()
    table.watch(_Occupant())
    store.go.set()
    assert await expiring == 0
    assert table.state == "finished" and lobby.tables[table.id] is table
    assert lobby.finished_here == 1 and lobby.tables_abandoned == 1
    assert table.finished_at is not None
    assert lobby.sweep(now=table.finished_at + 61) == 1
    assert lobby.tables == {} and lobby.finished_here == 0


@pytest.mark.parametrize(
    ("flag", "env", "field", "default"),
    [
        ("--lobby-ttl", "KK_LOBBY_TTL", "lobby_ttl", 1800.0),
        ("--finished-ttl", "KK_FINISHED_TTL", "finished_ttl", 600.0),
    ],
)
def test_serve_flag_and_environment(
    monkeypatch: pytest.MonkeyPatch, flag: str, env: str, field: str, default: float
) -> None:
    def config(*argv: str) -> float:
        p = argparse.ArgumentParser()
        add_arguments(p)
        value: float = getattr(config_from_args(p.parse_args(list(argv))), field)
        return value

    monkeypatch.delenv(env, raising=False)
    assert config() == default == getattr(ServerConfig(), field)
    assert config(flag, "90") == 90.0
    monkeypatch.setenv(env, "0")
    assert config() == 0.0
    assert config(flag, "30") == 30.0  # the flag wins
