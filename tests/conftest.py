"""Fixtures every package's tests may use: real PostgreSQL and Redis servers
(``tests.services``), started once per session on free loopback ports and removed at
the end, and ``store_url``, which runs a test once per store backend."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .services import Postgres, Redis


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    pg = Postgres().start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    r = Redis().start()
    try:
        yield r
    finally:
        r.stop()


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    """A fresh, empty PostgreSQL database for this test."""
    return postgres.database()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The store of this test: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "kk.db")
    pg: Postgres = request.getfixturevalue("postgres")
    return pg.database()
