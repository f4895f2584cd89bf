"""A real ``Server`` on 127.0.0.1, on a free port, per test: ``make_server`` and
``server``, the fixtures of the server and players tests (their ``conftest.py`` files
take them from here), and ``MakeServer``, their type."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from server.app import Server, ServerConfig
from server.lobby import NO_QUOTAS
from server.players.hashing import NO_ADDRESS_BOUNDS
from server.store import MemoryStore
from tests.server.wsclient import FEW_SAMPLES

MakeServer = Callable[..., Awaitable[Server]]
"""``make_server``'s type: ``await make_server(**config)`` gives a started server."""

WORKERS_WITHIN = 120.0
"""Seconds a started server's bot workers have to come up: a hang guard."""


async def bots_up(server: Server) -> None:
    """Wait until ``server``'s bot workers are up (each has answered once). The pool is
    one per process and starts with the first server: a worker process took 14 to 30 s
    to start at a load of 30 on 2 cores, and the first computer's move waited for it,
    longer than a test waits for a move (10 s), so it is waited for here, once."""
    async with asyncio.timeout(WORKERS_WITHIN):
        while len(server.bots.memory) < server.bots.workers:
            await asyncio.sleep(0.05)


@pytest.fixture
async def make_server() -> AsyncIterator[MakeServer]:
    """``await make_server(**config)``: a started server (port 0), stopped at teardown."""
    servers: list[Server] = []

    async def make(**config: Any) -> Server:
        config.setdefault("port", 0)
        config.setdefault("host", "127.0.0.1")
        config.setdefault("quotas", NO_QUOTAS)  # many players from one address; see test_quotas
        config.setdefault("signin", NO_ADDRESS_BOUNDS)  # and sign-ins too
        config.setdefault("analysis", FEW_SAMPLES)  # and analyses, quick ones
        server = Server(ServerConfig(**config), MemoryStore())
        await server.start()
        servers.append(server)
        await bots_up(server)
        return server

    yield make
    for s in servers:
        await s.stop()


@pytest.fixture
async def server(make_server: MakeServer) -> Server:
    return await make_server()
