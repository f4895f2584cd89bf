"""The operator's sanctions in the store (issue 26), on both backends (``store_url``: a
SQLite file, then a real PostgreSQL database): stored, read back in force, lifted,
ended by their time; and an older database migrated to hold them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from server.store import SQLITE_MIGRATIONS, MemoryStore, Sanction, Store, open_store


def _s(sid: str, since: float, until: float | None, kind: str = "ban") -> Sanction:
    actor = f"alice (uid 1000, pid {since:.0f})"  # who made it (the admin socket's peer)
    return Sanction(sid, kind, "name", f"name-{sid}", since, until, f"why {sid}", actor=actor)


async def _exercise(store: Store) -> None:
    await store.add_sanction(_s("a", 100.0, None))
    await store.add_sanction(_s("b", 101.0, 200.0, "mute"))
    await store.add_sanction(_s("c", 102.0, 150.0))
    assert [s.id for s in store.load_sanctions(120.0)] == ["a", "b", "c"]
    assert [s.id for s in store.load_sanctions(160.0)] == ["a", "b"]  # c ended
    assert store.load_sanctions(120.0)[1] == _s("b", 101.0, 200.0, "mute")
    assert await store.lift_sanction("a", 130.0)
    assert not await store.lift_sanction("a", 131.0)  # lifted already
    assert not await store.lift_sanction("c", 160.0)  # ended already
    assert not await store.lift_sanction("zz", 160.0)
    assert [s.id for s in store.load_sanctions(140.0)] == ["b", "c"]


async def test_sanctions_on_both_backends(store_url: str) -> None:
    store = open_store(store_url)
    await store.start()
    try:
        await _exercise(store)
    finally:
        await store.close()
    again = open_store(store_url)  # durable: a new process reads the same
    await again.start()
    try:
        assert [s.id for s in again.load_sanctions(140.0)] == ["b", "c"]
    finally:
        await again.close()


async def test_sanctions_in_memory() -> None:
    await _exercise(MemoryStore())


async def test_a_database_of_the_version_before_is_migrated(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    for script in SQLITE_MIGRATIONS[:5]:
        con.executescript(script)
    con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    con.execute("INSERT INTO schema_version VALUES (5)")
    con.commit()
    con.close()
    store = open_store(db)
    await store.start()
    try:
        assert store.schema_version() == len(SQLITE_MIGRATIONS)
        await store.add_sanction(_s("x", 1.0, None))
        assert [s.id for s in store.load_sanctions(2.0)] == ["x"]
    finally:
        await store.close()
