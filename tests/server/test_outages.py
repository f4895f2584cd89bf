"""A real PostgreSQL and a real Redis stopped and started again under running servers,
mid-game: a stand-alone server and two nodes of a cluster. During the outage the
server is not ready (``/readyz`` 503, ``store_up`` or ``redis_up`` 0) and refuses what
it cannot do with the retryable error (``internal``, ``detail`` ``store_unavailable``
or ``cluster_unavailable``), the game untouched; once the service is back, play goes on
by itself and no acknowledged take is lost. A server started during an outage waits
for the service, and a stand-alone server whose database another server took while it
was away stops instead of writing into it."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from bench.services import Postgres, Redis
from client.bot_runner import send_take
from client.convert import view_from_model
from client.lib import Client
from server.app import Server, ServerConfig
from server.store import StoreInUse, open_store
from shared.bots import make_bot
from tests.helpers.cluster import LEASE, cluster
from tests.helpers.waiting import until

from .wsclient import NO_QUOTAS, WsClient, advance, create, http_get, join, random_take, serving

pytestmark = pytest.mark.e2e

_LOCK_SERVER = 0x4B4B5345  # the stand-alone server's advisory lock (server.store.postgres)


async def readiness(port: int) -> tuple[int, dict[str, Any]]:
    status, _, body = await http_get(port, "/readyz")
    return status, json.loads(body)


async def ready(port: int) -> bool:
    return (await readiness(port))[0] == 200


async def not_ready(port: int) -> bool:
    return (await readiness(port))[0] == 503


async def two_players(ports: tuple[int, int]) -> tuple[str, list[WsClient]]:
    """A started two-player game: seat 0 connected at ``ports[0]``, seat 1 at ``ports[1]``."""
    a = await WsClient.open(ports[0], "p0")
    b = await WsClient.open(ports[1], "p1")
    table, _, _ = await create(a, options={"players": 2})
    await join(b, table, "p1")
    for c in (a, b):
        await c.send("ready")
    for c in (a, b):
        await c.wait_type("view")
    return table, [a, b]


async def refused_take(clients: list[WsClient]) -> tuple[Any, int]:
    """The seat to move tries a take: its error, and the state version it was at."""
    view = clients[0].latest_view()
    actor = clients[view.view.to_move]
    version = actor.latest_view().state_version
    fields = random_take(actor.latest_view().view, random.Random(5))
    answer = await actor.request("take", **{**fields, "state_version": version})
    return answer, version


def stored_takes(url: str, table: str) -> int:
    with psycopg.connect(url) as con:
        row = con.execute("SELECT COUNT(*) FROM actions WHERE table_id = %s", (table,)).fetchone()
    assert row is not None
    return int(row[0])


async def retry_until_acked(clients: list[WsClient], version: int) -> int:
    """The seat to move takes again until it is acknowledged (the service is back)."""
    rng = random.Random(7)
    deadline = time.monotonic() + 30
    while True:
        await clients[0].wait_until(lambda: clients[0].latest_view().state_version >= version)
        view = clients[0].latest_view().view
        actor = clients[view.to_move]
        await actor.wait_until(lambda a=actor: a.latest_view().state_version >= version)
        fields = random_take(actor.latest_view().view, rng)
        answer = await actor.request("take", **{**fields, "state_version": version})
        if answer.type == "ack":
            return int(answer.state_version)
        assert answer.type == "error" and answer.code == "internal", answer
        assert answer.detail in ("store_unavailable", "cluster_unavailable"), answer
        assert time.monotonic() < deadline, "play did not resume"
        await asyncio.sleep(0.2)


async def waits_then_serves(
    server: Server, line: str, back: Callable[[], object], said: list[logging.LogRecord]
) -> None:
    """``server``, started while a service is away, waits for it (logging ``line``),
    then starts once ``back()`` brought the service back, and is ready."""
    starting = asyncio.create_task(server.start())
    await until(lambda: any(r.getMessage() == line for r in said))
    assert not starting.done()
    await asyncio.to_thread(back)
    async with asyncio.timeout(20):
        await starting
    try:
        await until(lambda: ready(server.port), timeout=10, what="ready")
    finally:
        await server.stop()


@pytest.fixture
def said() -> Iterator[list[logging.LogRecord]]:
    """The server's log records (warnings and above) during the test."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("kupferkessel")
    logger.addHandler(handler)
    try:
        yield records
    finally:
        logger.removeHandler(handler)


async def test_a_postgresql_restart_under_a_server_mid_game(own_postgres: Postgres) -> None:
    url = own_postgres.database()
    async with serving(url, metrics=True) as server:
        port = server.port
        table, clients = await two_players((port, port))
        version = await advance(clients, random.Random(1), 3)
        assert await ready(port)

        await asyncio.to_thread(own_postgres.halt)
        await until(lambda: not_ready(port), timeout=10, what="not ready while PostgreSQL is down")
        _, body = await readiness(port)
        assert body == {
            "status": "unavailable",
            "reason": "store unreachable",
            "ready": False,
            "store_up": 0,
        }
        _, _, metrics = await http_get(port, "/metrics")
        assert b"kupferkessel_store_up 0.0" in metrics and b"kupferkessel_ready 0.0" in metrics
        answer, at = await refused_take(clients)
        assert (answer.code, answer.detail) == ("internal", "store_unavailable"), answer
        assert "try again" in answer.message
        assert clients[0].latest_view().state_version == at == version  # nothing announced
        newcomer = await WsClient.open(port, "p2")
        created = await newcomer.request("create_table", name="t", player="p2")
        assert (created.code, created.detail) == ("internal", "store_unavailable")

        await asyncio.to_thread(own_postgres.resume)
        await until(lambda: ready(port), timeout=10, what="ready once PostgreSQL is back")
        version = await retry_until_acked(clients, version)
        version = await advance(clients, random.Random(2), 2)
        assert stored_takes(url, table) == version  # every acknowledged take is stored
        _, _, metrics = await http_get(port, "/metrics")
        assert b"kupferkessel_store_up 1.0" in metrics

        # the lock was taken again: a second server on the database still refuses
        second = open_store(url)
        with pytest.raises(StoreInUse):
            await second.start()


async def test_a_bot_whose_move_the_store_refused_moves_once_it_is_back(
    own_postgres: Postgres, said: list[logging.LogRecord]
) -> None:
    url = own_postgres.database()
    async with serving(url, bot_think=2.0) as server:  # the bot moves 2 s after us
        person = await WsClient.open(server.port, "p0")
        table, _, _ = await create(person, bots=[{"seat": 1, "level": "hard"}])
        await person.send("ready")

        def our_turn() -> bool:
            v = person.latest_view()
            return v is not None and v.view.to_move == 0

        await person.wait_until(our_turn, timeout=30)
        view = person.latest_view()
        fields = random_take(view.view, random.Random(8))
        fields["special"] = False  # no second take of ours (a wand): the bot's turn
        ack = await person.request("take", **{**fields, "state_version": view.state_version})
        assert ack.type == "ack", ack
        await asyncio.to_thread(own_postgres.halt)  # before the bot's move
        retried = "bot take not stored: trying again"
        await until(lambda: any(r.getMessage() == retried for r in said))
        await asyncio.to_thread(own_postgres.resume)
        await person.wait_until(  # the bot moved by itself
            lambda: our_turn() and person.latest_view().state_version > ack.state_version,
            timeout=20,
        )
        assert stored_takes(url, table) == person.latest_view().state_version


async def test_kupferkessel_bot_sends_its_take_again_once_the_store_is_back(
    own_postgres: Postgres, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kupferkessel bot``'s take refused with ``store_unavailable`` is sent again (no
    fresh view follows such a refusal) and lands once PostgreSQL is back."""
    url = own_postgres.database()
    async with serving(url) as server:
        person = await WsClient.open(server.port, "p0")
        table, _, _ = await create(person, options={"players": 2})
        bot = Client(f"ws://127.0.0.1:{server.port}", name="Bot", persist_tokens=False)
        await bot.connect()
        try:
            await bot.join(table, "Bot")
            await person.send("ready")
            await bot.ready()
            await person.wait_type("view")
            current = person.latest_view()
            if current.view.to_move == 0:  # our take first: then it is the bot's turn
                fields = random_take(current.view, random.Random(3))
                fields["special"] = False
                await person.request("take", **{**fields, "state_version": current.state_version})
            await until(lambda: bot.view is not None and bot.view.to_move == 1, timeout=20)
            assert bot.view is not None
            version = bot.state_version
            take = make_bot("easy", 1, seed=1).decide(view_from_model(bot.view))
            await asyncio.to_thread(own_postgres.halt)
            sending = asyncio.create_task(send_take(bot, take, version, pauses=(0.2,)))
            said = ""

            def retrying() -> bool:
                nonlocal said
                said += capsys.readouterr().err
                return "take not stored (store_unavailable): trying again" in said

            await until(retrying, timeout=20)
            assert not sending.done()
            await asyncio.to_thread(own_postgres.resume)
            assert await asyncio.wait_for(sending, timeout=30) is True
            assert stored_takes(url, table) == version + 1
        finally:
            await bot.close()
            await person.close()


async def test_a_server_whose_database_was_taken_stops(
    own_postgres: Postgres, said: list[logging.LogRecord]
) -> None:
    url = own_postgres.database()
    async with serving(url) as server:
        with psycopg.connect(url, autocommit=True) as other:
            # the server's lock session ends (as in a restart) and another server's
            # session is waiting for the lock: it has it before this one comes back
            other.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks"
                " WHERE locktype = 'advisory' AND objid = %s",
                (_LOCK_SERVER,),
            )
            other.execute("SELECT pg_advisory_lock(%s)", (_LOCK_SERVER,))
            async with asyncio.timeout(10):
                await server.must_stop.wait()
            assert isinstance(server.fatal, StoreInUse)
            assert any(r.getMessage() == "store lost to another server: stopping" for r in said)


async def test_a_server_started_during_an_outage_waits_for_postgresql(
    own_postgres: Postgres, said: list[logging.LogRecord]
) -> None:
    url = own_postgres.database()
    await asyncio.to_thread(own_postgres.halt)
    server = Server(ServerConfig(port=0, ping_interval=None, quotas=NO_QUOTAS), open_store(url))
    await waits_then_serves(server, "waiting for the store", own_postgres.resume, said)


async def test_a_postgresql_restart_under_two_nodes_mid_game(
    own_postgres: Postgres, redis_url: str
) -> None:
    url = own_postgres.database()
    async with cluster(url, redis_url, n=2) as nodes:
        ports = (nodes[0].port, nodes[1].port)
        table, clients = await two_players(ports)  # seat 1 plays from the other node
        version = await advance(clients, random.Random(3), 3)

        await asyncio.to_thread(own_postgres.halt)
        for port in ports:
            await until(lambda p=port: not_ready(p), timeout=10, what="not ready")
        answer, at = await refused_take(clients)
        assert (answer.code, answer.detail) == ("internal", "store_unavailable")
        assert clients[0].latest_view().state_version == at == version

        await asyncio.to_thread(own_postgres.resume)
        for port in ports:
            await until(lambda p=port: ready(p), timeout=10, what="ready again")
        version = await retry_until_acked(clients, version)
        version = await advance(clients, random.Random(4), 4)  # both seats, both nodes
        assert stored_takes(url, table) == version


async def test_a_redis_restart_under_two_nodes_mid_game(
    postgres: Postgres, own_redis: Redis
) -> None:
    url = postgres.database()
    async with cluster(url, own_redis.url, n=2) as nodes:
        ports = (nodes[0].port, nodes[1].port)
        table, clients = await two_players(ports)
        version = await advance(clients, random.Random(5), 2)
        while clients[0].latest_view().view.to_move != 1:  # seat 1 (forwarded) to move
            version = await advance(clients, random.Random(version), 1)

        await asyncio.to_thread(own_redis.stop)
        await until(lambda: not_ready(ports[1]), timeout=10, what="not ready")
        _, body = await readiness(ports[1])
        assert body["redis_up"] == 0 and body["store_up"] == 1
        started = time.monotonic()
        answer, _ = await refused_take(clients)  # forwarded: fails fast, saying why
        assert time.monotonic() - started < 2 * LEASE  # not after four leases, as it did
        assert (answer.code, answer.detail) == ("internal", "cluster_unavailable"), answer
        assert "cluster cannot be reached" in answer.message

        await asyncio.to_thread(own_redis.start, same_port=True)
        for port in ports:
            await until(lambda p=port: ready(p), timeout=15, what="ready again")
        version = await retry_until_acked(clients, version)
        version = await advance(clients, random.Random(6), 3)
        assert stored_takes(url, table) == version


async def test_a_node_started_during_a_redis_outage_waits(
    pg_url: str, own_redis: Redis, said: list[logging.LogRecord]
) -> None:
    await asyncio.to_thread(own_redis.stop)
    config = ServerConfig(port=0, ping_interval=None, cluster=own_redis.url, lease=LEASE)
    server = Server(config, open_store(pg_url, exclusive=False))
    await waits_then_serves(
        server, "waiting for Redis", lambda: own_redis.start(same_port=True), said
    )
