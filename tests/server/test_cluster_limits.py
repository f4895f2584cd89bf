"""The limits and quotas of a cluster (``server.cluster.counts``): one address gets the
same quotas over several nodes as on one server, ``--max-tables`` and
``--max-connections`` count the whole cluster, two nodes cannot both make the last table
allowed, and the counts follow a table that another node takes over, come back after a
Redis restart, and stop counting a dead node's connections. Real PostgreSQL and Redis;
each test its own Redis (its counts must not see another test's)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from websockets.exceptions import ConnectionClosed

from bench.services import Postgres, Redis
from server.app import Server
from server.cluster.counts import TABLES, ClusterCounts, peer_key
from server.core.table import TableError
from server.lobby.quotas import NO_QUOTAS, Quotas
from shared.options import Options
from tests.helpers.servers import MakeServer

from ..helpers import until
from ..helpers.cluster import KEEP_LEASE, LEASE, Node, cluster
from .wsclient import WsClient, create, http_get

HARD = [{"seat": 0, "level": "hard"}, {"seat": 1, "level": "hard"}]


# a check that fails while Redis restarts is checked again
_until = functools.partial(until, ignoring=(RedisError, OSError))


def _counts(node: Server) -> ClusterCounts:
    assert isinstance(node.lobby.counts, ClusterCounts)
    return node.lobby.counts


async def _settled(nodes: list[Server]) -> None:
    """Every node has written what its tables count as (a change at one node counts at
    the others once it is in Redis, a round trip later)."""
    await _until(lambda: all(_counts(n).written() for n in nodes), what="counts written")


def _outcome(answer: Any) -> tuple[str, ...]:
    if answer.type == "error":
        return (answer.code, answer.message)
    return (answer.type,)


async def _quota_run(ports: list[int], settle: Callable[[], Awaitable[None]]) -> list[Any]:
    """One address makes tables at the given servers in turn: two waiting in the lobby,
    two games of bots only, two more waiting, one more of each; what each got."""
    clients = [await WsClient.open(port, f"c{i}") for i, port in enumerate(ports)]
    asks: list[dict[str, Any]] = [{}, {}, {"bots": HARD}, {"bots": HARD}, {}, {}, {}]
    asks.append({"bots": HARD})
    got = []
    for i, ask in enumerate(asks):
        await settle()
        answer = await clients[i % len(clients)].request("create_table", name="t", **ask)
        got.append(_outcome(answer))
    for c in clients:
        await c.close()
    return got


async def test_a_peer_gets_the_same_quotas_across_nodes_as_on_one_server(
    pg_url: str, own_redis: Redis, make_server: MakeServer
) -> None:
    quotas = Quotas(lobby_tables=3, unattended_games=0, bot_games=1)
    one = await make_server(quotas=quotas)

    async def nothing() -> None:
        return None

    expected = await _quota_run([one.port], nothing)
    assert [o[0] for o in expected] == [
        "table_created",
        "table_created",
        "table_created",
        "server_full",  # a second game of bots only
        "table_created",
        "server_full",  # a fourth table in the lobby
        "server_full",
        "server_full",
    ], expected
    async with cluster(pg_url, own_redis.url, n=2, quotas=quotas, lease=KEEP_LEASE) as nodes:
        got = await _quota_run([n.port for n in nodes], lambda: _settled(nodes))
        assert got == expected  # the same answers, the same typed errors
        assert all(n.lobby.tables for n in nodes)  # the tables are at both nodes
        r = aioredis.Redis.from_url(own_redis.url)
        try:
            assert await r.zcard(peer_key("127.0.0.1", "lobby")) == 3
        finally:
            await r.aclose()


async def test_an_unattended_game_counts_wherever_its_people_are(
    pg_url: str, own_redis: Redis
) -> None:
    """A game at node a its player left counts for its address at node b; someone
    watching it through b makes it attended at once, at every node."""
    quotas = Quotas(lobby_tables=0, unattended_games=1, bot_games=0)
    async with cluster(pg_url, own_redis.url, n=2, quotas=quotas, lease=KEEP_LEASE) as (a, b):
        player = await WsClient.open(a.port, "p")
        table, _, _ = await create(player, bots=[{"seat": 1, "level": "easy"}])
        await player.send("ready")
        await player.wait_type("view")
        player.abort()  # the game runs on at a, nobody connected
        await _until(lambda: not a.lobby.tables[table].seating.attended)
        await _settled([a, b])
        c = await WsClient.open(b.port, "c")
        refused = await c.request("create_table", name="one more")
        assert refused.code == "server_full" and "nobody connected" in refused.message, refused
        watcher = await WsClient.open(b.port, "w")
        assert (await watcher.request("watch", table=table)).type == "watching"
        await _until(lambda: a.lobby.tables[table].seating.attended)
        await _settled([a, b])
        assert (await c.request("create_table", name="one more")).type == "table_created"


async def test_max_tables_counts_the_cluster_and_the_last_table_is_made_once(
    pg_url: str, own_redis: Redis
) -> None:
    """Two nodes making tables at the same instant, many at each, past the cluster's
    limit: exactly the limit is made, whichever node made them; a table that ends makes
    room at every node."""
    limit = 5
    async with cluster(
        pg_url, own_redis.url, n=2, max_tables=limit, quotas=NO_QUOTAS, lease=KEEP_LEASE
    ) as (a, b):
        options = Options(players=2)

        async def make(node: Server) -> str:
            try:
                await node.lobby.create("race", options, peer="198.51.100.7")
            except TableError as e:
                return e.code
            return "made"

        for round_ in range(3):
            made = sum(len(n.lobby.tables) - n.lobby.finished_here for n in (a, b))
            tries = [make(n) for _ in range(limit) for n in (a, b)]
            results = await asyncio.gather(*tries)
            assert results.count("made") == limit - made, (round_, results)
            assert set(results) == {"made", "server_full"}
            assert sum(len(n.lobby.tables) for n in (a, b)) == limit
            # one table ends (abandoned in the lobby): one more may be made, at either
            node = max((a, b), key=lambda n: (len(n.lobby.tables), n is (a, b)[round_ % 2]))
            first = next(iter(node.lobby.tables.values()))
            assert await first.finish("abandoned")
            node.lobby.sweep(first.finished_at + node.config.finished_ttl + 1)
            await _settled([a, b])
        c = await WsClient.open(b.port, "c")
        assert (await c.request("create_table", name="last")).type == "table_created"
        full = await c.request("create_table", name="one too many")
        assert (full.code, full.message) == (
            "server_full",
            "this server has reached its table limit",
        )


async def test_the_counts_follow_tables_handed_over_and_come_back_after_a_redis_restart(
    pg_url: str, own_redis: Redis
) -> None:
    quotas = Quotas(lobby_tables=2, unattended_games=0, bot_games=0)
    async with cluster(pg_url, own_redis.url, n=2, quotas=quotas, max_tables=3) as (a, b):
        ca = await WsClient.open(a.port, "ann")
        made = [(await create(ca, None, name=f"t{i}"))[0] for i in range(2)]
        other = await WsClient.open(b.port, "other")
        r = aioredis.Redis.from_url(own_redis.url)
        try:
            lobby_key = peer_key("127.0.0.1", "lobby")

            async def members(key: str) -> set[str]:
                return {m.decode() for m in await r.zrange(key, 0, -1)}

            assert await members(lobby_key) == set(made)
            await a.stop()  # SIGTERM: b takes both tables over
            await _until(lambda: all(t in b.lobby.tables for t in made))
            await _settled([b])
            assert await members(lobby_key) == set(made)  # counted once, now by b
            assert await members(TABLES) == set(made)
            refused = await other.request("create_table", name="third")
            assert refused.code == "server_full" and "2 tables waiting" in refused.message

            own_redis.restart()  # empty: b puts what it serves back at its next renewal
            await _until(lambda: members(lobby_key), what="lobby rebuilt")
            assert await members(lobby_key) == set(made)
            assert await members(TABLES) == set(made)
            again = await WsClient.open(b.port, "again")
            refused = await again.request("create_table", name="third")
            assert refused.code == "server_full" and "2 tables waiting" in refused.message
            table = b.lobby.tables[made[0]]
            assert await table.finish("abandoned")
            await _settled([b])
            assert await members(lobby_key) == {made[1]}
            assert (await again.request("create_table", name="third")).type == "table_created"
        finally:
            await r.aclose()


async def test_a_reservation_whose_request_went_away_is_given_back(
    pg_url: str, own_redis: Redis
) -> None:
    """A table reserved for a request that was cancelled meanwhile (its client went
    away) is never made: its reservation is removed, not left to expire."""
    async with cluster(pg_url, own_redis.url, n=1, lease=KEEP_LEASE) as (a,):
        counts = _counts(a)
        r = aioredis.Redis.from_url(own_redis.url)
        try:
            for peer in ("203.0.113.9", None):
                asking = asyncio.create_task(counts.reserve("feedf00d", peer, False))
                await asyncio.sleep(0)  # the reservation waits for its answer now
                asking.cancel()
                await _until(counts.written)
                assert await r.zcard(TABLES) == 0
                assert await r.zcard(peer_key("203.0.113.9", "lobby")) == 0
            await counts.reserve("feedf00d", "203.0.113.9", False)  # not cancelled: kept
            assert await r.zcard(TABLES) == 1
            assert await r.zcard(peer_key("203.0.113.9", "lobby")) == 1
        finally:
            await r.aclose()


async def _connect(port: int) -> WsClient | None:
    """A connection and its hello, or None if refused (``bye`` ``server_full``)."""
    client = await WsClient.open(port, None)
    try:
        welcome = await client.request("hello", protocol=[1, 0], client="c")
    except (ConnectionError, ConnectionClosed):
        welcome = None
    if welcome is None or welcome.type != "welcome":
        assert client.of_type("bye")[0].reason == "server_full", client.msgs
        await client.close()
        return None
    return client


async def _health(port: int) -> dict[str, Any]:
    _, _, body = await http_get(port)
    figures: dict[str, Any] = json.loads(body)
    return figures


async def test_a_killed_nodes_connections_stop_counting_and_its_tables_still_count(
    postgres: Postgres, own_redis: Redis, tmp_path: Path
) -> None:
    """Two node processes, the cluster's --max-connections 4 and a lobby quota of 2:
    one address at both nodes is held to both in total. SIGKILL one node: its
    connections stop counting after about a lease (new connections get in at the other
    node), its tables are taken over and still count for the address that made them."""
    pg_url = postgres.database()
    flags = ("--max-connections", "4", "--peer-lobby-tables", "2")
    flags += ("--peer-unattended-games", "0", "--peer-bot-games", "0")
    a = Node(pg_url, own_redis.url, tmp_path / "a.log", *flags)
    b = Node(pg_url, own_redis.url, tmp_path / "b.log", *flags)
    clients: list[WsClient] = []
    try:
        await asyncio.gather(a.start(), b.start())
        for port in (a.port, a.port, b.port):
            client = await _connect(port)
            assert client is not None
            clients.append(client)
        made = [(await create(clients[i], None, name=f"t{i}"))[0] for i in range(2)]  # at a
        fourth = await _connect(b.port)
        assert fourth is not None
        clients.append(fourth)
        assert await _connect(b.port) is None  # a fifth: the cluster is full
        assert await _connect(a.port) is None
        refused = await fourth.request("create_table", name="third")
        assert refused.code == "server_full" and "2 tables waiting" in refused.message

        a.kill()
        killed = time.monotonic()
        admitted = None
        async with asyncio.timeout(6 * LEASE + 10):
            while admitted is None:  # a's two connections stop counting
                admitted = await _connect(b.port)
                if admitted is None:
                    await asyncio.sleep(0.05)
        waited = time.monotonic() - killed
        clients.append(admitted)
        await _until(lambda: _health_is(b, "tables", 2), what="b adopted a's tables")
        refused = await admitted.request("create_table", name="third")
        assert refused.code == "server_full" and "2 tables waiting" in refused.message
        r = aioredis.Redis.from_url(own_redis.url)
        try:
            lobby = {m.decode() for m in await r.zrange(peer_key("127.0.0.1", "lobby"), 0, -1)}
            conns = {k.decode(): int(v) for k, v in (await r.hgetall("kk:conns")).items()}
        finally:
            await r.aclose()
        assert lobby == set(made)
        assert conns == {b.id: 3}  # a's entry is gone; b's three connections
        print(f"\nconnections of the killed node stopped counting after {waited:.2f} s")
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()
        a.kill()
        b.kill()


async def _health_is(node: Node, key: str, value: int) -> bool:
    with contextlib.suppress(OSError, ValueError):
        return bool((await _health(node.port)).get(key) == value)
    return False
