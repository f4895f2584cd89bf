"""The store's semantics on both backends (``store_url``: a SQLite file, then a fresh
PostgreSQL database): the schema and its migrations, ownership and fencing, the
look-ups a node of a cluster needs, one server per database."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from server.core.table import hash_token
from server.store import (
    ALIVE_KEPT,
    SQLITE_MIGRATIONS,
    BadDatabase,
    SqliteStore,
    StaleOwner,
    StoreInUse,
    open_store,
)
from shared.game import Take
from shared.options import Options
from shared.record import Record


async def _started(url: str) -> tuple[object, Record]:
    store = open_store(url, exclusive=False) if url.startswith("postgresql") else open_store(url)
    await store.start()
    record = Record.new(Options(seed=5))
    await store.create_table("t1", "fenced", record.options, False, None)
    await store.start_game("t1", record)
    return store, record


async def test_the_server_creates_the_schema_and_records_its_version(store_url: str) -> None:
    store = open_store(store_url)
    await store.start()
    assert store.schema_version() == len(store.MIGRATIONS)
    await store.close()
    again = open_store(store_url)  # opening again migrates nothing and loses nothing
    await again.start()
    assert again.schema_version() == len(store.MIGRATIONS)
    await again.close()


async def test_each_server_s_last_alive_note_is_kept(store_url: str) -> None:
    """``note_alive`` notes when a server (a node: by its name) was last serving; a restart
    reads it back for the clocked moves it ran. Notes of servers silent for a week go."""
    store = open_store(store_url)
    await store.start()
    assert store.alive_at("") is None
    await store.note_alive(100.0)
    await store.note_alive(105.5)
    assert store.alive_at("") == 105.5
    store.server_id = "node-1"
    await store.note_alive(106.0)
    assert (store.alive_at(""), store.alive_at("node-1")) == (105.5, 106.0)
    await store.note_alive(106.0 + ALIVE_KEPT)  # the stand-alone note is over a week old
    assert store.alive_at("") is None and store.alive_at("node-1") is not None
    await store.close()
    again = open_store(store_url)  # durable
    await again.start()
    assert again.alive_at("node-1") == 106.0 + ALIVE_KEPT
    await again.close()


async def test_a_newer_schema_is_refused(store_url: str) -> None:
    store = open_store(store_url)
    await store.start()
    await store.close()
    writer = open_store(store_url)
    con = writer._connect()
    con.cursor().execute("UPDATE schema_version SET version = 99")
    con.close()
    with pytest.raises(BadDatabase, match="schema version 99"):
        await writer.start()


async def test_a_clean_close_leaves_the_database_whole_in_one_file(tmp_path: Path) -> None:
    db = tmp_path / "kk.db"
    store = SqliteStore(db)
    await store.start()
    await store.create_table("t1", "kept", Options(players=2), False, None)
    await store.close()
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)  # the file alone holds it
    assert con.execute("SELECT name FROM tables").fetchall() == [("kept",)]
    con.close()


async def test_a_database_of_the_first_schema_is_migrated(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)  # a database written before schema_version existed
    con.executescript(SQLITE_MIGRATIONS[0])
    con.execute(
        "INSERT INTO tables (id, name, options, private, created, state)"
        " VALUES ('old', 'kept', '{\"players\": 2}', 0, 1.0, 'lobby')"
    )
    con.commit()
    con.close()
    store = SqliteStore(db)
    await store.start()
    assert store.schema_version() == len(SQLITE_MIGRATIONS)
    assert [t.name for t in store.load_open_tables()] == ["kept"]
    assert await store.claim("old", "n1") == 1  # the new columns are there
    await store.close()


async def test_claims_fence_the_writes_of_a_stale_owner(store_url: str) -> None:
    old, _ = await _started(store_url)
    new = open_store(store_url, exclusive=False) if store_url.startswith("postgresql") else old
    if new is not old:
        await new.start()
    assert await old.claim("t1", "node-a") == 1
    await old.append_action("t1", 0, Take("a-0"), epoch=1)
    assert await new.claim("t1", "node-b") == 2
    # node a paused past its lease, then woke up: its intents carry the epoch 1
    with pytest.raises(StaleOwner):
        await old.append_action("t1", 1, Take("a-1"), epoch=1)
    with pytest.raises(StaleOwner):
        await old.finish("t1", None, epoch=1)
    with pytest.raises(StaleOwner):  # no epoch at all: the table was claimed, so refused
        await old.append_action("t1", 1, Take("a-1"))
    assert old.owner("t1") == ("node-b", 2)
    await new.append_action("t1", 1, Take("b-1"), epoch=2)
    record, finished = new.load_record("t1") or (None, True)
    assert record is not None and not finished
    assert [a.card for a in record.actions] == ["a-0", "b-1"]
    assert old.stats()["failed"] >= 1
    if new is not old:
        await new.close()
    await old.close()


async def test_a_stale_write_fails_alone_in_its_batch(store_url: str) -> None:
    store, record = await _started(store_url)
    await store.create_table("t2", "other", record.options, False, None)
    await store.start_game("t2", record)
    assert await store.claim("t1", "me") == 1
    assert await store.claim("t2", "me") == 1
    assert await store.claim("t1", "another node") == 2  # it took t1 since
    store.fences["t1"] = 1  # this node's belief
    results = await asyncio.gather(
        store.append_action("t2", 0, Take("x-0"), epoch=1),
        store.append_action("t1", 0, Take("y-0"), epoch=1),
        store.append_action("t2", 1, Take("x-1"), epoch=1),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StaleOwner)
    assert len((store.load_record("t1") or (None,))[0].actions) == 0  # type: ignore[union-attr]
    assert len((store.load_record("t2") or (None,))[0].actions) == 2  # type: ignore[union-attr]
    store.release("t1")
    with pytest.raises(StaleOwner):  # a claimed table is never written without its epoch
        await store.append_action("t1", 0, Take("y-0"))
    await store.append_action("t1", 0, Take("y-0"), epoch=2)
    await store.close()


async def test_tokens_and_tables_are_found_for_a_node_taking_over(store_url: str) -> None:
    store, _ = await _started(store_url)
    await store.set_seat("t1", 1, "Bea", hash_token("secret"), None)
    await store.append_action("t1", 0, Take("z-0"))
    assert store.find_token(hash_token("secret")) == ("t1", 1)
    assert store.find_token(hash_token("other")) is None
    table = store.load_table("t1")
    assert table is not None and table.record is not None
    assert [s.name for s in table.seats] == ["Bea"] and len(table.record.actions) == 1
    assert store.load_table("nope") is None
    await store.finish("t1", None)
    assert store.find_token(hash_token("secret")) is None  # a finished table's seats are not
    # ... unless it finished recently enough (its players still see how it ended)
    assert store.find_token(hash_token("secret"), time.time() - 60) == ("t1", 1)
    assert store.find_token(hash_token("secret"), time.time() + 60) is None
    await store.close()


async def test_one_stand_alone_server_per_postgresql_database(pg_url: str) -> None:
    first = open_store(pg_url)
    await first.start()
    second = open_store(pg_url)
    with pytest.raises(StoreInUse, match="in use by another server"):
        await second.start()
    node = open_store(pg_url, exclusive=False)  # nodes of a cluster share it
    await node.start()
    await node.close()
    reader = open_store(pg_url, readonly=True)
    assert reader.list_games() == []
    reader.close_reader()
    await first.close()
    await second.start()
    await second.close()


def test_a_cluster_needs_postgresql(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="PostgreSQL"):
        open_store(tmp_path / "x.db", exclusive=False)
