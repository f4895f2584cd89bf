"""One server per database: a second one on the same file refuses to start."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from server.store import SqliteStore, StoreInUse

from .wsclient import serving

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock: POSIX only")


async def test_a_second_store_on_the_same_database_refuses(tmp_path: Path) -> None:
    db = tmp_path / "kk.db"
    first = SqliteStore(db)
    await first.start()
    second = SqliteStore(db)
    with pytest.raises(StoreInUse, match="in use by another server"):
        await second.start()
    reader = SqliteStore(db, readonly=True)  # export reads while a server runs
    assert reader.list_games() == []
    reader.close_reader()
    await first.close()
    await second.start()  # free again once the first one closed
    await second.close()


async def test_a_second_server_on_the_same_database_does_not_start(tmp_path: Path) -> None:
    db = tmp_path / "kk.db"
    async with serving(db):
        with pytest.raises(StoreInUse):
            async with serving(db):
                pass
    async with serving(db) as again:  # the first one stopped: the database is free
        assert again.port > 0


def test_serve_says_why_and_exits_1(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    import argparse
    import asyncio

    from server.commands.serve import add_arguments, run

    db = tmp_path / "kk.db"
    holder = SqliteStore(db)
    asyncio.run(holder.start())
    try:
        p = argparse.ArgumentParser()
        add_arguments(p)
        args = p.parse_args(["--port", "0", "--db", str(db), "--log-level", "error"])
        assert run(args) == 1
        assert "in use by another server" in capfd.readouterr().err
    finally:
        asyncio.run(holder.close())


async def test_a_symlink_to_the_database_finds_the_same_lock(tmp_path: Path) -> None:
    """The lock is taken on the resolved file: a second server started on a symlink
    (or another spelling of the path) to a database in use refuses to start."""
    db = tmp_path / "kk.db"
    (tmp_path / "other").mkdir()
    link = tmp_path / "other" / "link.db"
    link.symlink_to(db)
    async with serving(db):
        for alias in (link, tmp_path / "other" / ".." / "kk.db"):
            with pytest.raises(StoreInUse, match="in use by another server"):
                async with serving(alias):
                    pass
    async with serving(link) as again:  # free once the first one stopped
        assert again.port > 0
