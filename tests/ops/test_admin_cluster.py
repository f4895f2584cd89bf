"""``kupferkessel admin`` on a node of a cluster: any node's admin socket lists every
node's tables and connections (each with its node) and closes any table, the node that
serves it doing the closing (``Cluster.close_elsewhere``), so an operator need not know
which node holds what. Real PostgreSQL and Redis (e2e)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus

from server.app import Server
from server.commands.admin import show
from tests.helpers.admin import ask
from tests.helpers.cluster import cluster
from tests.server.wsclient import WsClient, advance, create, join

pytestmark = pytest.mark.e2e


async def each_knows_the_other(a: Server, b: Server) -> None:
    """Wait until each node is a member of the cluster for the other (a node joins at
    its first round, and on a starved machine a round that found its health late takes
    it out until its next one)."""
    assert a.cluster is not None and b.cluster is not None
    async with asyncio.timeout(30):
        while True:
            seen_by_a = await a.cluster.listings.members()
            seen_by_b = await b.cluster.listings.members()
            if seen_by_a == [b.cluster.node] and seen_by_b == [a.cluster.node]:
                return
            await asyncio.sleep(0.1)


async def test_any_node_closes_a_table_its_owner_serves(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    async with cluster(pg_url, redis_url, n=2, admin_dir=tmp_path) as (a, b):
        assert a.cluster is not None and b.cluster is not None
        ca = await WsClient.open(a.port, "ann", (1, 1))
        table, _, _ = await create(ca)  # a serves the table
        cb = await WsClient.open(b.port, "bob", (1, 1))  # b's session forwards to a
        await join(cb, table, "bob")
        for c in (ca, cb):
            await c.send("ready")
        await cb.wait_type("view")
        await ca.wait_type("view")
        await advance([ca, cb], random.Random(7), 4)
        assert table not in b.lobby.tables  # b does not serve it: a does
        await each_knows_the_other(a, b)

        for node in (a, b):  # every node lists the whole cluster, each entry's node
            listed = await ask(node, "tables")
            assert listed["ok"] and listed["unanswered"] == []
            assert [(t["id"], t["node"]) for t in listed["tables"]] == [(table, a.cluster.node)]
            assert [s["name"] for s in listed["tables"][0]["seats"]] == ["p0", "bob"]  # create's
            players = await ask(node, "players")
            assert players["unanswered"] == []
            where = {(p["name"], p["node"], p["table"], p["seat"]) for p in players["players"]}
            assert where == {("p0", a.cluster.node, table, 0), ("bob", b.cluster.node, table, 1)}

        closed = await ask(b, "close", table=table, resign=0)
        assert closed == {
            "ok": True,
            "table": table,
            "ending": "resigned",
            "winners": [1],
            "node": a.cluster.node,
        }
        for c in (ca, cb):  # the owner's ending reaches both nodes' players
            final = await c.wait_for(lambda x: x.type == "view" and x.view.game_over)
            assert final.view.winners == (1,)
        (game,) = b.store.list_games()  # the cluster's one store
        assert game.table_id == table and game.result is not None
        assert game.result["ending"] == "resigned" and game.result["resigned"] == [0]

        again = await ask(b, "close", table=table)  # refused by the owner, as at home
        assert (again["ok"], again["error"]) == (False, "game_over")
        unknown = await ask(b, "close", table="nosuchtable")
        assert (unknown["ok"], unknown["error"]) == (False, "no_such_table")
        cc = await WsClient.open(b.port, "cy", (1, 1))
        lobby_table, _, _ = await create(cc)  # b serves this one, a is asked
        assert lobby_table in b.lobby.tables
        closed_by_a = await ask(a, "close", table=lobby_table)
        assert (closed_by_a["ending"], closed_by_a["node"]) == ("abandoned", b.cluster.node)
        for c in (ca, cb, cc):
            await c.close()


def test_the_command_shows_each_entrys_node_and_the_nodes_missing() -> None:
    seat = {"seat": 0, "name": "ann", "bot": None, "connected": True}
    table = {
        "id": "t1",
        "state": "playing",
        "version": 3,
        "seats": [seat],
        "spectators": 0,
        "name": "Ann's table",
        "ended": None,
        "node": "web2-1-aa",
    }
    lines = show("tables", {"tables": [table], "unanswered": ["web3-2-bb"]})
    assert lines[1].endswith("node web2-1-aa")
    assert lines[2] == "no answer from node web3-2-bb: its part is missing"
    alone = show("tables", {"tables": [{k: v for k, v in table.items() if k != "node"}]})
    assert len(alone) == 2 and "node" not in alone[1]  # a single server: no node
    closed = show("close", {"table": "t1", "ending": "resigned", "winners": [1], "node": "n2"})
    assert closed == ["closed t1 (served by node n2): resigned, winners [1]"]
    person = {
        "name": "ann",
        "address": "127.0.0.1",
        "protocol": "1.1",
        "state": "seated",
        "table": "t1",
        "seat": 0,
        "node": "n2",
    }
    assert show("players", {"players": [person], "unanswered": []})[1].endswith("node n2")


async def test_a_ban_at_one_node_closes_its_connections_at_every_node_at_once(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    """The node where the operator bans tells the others over the bus: a player of the
    name connected at another node is closed within seconds (not at that node's next
    sweep, a minute later), and the answer says how many each node closed."""
    async with cluster(pg_url, redis_url, n=2, admin_dir=tmp_path) as (a, b):
        assert a.cluster is not None and b.cluster is not None
        troll = await WsClient.open(a.port, "troll", (1, 1))
        table, _, _ = await create(troll, player="Troll")
        friend = await WsClient.open(b.port, "friend", (1, 1))
        await join(friend, table, "friend")
        await each_knows_the_other(a, b)

        banned = await ask(b, "ban", name="Troll", reason="abuse")
        assert banned["ok"] and banned["closed"] == 1
        assert banned["nodes"] == {a.cluster.node: 1, b.cluster.node: 0}
        assert banned["unanswered"] == []
        # closed before the answer came (the count above): the bye is on its way
        assert (await troll.wait_type("bye", timeout=10)).reason == "banned"
        await friend.ping()
        lines = show("ban", {k: v for k, v in banned.items() if k != "ok"})
        each = sorted([f"{a.cluster.node} 1", f"{b.cluster.node} 0"])
        assert f"connections closed: 1 ({', '.join(each)})" in lines

        address = await ask(b, "ban", address="127.0.0.0/8", seconds=60)
        assert address["nodes"] == {a.cluster.node: 0, b.cluster.node: 1}  # the friend
        assert (await friend.wait_type("bye", timeout=10)).reason == "banned"
        for node in (a, b):  # refused at the handshake at every node now
            with pytest.raises(InvalidStatus) as e:
                await WsClient.open(node.port, "x", (1, 1))
            assert e.value.response.status_code == 403
        lifted = await ask(a, "lift", id=address["sanction"]["id"])
        assert lifted["ok"] and lifted["unanswered"] == []
        for node in (a, b):  # lifted at every node at once too
            again = await WsClient.open(node.port, "x", (1, 1))
            await again.close()
