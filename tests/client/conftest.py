"""Fixtures for the client tests: a real server on loopback and a private data dir."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from client.tokens import DATA_DIR_ENV
from server.app import Server, ServerConfig
from server.store import MemoryStore


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
