"""The server ``kupferkessel play`` and ``host`` start in their own process
(``server.embedded``): in memory or on SQLite, the public tables waiting for players as
a LAN announcement counts them, one server per database."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.lib import Client
from server.embedded import EmbeddedServer, StoreInUse


async def _create(port: int, name: str, *, private: bool = False) -> None:
    client = Client(f"ws://127.0.0.1:{port}", name="Hanna", persist_tokens=False)
    await client.connect()
    try:
        await client.create_table(name, private=private)
    finally:
        await client.close()


async def test_open_tables_count_the_public_tables_waiting() -> None:
    server = await EmbeddedServer.start("local game")  # loopback, a free port, in memory
    try:
        assert server.port != 0 and server.version
        assert server.open_tables() == 0
        await _create(server.port, "open to all")
        await _create(server.port, "friends only", private=True)
        assert server.open_tables() == 1  # a private table is not announced
    finally:
        await server.stop()


async def test_a_database_serves_one_server_and_keeps_its_tables(tmp_path: Path) -> None:
    db = tmp_path / "host.db"
    first = await EmbeddedServer.start("Hanna's games", db=db)
    try:
        await _create(first.port, "open to all")
        with pytest.raises(StoreInUse):
            await EmbeddedServer.start("a second host", db=db)
    finally:
        await first.stop()
    again = await EmbeddedServer.start("Hanna's games", db=db)
    try:
        assert again.open_tables() == 1  # restored from the database
    finally:
        await again.stop()
