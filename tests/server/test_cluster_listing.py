"""The listing of a cluster (issue 22, item 4): ``tables.total`` counts the public
tables of every node, as the pages list them, on nodes sharing real PostgreSQL and
Redis."""

from __future__ import annotations

import pytest

from ..helpers import until
from ..helpers.cluster import KEEP_LEASE, cluster
from .wsclient import WsClient, create

pytestmark = pytest.mark.e2e


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
    async with cluster(pg_url, redis_url, n=2, lease=KEEP_LEASE) as (a, b):
        on_a = await WsClient.open(a.port, "ann", (1, 1))
        for i in range(3):
            await create(on_a, None, name=f"a{i}")
        await create(on_a, None, name="hidden", private=True)
        on_b = await WsClient.open(b.port, "bob", (1, 1))
        await create(on_b, None, name="b0")
        await until(lambda: b.cluster is not None and len(b.cluster.listing()) == 3, timeout=30)
        await until(lambda: a.cluster is not None and len(a.cluster.listing()) == 1, timeout=30)
        for node, c in ((b, on_b), (a, on_a)):
            first = await c.request("list_tables", limit=2)
            ids = await _every_id(c, 2)
            assert len(ids) == len(set(ids)) == 4, ids
            assert first.total == 4, (node.config.port, first)
