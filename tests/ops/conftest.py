"""Fixtures of the operations tests: a started server on a SQLite store in a temporary
directory (port 0), with the metrics on, stopped at teardown."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.app import Server
from tests.helpers.servers import MakeServer
from tests.server.wsclient import serving


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator[MakeServer]:
    """``await make_server(**config)``: a started server on ``tmp_path/"N.db"``."""
    async with contextlib.AsyncExitStack() as stack:
        made = 0

        async def make(**config: Any) -> Server:
            nonlocal made
            made += 1
            config.setdefault("metrics", True)
            return await stack.enter_async_context(serving(tmp_path / f"{made}.db", **config))

        yield make
