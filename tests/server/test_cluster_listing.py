"""The listing of a cluster (issue 22, item 4): ``tables.total`` counts the public
tables of every node, as the pages list them, on nodes sharing real PostgreSQL and
Redis."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from ..helpers.cluster import cluster
from ..services import Redis
from .wsclient import WsClient, create

pytestmark = pytest.mark.e2e


@pytest.fixture
def redis_url(redis_server: Redis) -> str:
    return redis_server.url


async def _until(pred: Callable[[], bool], timeout: float = 30) -> None:
    async with asyncio.timeout(timeout):
        while not pred():
            await asyncio.sleep(0.05)


async def _every_id(c: WsClient, limit: int) -> list[str]:
    ids: list[str] = []
    cursor = None
    while True:
        page = await c.request("list_tables", cursor=cursor, limit=limit)
        assert page.type == "tables", page
        ids += [t.id for t in page.tables]
        cursor = page.next
        if cursor is None:
            return ids
        await c.ping()


async def test_total_counts_every_nodes_public_tables(pg_url: str, redis_url: str) -> None:
    async with cluster(pg_url, redis_url, n=2) as (a, b):
        on_a = await WsClient.open(a.port, "ann", (1, 1))
        for i in range(3):
            await create(on_a, None, name=f"a{i}")
        await create(on_a, None, name="hidden", private=True)
        on_b = await WsClient.open(b.port, "bob", (1, 1))
        await create(on_b, None, name="b0")
        await _until(lambda: b.cluster is not None and len(b.cluster.listing()) == 3)
        await _until(lambda: a.cluster is not None and len(a.cluster.listing()) == 1)
        for node, c in ((b, on_b), (a, on_a)):
            first = await c.request("list_tables", limit=2)
            ids = await _every_id(c, 2)
            assert len(ids) == len(set(ids)) == 4, ids
            assert first.total == 4, (node.config.port, first)
