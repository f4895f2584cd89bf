"""Fixtures every package's tests may use: real PostgreSQL and Redis servers
(``bench/services.py``), started once per test process (once per xdist worker) on
free loopback ports and removed at the end, and ``store_url``, which runs a test once
per store backend.

It also marks the end-to-end tests ``e2e`` (``pytest -m "not e2e"`` is the fast tier):
every test that uses a real PostgreSQL or Redis through these fixtures, and every soak
(``slow``). Modules that start processes (servers, nodes, terminals in tmux) mark
themselves, as ``pytestmark = pytest.mark.e2e`` or on the test.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from bench.services import Postgres, Redis
from tests.helpers.chromium import SHARED, uses_browser

# A test using one of these (directly or through another fixture) is end-to-end.
E2E_FIXTURES = frozenset({"postgres", "redis_server", "pg_url", "own_postgres", "own_redis"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``e2e`` what needs a PostgreSQL or Redis server and every soak; put the tests
    in the order they run (``_rank``)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and callspec.params.get("store_url") == "postgresql"
        if names & E2E_FIXTURES or on_postgres or item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.e2e)
    items.sort(key=_rank)


def _rank(item: pytest.Item) -> int:
    """Where a test runs in the one queue the workers take their next tests from
    (scripts/test.sh; the sort is stable, so each module stays in its order): the tests
    marked ``long`` first, so that they are shared out at the start and no worker is
    left with a minute-long game while the others have finished; then the browser tests
    (their long ones first) together, so that a worker starts Chromium once
    (tests/helpers/chromium.py), not once for each module it was given a part of; then
    the other end-to-end tests; the short ones last, to even out the end."""
    long = item.get_closest_marker("long") is not None
    if uses_browser(item):
        return 1 if long else 2
    if long:
        return 0
    return 3 if item.get_closest_marker("e2e") is not None else 4


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test that drives no browser runs with no Playwright in its thread (its event
    loop would stop an asyncio test or fixture). The browser tests run together
    (``_rank``), so a worker stops it once, after its last one; in any order it holds."""
    if not uses_browser(item):
        SHARED.stop()


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """Each test leaves the process's logging as it found it.
    ``server.commands.serve.run`` in process (a test of ``serve``'s exits) sets up the
    server's logging: the ``kupferkessel`` logger at the level asked for and a JSON
    handler on the root, which would stay for every later test in the same worker (a
    warning another test waits for in ``caplog`` was then dropped at level ``error``)."""
    root, ours = logging.getLogger(), logging.getLogger("kupferkessel")
    saved = (root.handlers[:], root.level, ours.handlers[:], ours.level, ours.propagate)
    yield
    root.handlers[:], root.level, ours.handlers[:], ours.level, ours.propagate = saved


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
def redis_url(redis_server: Redis) -> str:
    """The worker's Redis, emptied for this test: what the nodes of an earlier test left
    there (a lobby table counted for its address until its lease ran out, 10 s with
    ``KEEP_LEASE``) counts for nobody here."""
    client = redis.Redis(port=redis_server.port, socket_timeout=10)
    try:
        client.flushall()
    finally:
        client.close()
    return redis_server.url


@pytest.fixture
def own_postgres() -> Iterator[Postgres]:
    """A PostgreSQL server of this test's own, which it may stop and start again
    (``halt``, ``resume``) under running servers."""
    pg = Postgres().start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture
def own_redis() -> Iterator[Redis]:
    """A Redis server of this test's own, which it may stop and start again."""
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
