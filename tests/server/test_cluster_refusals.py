"""A refusal made at a table's owner reaches a session at another node whole: its code,
message and detail, and its typed fields too (``field``, 1.6's ``limit``), so a client
says it in its own words whichever node it is connected to. Two nodes in this process,
real PostgreSQL and Redis."""

from __future__ import annotations

from server.app import Server
from server.cluster.counts import ClusterCounts

from ..helpers import until
from ..helpers.cluster import KEEP_LEASE, cluster
from .wsclient import WsClient, create, join


def _written(node: Server) -> bool:
    counts = node.lobby.counts
    assert isinstance(counts, ClusterCounts)
    return counts.written()


async def test_a_refusal_keeps_its_typed_fields_between_nodes(pg_url: str, redis_url: str) -> None:
    async with cluster(pg_url, redis_url, n=2, lease=KEEP_LEASE, max_tables=2) as (a, b):
        here = await WsClient.open(a.port, "here", (1, 6))
        there = await WsClient.open(b.port, "there", (1, 6))
        table, _, _ = await create(here, player="here", options={"players": 2})
        assert table in a.lobby.tables and table not in b.lobby.tables  # a owns it
        # a seat the table does not have: ``invalid_field`` naming the field
        refused = await there.request("join", table=table, player="there", seat=2)
        assert (refused.type, refused.code, refused.field) == ("error", "invalid_field", "seat")
        await join(there, table, "there")
        for p in (here, there):
            await p.send("ready")
        for p in (here, there):
            await p.wait_type("view")
        assert (await there.request("resign")).type == "ack"
        for p in (here, there):
            await p.wait_for(lambda v: v.type == "view" and v.view.game_over)
        # the cluster's two tables taken by others meanwhile (the game's is finished)
        await until(lambda: _written(a) and _written(b), what="counts written")
        filler = await WsClient.open(a.port, "filler", (1, 6))
        for _ in range(2):
            assert (await filler.request("create_table", name="t")).type == "table_created"
        # a rematch the table limit refuses, voted last at the other node: ``limit``
        await here.send("rematch")
        await there.wait_for(lambda x: x.type == "presence" and any(s.rematch for s in x.seats))
        refused = await there.request("rematch")
        assert (refused.type, refused.code, refused.limit) == ("error", "server_full", "tables")
        for c in (here, there, filler):
            await c.close()
