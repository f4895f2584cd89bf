"""Fixtures of the operations tests: a started server on a SQLite store in a temporary
directory (port 0), with the metrics on, stopped at teardown."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from server.app import Server, ServerConfig
from server.lobby import NO_QUOTAS
from server.store import open_store

MakeServer = Callable[..., Awaitable[Server]]


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator[MakeServer]:
    """``await make_server(**config)``: a started server on ``tmp_path/"N.db"``."""
    servers: list[Server] = []

    async def make(**config: Any) -> Server:
        config.setdefault("port", 0)
        config.setdefault("ping_interval", None)
        config.setdefault("quotas", NO_QUOTAS)
        config.setdefault("metrics", True)
        server = Server(ServerConfig(**config), open_store(tmp_path / f"{len(servers)}.db"))
        await server.start()
        servers.append(server)
        return server

    yield make
    for s in servers:
        await s.stop()
