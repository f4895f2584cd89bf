"""One seat per player and table, held where seats are written: joins of one player
racing (two connections, at one server or at two nodes of a cluster), the store's own
constraint on SQLite and PostgreSQL, and the migration that brings it to a database
that already holds two seats of one player."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.app import Server
from server.core.errors import TableError
from server.core.table import Table
from server.store import MemoryStore, PlayerSeated, Store, open_store
from server.store.players import StoredPlayer
from server.store.postgres import PostgresStore
from server.store.sqlite import SqliteStore
from shared.options import Options
from tests.helpers.cluster import KEEP_LEASE, cluster
from tests.server.wsclient import WsClient, create

from .helpers import new_secret, signed_in, stored_server


async def _race(table: str, first: WsClient, second: WsClient) -> list[Any]:
    """Both connections send ``join`` at once; their answers, in that order."""
    ids = [await c.send("join", table=table, player="Ada") for c in (first, second)]
    return [
        await c.wait_for(lambda x, i=i: getattr(x, "re", None) == i)
        for c, i in zip((first, second), ids, strict=True)
    ]


def _once(answers: list[Any]) -> int:
    """The index of the answer that seated the player; the other is the refusal."""
    kinds = [a.type for a in answers]
    assert sorted(kinds) == ["error", "joined"], answers
    refused = answers[kinds.index("error")]
    assert (refused.code, refused.detail) == ("not_allowed", "same_player"), refused
    return kinds.index("joined")


async def _rounds(bob: WsClient, ada: list[WsClient], store: Store, tables: Any) -> None:
    for _ in range(4):
        table, _, _ = await create(bob, player="Bob", rated=True, options={"players": 3})
        seated = _once(await _race(table, *ada))
        held = [s.player for s in tables(table).seats if s.player is not None]
        assert len(held) == len(set(held)) == 2  # Bob and Ada, once each
        assert sorted(store.seat_players(table)) == sorted(
            s.index for s in tables(table).seats if s.player is not None
        )
        assert (await ada[seated].request("leave")).type == "left"
        assert (await bob.request("leave")).type == "left"


async def _races(owner: Server, other: Server) -> None:
    """Bob's tables at ``owner``; Ada signed in there and at ``other`` joins them."""
    secret = new_secret()
    bob = await signed_in(owner.port, "Bob", new_secret(), register=True)
    ada = [await signed_in(owner.port, "Ada", secret, register=True)]
    ada.append(await signed_in(other.port, "Ada", secret))
    await _rounds(bob, ada, owner.store, lambda t: owner.lobby.tables[t])
    for c in (bob, *ada):
        await c.close()


async def test_two_joins_of_one_player_at_once_seat_it_once(store_url: str) -> None:
    async with stored_server(store_url) as server:
        await _races(server, server)


async def test_two_joins_at_two_nodes_seat_one_player_once(pg_url: str, redis_url: str) -> None:
    """The owner's table decides, whichever node each join comes through."""
    async with cluster(pg_url, redis_url, n=2, lease=KEEP_LEASE) as (a, b):
        await _races(a, b)


async def _table_with_a_player(store: Store) -> tuple[str, str]:
    player = StoredPlayer("p-ada", "ada key", "Ada", 1.0)
    assert await store.add_player(player, "scrypt$x")
    await store.create_table("t1", "race", Options(players=3), False, None, rated=True)
    return "t1", player.id


@pytest.mark.parametrize("memory", [False, True], ids=["sql", "memory"])
async def test_the_store_keeps_one_seat_per_player_and_table(store_url: str, memory: bool) -> None:
    store: Store = MemoryStore() if memory else open_store(store_url)
    await store.start()
    try:
        table, pid = await _table_with_a_player(store)
        got = await asyncio.gather(
            *(
                store.set_seat(table, seat, "Ada", f"hash{seat}", None, player=pid)
                for seat in (0, 1)
            ),
            return_exceptions=True,
        )
        assert sorted(type(g).__name__ for g in got) == ["NoneType", "PlayerSeated"], got
        assert list(store.seat_players(table).values()) == [pid]
        stored = store.load_table(table)
        if stored is not None:  # a SQL store: the refused seat was not written at all
            assert [s.player for s in stored.seats] == [pid]
        # the same seat again is no second seat
        seat = next(iter(store.seat_players(table)))
        await store.set_seat(table, seat, "Ada", "again", None, player=pid)
    finally:
        await store.close()


async def test_a_join_the_store_refuses_leaves_the_table_as_it_was(store_url: str) -> None:
    """The store holds the player at another seat (the table, restored from older rows,
    does not know it): the join is ``same_player``, and nothing of it stays."""
    store = open_store(store_url)
    await store.start()
    try:
        table_id, pid = await _table_with_a_player(store)
        await store.set_seat(table_id, 2, "Ada", "elsewhere", None, player=pid)
        table = Table(table_id, "race", Options(players=3), store, rated=True)
        with pytest.raises(TableError) as refused:
            await table.join("Ada", object(), 0, player_id=pid)  # type: ignore[arg-type]
        assert (refused.value.code, refused.value.detail) == ("not_allowed", "same_player")
        assert not any(s.taken for s in table.seats) and table.version == 0
        stored = store.load_table(table_id)
        assert stored is not None and [s.seat for s in stored.seats] == [2]
        assert store.seat_players(table_id) == {2: pid}
    finally:
        await store.close()


class _Schema9:
    """A store of schema 9 keeps a player as a server of then did: its secret's hash
    without the columns migration 13 adds (a device's id, tag, label)."""

    async def add_player(self, player: StoredPlayer, secret: Any) -> bool:
        p = player
        await self._write(  # type: ignore[attr-defined]
            "",
            (
                "INSERT INTO players (id, name_key, name, created, rated_games)"
                " VALUES (?, ?, ?, ?, 0)",
                (p.id, p.key, p.name, p.created),
            ),
            (
                "INSERT INTO player_secrets (player_id, secret_hash, created) VALUES (?, ?, ?)",
                (p.id, secret, p.created),
            ),
        )
        return True


class _Sqlite9(_Schema9, SqliteStore):
    MIGRATIONS = SqliteStore.MIGRATIONS[:9]


class _Postgres9(_Schema9, PostgresStore):
    MIGRATIONS = PostgresStore.MIGRATIONS[:9]


async def test_the_migration_keeps_one_seat_of_a_player_seated_twice(store_url: str) -> None:
    """A database whose table already has two seats of one player (the race of older
    servers) keeps the lowest one's link, then holds the constraint."""
    pg = store_url.startswith("postgresql")
    old: Store = _Postgres9(store_url) if pg else _Sqlite9(store_url)
    await old.start()
    table, pid = await _table_with_a_player(old)
    for seat in (1, 2):
        await old.set_seat(table, seat, "Ada", f"h{seat}", None, player=pid)  # no constraint
    assert old.seat_players(table) == {1: pid, 2: pid}
    await old.close()
    store = open_store(store_url)
    await store.start()
    try:
        assert store.seat_players(table) == {1: pid}
        with pytest.raises(PlayerSeated):
            await store.set_seat(table, 0, "Ada", "h0", None, player=pid)
    finally:
        await store.close()
