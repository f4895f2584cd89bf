"""No write without its fence: a table's write carries the epoch its intent was
accepted under, and a store that no longer holds that epoch refuses it before the
database does (docs/OPERATIONS.md "Fencing"). On SQLite and on a real PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.core.table import Detached, Table, TableError
from server.store import SqlStore, StaleOwner, open_store
from shared.options import Options


class _Host(Detached):
    """A table's host that keeps the tables reported lost."""

    def __init__(self) -> None:
        self.lost_tables: list[Table] = []

    def lost(self, table: Table) -> None:
        self.lost_tables.append(table)


class _Person:
    """An occupant that keeps nothing (the table's calls are what is tested here)."""

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: None


async def _store(url: str) -> SqlStore:
    store = open_store(url, exclusive=not url.startswith("postgresql"))
    await store.start()
    store.fence_writes()  # as a node of a cluster does
    return store


async def _running_table(store: SqlStore) -> tuple[Table, list[Table]]:
    """A two-player game running at a table this store claimed; the list collects the
    tables reported lost (``TableHost.lost``)."""
    options = Options(players=2, seed=5)
    await store.create_table("t1", "fenced", options, False, None)
    assert await store.claim("t1", "node-a") == 1
    host = _Host()
    table = Table("t1", "fenced", options, store, host=host)
    lost = host.lost_tables
    for name in ("ann", "bob"):
        person = _Person()
        await table.join(name, person, seeded=True)
        await table.set_ready(person)
    assert table.state == "playing"
    return table, lost


def _stored_takes(store: SqlStore) -> int:
    found = store.load_record("t1")
    assert found is not None
    return len(found[0].actions)


async def test_a_store_refuses_a_write_for_a_table_it_no_longer_holds(store_url: str) -> None:
    store = await _store(store_url)
    try:
        options = Options(players=2, seed=5)
        await store.create_table("t1", "fenced", options, False, None)  # a new table: no epoch
        assert await store.claim("t1", "node-a") == 1
        await store.set_seat("t1", 0, "ann", None, None, epoch=1)
        store.release("t1")  # the lease was lost; nobody else claimed it in the database yet
        with pytest.raises(StaleOwner):
            await store.set_seat("t1", 1, "bob", None, None, epoch=1)
        with pytest.raises(StaleOwner):  # and a write with no epoch at all
            await store.set_seat("t1", 1, "bob", None, None)
        st = store.load_table("t1")
        assert st is not None and [s.name for s in st.seats] == ["ann"] and st.epoch == 1
        assert await store.claim("t1", "node-a") == 2  # taken again: the old epoch stays dead
        with pytest.raises(StaleOwner):
            await store.set_seat("t1", 1, "bob", None, None, epoch=1)
        await store.set_seat("t1", 1, "bob", None, None, epoch=2)
    finally:
        await store.close()


async def test_a_take_whose_lease_is_lost_before_its_write_is_never_stored(
    store_url: str,
) -> None:
    """The zombie owner: the node's lease renewal found the lease lost and let go of the
    table, and a take still comes to the table object in memory. Its write must be
    refused, the take answered ``stale_state`` and the table reported lost; nothing of
    it reaches the database. A take asks for its write in the very step that validates
    it (``Table._commit``), so no renewal comes between the two: a take under way when
    the lease goes is stored under the epoch it was accepted under, which the database
    still holds (a claim by another node would have moved it on: refused at commit)."""
    store = await _store(store_url)
    try:
        table, lost = await _running_table(store)
        assert table.game is not None
        under_way = asyncio.ensure_future(
            table.take_for_seat(table.game.to_move, table.game.legal_actions()[0], table.version)
        )
        await asyncio.sleep(0)  # the take validated and its write asked for, in one step
        store.release("t1")  # what ``Cluster._drop`` does when the renewal finds it lost
        version = (await under_way).version
        assert table.record is not None and len(table.record.actions) == 1 == version
        assert _stored_takes(store) == 1 and lost == []
        seat, take = table.game.to_move, table.game.legal_actions()[0]
        with pytest.raises(TableError) as refused:
            await table.take_for_seat(seat, take, version)
        assert refused.value.code == "stale_state"
        assert lost == [table]
        assert table.version == version and len(table.record.actions) == 1
        assert _stored_takes(store) == 1
    finally:
        await store.close()


async def test_every_write_of_a_table_carries_the_epoch_of_its_intent(store_url: str) -> None:
    """Seats, the game's start, takes, the game's life and its end: each is refused
    once another node claimed the table, and each refusal is ``stale_state``."""
    store = await _store(store_url)
    try:
        table, lost = await _running_table(store)
        assert table.game is not None
        seat = table.game.to_move
        await table.take_for_seat(seat, table.game.legal_actions()[0], table.version)
        assert _stored_takes(store) == 1
        pg = store_url.startswith("postgresql")
        other = await _store(store_url) if pg else None
        if other is not None:  # another node claims it, as after a pause past the lease
            assert await other.claim("t1", "node-b") == 2
        else:  # one SQLite file: the same store claims again, this table object is stale
            assert await store.claim("t1", "node-b") == 2
            store.fences["t1"] = 1
        with pytest.raises(TableError) as refused:
            await table.take_for_seat(
                table.game.to_move, table.game.legal_actions()[0], table.version
            )
        assert refused.value.code == "stale_state" and lost == [table]
        table.lineup.resigned.append(seat)  # a life beyond the record to keep
        with pytest.raises(TableError) as again:
            await table.course.save_life()
        assert again.value.code == "stale_state"
        with pytest.raises(TableError):
            await table.finish("abandoned")
        assert table.state == "playing"  # nothing of the end was taken in either
        assert _stored_takes(store) == 1
        if other is not None:
            await other.close()
    finally:
        await store.close()


async def test_a_stand_alone_server_claims_a_table_a_cluster_served(tmp_path: Any) -> None:
    """A table once claimed (its database served a cluster) is restored by a single
    server under a claim of its own, so its writes carry an epoch and are accepted."""
    from server.lobby import Lobby

    url = str(tmp_path / "kk.db")
    store = open_store(url)
    await store.start()
    options = Options(players=2, seed=5)
    await store.create_table("t1", "once a node's", options, False, None)
    assert await store.claim("t1", "node-a") == 1
    await store.close()
    store = open_store(url)
    await store.start()
    try:
        lobby = Lobby(store)
        assert await lobby.restore() == 1
        table = lobby.tables["t1"]
        assert store.held("t1") == 2
        await table.join("ann", _Person(), seeded=True)
        st = store.load_table("t1")
        assert st is not None and [s.name for s in st.seats] == ["ann"]
    finally:
        await store.close()
