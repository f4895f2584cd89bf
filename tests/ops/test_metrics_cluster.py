"""``GET /metrics`` on nodes of a cluster (issue 26): a node shows the leases it holds,
the intents its sessions forwarded to another node's table and those it served for
them, the tables it adopted and those other nodes handed over. Real PostgreSQL and
Redis (e2e)."""

from __future__ import annotations

import random

import pytest

from tests.helpers import until
from tests.helpers.cluster import cluster
from tests.helpers.metrics import scrape
from tests.server.wsclient import WsClient, advance, create, join

pytestmark = pytest.mark.e2e


async def test_a_node_shows_its_leases_and_forwarded_intents(pg_url: str, redis_url: str) -> None:
    async with cluster(pg_url, redis_url, n=2, metrics=True) as (a, b):
        ca = await WsClient.open(a.port, "ann")
        table, _, _ = await create(ca)  # a serves the table
        cb = await WsClient.open(b.port, "bob")  # b's session forwards to a
        await join(cb, table, "bob")
        for c in (ca, cb):
            await c.send("ready")
        await cb.wait_type("view")
        await ca.wait_type("view")
        await advance([ca, cb], random.Random(1), 6)  # six takes, by whoever is to move
        on_b = await scrape(b.port)  # first: every intent it forwarded was answered
        on_a = await scrape(a.port)
        assert on_a.value("kupferkessel_node_leases") == 1
        assert on_b.value("kupferkessel_node_leases") == 0
        forwarded = on_b.value("kupferkessel_node_forwarded_intents_total")
        takes_b = on_b.value("kupferkessel_takes_total")  # b's session's, acked by b
        assert takes_b >= 1 and takes_b + on_a.value("kupferkessel_takes_total") == 6
        assert forwarded >= 2 + takes_b  # the join, the ready and its takes at least
        assert on_a.value("kupferkessel_node_served_intents_total") >= forwarded
        assert on_a.value("kupferkessel_node_forwarded_intents_total") == 0
        await a.stop()  # a hands its table over: b adopts it
        assert (await scrape(b.port)).value("kupferkessel_node_handovers_total") == 0
        await until(lambda: b.cluster is not None and b.cluster.stats()["adopted"] == 1)
        after = await scrape(b.port)
        assert after.value("kupferkessel_node_leases") == 1
        assert after.value("kupferkessel_node_adoptions_total") == 1
        # the hand-over, counted where it is scraped: on the node that stays
        assert after.value("kupferkessel_node_handovers_received_total") == 1
        for c in (ca, cb):
            await c.close()
