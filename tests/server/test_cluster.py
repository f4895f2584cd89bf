"""Nodes of a cluster in this process: several ``Server``s sharing one PostgreSQL
database and one Redis (both real, started by the fixtures), clients spread over them.
The process-level tests (SIGKILL, SIGSTOP, a Redis restart) are in
``test_cluster_failover.py``."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import random
import re
from typing import Any

import pytest
import redis.asyncio as aioredis

from bench.services import Redis
from protocol import messages as m
from protocol.wire import encode_ack, encode_as, encode_events, encode_view
from server.app import Server, ServerConfig
from server.cluster import RemoteTable, with_seq
from server.core.handle import TableFacts, TableHandle
from server.core.table import Table
from server.net.summaries import table_summary
from server.store import open_store
from shared.options import Options
from shared.record import Record
from shared.view import view

from ..helpers import until
from ..helpers.cluster import KEEP_LEASE, cluster
from ..helpers.leak_oracle import check_game, play_one
from ..helpers.missed import live_steps, missed
from .wsclient import WsClient, create, http_get, join, play_seat, random_take


def test_frames_made_by_the_owner_are_the_bytes_a_local_session_sends() -> None:
    record = Record.new(Options(seed=3, players=3, recipes=True))
    events: list[Any] = []
    game = record.start(events)
    for seq in (1, 127, 128, 70_000, 2**33):
        for seat in (0, 1, None):
            v = view(game, seat)
            assert with_seq(encode_view(v, 5, 0), seq) == encode_view(v, 5, seq)
        assert with_seq(encode_events(events, 0, 0), seq) == encode_events(events, 0, seq)
        chat = m.ChatLineMsg(seat=1, name="seq", text="\xa3seq\x00 in the text")
        assert with_seq(encode_as(m.ChatLineMsg, chat, seq=0), seq) == encode_as(
            m.ChatLineMsg, chat, seq=seq
        )
        assert with_seq(encode_ack(9, 4, 0), seq) == encode_ack(9, 4, seq)


def _methods(*protocols: type) -> set[str]:
    return {n for p in protocols for n, v in vars(p).items() if callable(v) and n[0] != "_"}


def test_a_remote_table_has_every_method_a_session_uses() -> None:
    """A session uses a table through ``TableHandle``, acting there only by ``apply``;
    ``RemoteTable`` has each such method of its own (it is no ``Table``: mypy proves it a
    ``TableHandle``). A public method added to ``Table`` is either one a session uses,
    and then belongs to that interface, or the owner's alone (those ``Table.apply``
    calls for an intent among them)."""
    assert not issubclass(RemoteTable, Table)
    session_facing = _methods(TableFacts, TableHandle)
    assert session_facing >= {"apply", "seat_of", "detach", "public_seats"}
    public = {n for n in dir(Table) if callable(getattr(Table, n)) and not n.startswith("_")}
    applied = set(re.findall(r"self\.(\w+)\(", inspect.getsource(Table.apply)))
    assert applied >= {"join", "take_for_seat", "resign", "vote_rematch"}  # what intents call
    owner_only = (applied - session_facing) | {
        "send_view_to",
        "broadcast_presence",
        "add_bot",
        "place_bot",
        "maybe_start",
        "finish",
        "close",  # the operator's (kupferkessel admin), on the node serving the table
        "end_by_operator",  # the same, answering the admin (here or for another node)
        "take_for_seat",
        "next_due",
        "tick",
    }
    assert public - owner_only == session_facing, (
        "a new Table method: add it to an interface or list it"
    )
    for name in session_facing:
        assert name in vars(RemoteTable), name


async def test_games_with_seats_and_spectators_on_different_nodes(
    pg_url: str, redis_url: str
) -> None:
    async with cluster(pg_url, redis_url, lease=KEEP_LEASE) as nodes:
        ports = [s.port for s in nodes]
        rng = random.Random(1606)
        frames = 0
        games = []
        for players in (2, 3, 2, 3):
            while True:  # the oracle's own random choice of players: keep the ones wanted
                seed = rng.random()
                if random.Random(seed).choice([2, 3]) == players:
                    break
            played = await play_one(ports, random.Random(seed))
            frames += check_game(played)
            games.append(played)
        for p in games:  # every game: connections on at least two nodes, seats apart
            used = [c.client.ws.remote_address[1] for c in p.conns]
            assert len(set(used)) >= 2 and used[0] != used[1]
        print(f"\ncluster leak oracle: {len(games)} games, {frames} frames checked")


async def test_the_lobby_and_healthz_cover_the_cluster(pg_url: str, redis_url: str) -> None:
    async with cluster(pg_url, redis_url, n=2, lease=KEEP_LEASE) as (a, b):
        ca = await WsClient.open(a.port, "ann")
        table, _, _ = await create(ca, "ann", name="on node a")
        private, _, _ = await create(await WsClient.open(a.port, "pat"), private=True)
        cb = await WsClient.open(b.port, "bob")
        await until(lambda: b.cluster is not None and b.cluster.listing(), timeout=30)
        listed = await cb.request("list_tables")
        assert [t.id for t in listed.tables] == [table]  # a private table is never listed
        assert listed.tables[0].seats[0].name == "ann" and listed.tables[0].seats[0].connected
        _, token = await join(cb, table, "bob")
        await until(  # as of the nodes' last reports (a report of a's between pat's
            # connecting and pat's table counts pat but one table)
            lambda: (
                b.health().get("cluster_connections") == 3
                and b.health().get("cluster_nodes") == 2
                and b.health().get("cluster_tables") == 2
            ),
            timeout=30,
        )
        status, _, body = await http_get(b.port)
        health = json.loads(body)
        assert status == 200
        assert health["cluster_nodes"] == 2 and health["node"] == b.cluster.node
        assert health["tables"] == 0 and health["cluster_tables"] == 2  # both a's
        assert health["connections"] == 1 and health["cluster_connections"] == 3
        # bob's own table, at another node, is listed once
        again = await cb.request("list_tables")
        assert [t.id for t in again.tables] == [table]
        await cb.close()
        cb2 = await WsClient.open(b.port, "bob again")  # resume at a node that does not own it
        resumed = await cb2.request("resume", token=token)
        assert (resumed.type, resumed.table, resumed.seat) == ("resumed", table, 1)
        await cb2.wait_type("presence")
        assert private not in [t.id for t in (await cb2.request("list_tables")).tables]


def _summaries(*nodes: Server) -> dict[str, Any]:
    """The summaries of the public tables the nodes own, as they see them."""
    return {t.id: table_summary(t) for n in nodes for t in n.lobby.tables.values() if not t.private}


def _listed(node: Server) -> dict[str, Any]:
    """The summaries of the other nodes' public tables, as ``node`` lists them."""
    assert node.cluster is not None
    return {t.id: table_summary(t) for t in node.cluster.listing()}


async def test_nodes_publish_what_changed_in_their_listing(
    pg_url: str, redis_url: str, redis_server: Redis
) -> None:
    """A node writes its public tables to Redis once, then only what changed (nothing
    while its tables are quiet); the other nodes follow, a node that joins later reads
    the listing whole, and a listing Redis lost is written whole again."""
    async with cluster(pg_url, redis_url, n=2) as (a, b):
        assert a.cluster is not None and b.cluster is not None
        made = [(await a.lobby.create(f"t{i}", Options(players=2)))[0] for i in range(30)]
        await a.lobby.create("hidden", Options(players=2), private=True)

        def follows(*readers: Server) -> bool:
            """The readers list a's tables as they are, at a's latest version."""
            assert a.cluster is not None
            return all(
                r.cluster is not None
                and _listed(r) == _summaries(a, *(n for n in (b,) if n is not r))
                and r.cluster.listings.others[a.cluster.node].v == a.cluster.listings.version
                for r in readers
            )

        await until(lambda: follows(b), timeout=30)
        assert len(_listed(b)) == 30
        version = a.cluster.listings.version
        await asyncio.sleep(a.cluster.lease)  # three rounds: nothing changed, nothing sent
        assert a.cluster.listings.version == version
        guest = await WsClient.open(b.port, "guest")
        await join(guest, made[7].id, "guest")  # forwarded to a: the summary changes there
        await until(
            lambda: follows(b) and _listed(b)[made[7].id].seats[0].name == "guest", timeout=30
        )
        assert a.cluster.listings.version > version
        r = aioredis.Redis.from_url(redis_url)
        try:
            listed = await r.hlen(f"kk:listed:{a.cluster.node}")
            assert listed == 31  # the 30 summaries and the version
            c = Server(
                ServerConfig(port=0, ping_interval=None, cluster=redis_url, lease=1.0),
                open_store(pg_url, exclusive=False),
            )
            await c.start()
            try:
                await until(lambda: follows(c), timeout=30)  # read whole once
                version = a.cluster.listings.version
                await r.delete(f"kk:listed:{a.cluster.node}")  # lost (as in a Redis restart)
                await until(
                    lambda: a.cluster is not None and a.cluster.listings.version > version,
                    timeout=30,
                )
                assert await r.hlen(f"kk:listed:{a.cluster.node}") == 31
                made[3].broadcast_presence()  # (unchanged: nothing more to send)
                await until(lambda: follows(b, c), timeout=30)
            finally:
                await c.stop()
        finally:
            await r.aclose()
            await guest.close()


async def test_a_stopping_node_hands_its_tables_over(pg_url: str, redis_url: str) -> None:
    async with cluster(pg_url, redis_url, n=2) as (a, b):
        ca = await WsClient.open(a.port, "ann")
        table, _, token_a = await create(ca)
        cb = await WsClient.open(b.port, "bob")
        await join(cb, table, "bob")
        rng = random.Random(4)
        for c in (ca, cb):
            await c.send("ready")
        await cb.wait_type("view")  # the game started
        await a.stop()  # SIGTERM: a hands the table to b, then closes ann's connection
        assert a.cluster is not None and a.cluster.handed_over == 1
        await until(lambda: table in b.lobby.tables, timeout=30)
        ca2 = await WsClient.open(b.port, "ann again")
        assert (await ca2.request("resume", token=token_a)).type == "resumed"
        finals = await asyncio.gather(play_seat(ca2, 0, rng), play_seat(cb, 1, rng))
        assert finals[0].view.game_over and finals[1].view.game_over
        record, finished = b.store.load_record(table) or (None, False)
        assert finished and record is not None and record.replay().over


async def test_a_handed_over_clocked_move_keeps_the_time_it_had_used(
    pg_url: str, redis_url: str
) -> None:
    """A clocked move in progress on a node that stops goes on at the node that takes
    the table over with the time it had used (the stopping node's last note in the
    store, under its name), not from full."""
    now = [1_000_000.0]
    async with cluster(pg_url, redis_url, n=2, now=lambda: now[0]) as (a, b):
        ca = await WsClient.open(a.port, "ann", (1, 1))
        table, _, _ = await create(ca, timing={"move": 30, "reserve": 60})
        cb = await WsClient.open(b.port, "bob", (1, 1))
        await join(cb, table, "bob")
        for c in (ca, cb):
            await c.send("ready")
        await cb.wait_type("view")  # the game started, at a
        assert table in a.lobby.tables
        now[0] += 12  # 12 s into the first move, a stops
        await a.stop()
        await until(lambda: table in b.lobby.tables, timeout=5)
        clock = b.lobby.tables[table].lineup.clock
        assert clock is not None and clock.deadline() == now[0] - 12 + 30 + 60
        for c in (ca, cb):
            await c.close()


async def test_protocol_1_1_combined_updates_across_nodes(pg_url: str, redis_url: str) -> None:
    """A 1.1 client in combined mode at another node than its table: the owner frames
    its update for 1.1 and the update answers its take (no ack after it); a 1.0 client
    at the same table, at a third node, gets events, view and ack as ever."""
    async with cluster(pg_url, redis_url, lease=KEEP_LEASE) as (a, b, c):
        new = await WsClient.open(b.port, None)
        welcome = await new.request("hello", protocol=[1, 1], client="new", combined=True)
        assert tuple(welcome.protocol) == (1, 1)
        old = await WsClient.open(c.port, "old")  # 1.0
        host = await WsClient.open(a.port, "host")
        made = await host.request("create_table", name="mixed", options={"players": 2})
        table = made.table.id
        assert table in a.lobby.tables  # a owns it; nobody plays at a
        await join(new, table, "new")
        await join(old, table, "old")
        for p in (new, old):
            await p.send("ready")
        await new.wait_type("update")
        await old.wait_type("view")
        rng = random.Random(11)
        moved = {"new": 0, "old": 0}
        while min(moved.values()) < 3:
            await new.wait_until(lambda: bool(new.of_type("update")))
            await old.wait_until(lambda: old.latest_view() is not None)
            v_new, v_old = new.of_type("update")[-1], old.latest_view()
            if v_new.state_version != v_old.state_version:
                await asyncio.sleep(0.05)
                continue
            if v_new.view.to_move == 0:
                take = v_new.view.takes[rng.randrange(len(v_new.view.takes))]
                answer = await new.request(
                    "take",
                    state_version=v_new.state_version,
                    **take.model_dump(exclude_defaults=True),
                )
                assert answer.type == "update", answer
                assert answer.state_version == v_new.state_version + 1 and answer.events
                moved["new"] += 1
            else:
                fields = {**random_take(v_old.view, rng), "state_version": v_old.state_version}
                ack = await old.request("take", **fields)
                assert ack.type == "ack", ack
                moved["old"] += 1
                await old.wait_until(lambda v=ack.state_version: old.shows(v))
        assert not new.of_type("ack") and not new.of_type("view")  # combined: updates only
        assert old.of_type("events") and not old.of_type("update")  # 1.0 as ever


async def test_a_rematch_across_nodes_takes_every_session_along(
    pg_url: str, redis_url: str
) -> None:
    """A rematch voted by players at two nodes (the table's owner and another), with a
    spectator at a third: every 1.1 session follows to the new table exactly as on one
    server (``rematched``, then the new game's views), its intents go to the new table,
    and its token resumes the new seat at any node. Twice: once the owner's local
    player votes last, once the remote one (whose vote is answered after the move)."""
    async with cluster(pg_url, redis_url, lease=KEEP_LEASE) as (a, b, c):
        here, there = await hello(a.port, "here"), await hello(b.port, "there")
        table, _, token = await create(here, player="here", options={"players": 2})
        assert table in a.lobby.tables and token is not None  # a owns it
        _, other = await join(there, table, "there")
        watcher = await hello(c.port, "w")
        assert (await watcher.request("watch", table=table)).type == "watching"
        for p in (here, there):
            await p.send("ready")
        seated = ["here", "there"]  # who sits where
        everyone = {"here": here, "there": there, "w": watcher}
        for last in ("here", "there"):
            assert (await there.request("resign")).type == "ack"  # the remote intent
            starts = {k: len(x.msgs) for k, x in everyone.items()}
            for x in everyone.values():
                await x.wait_for(lambda v: v.type == "view" and v.view.game_over)
            first = "there" if last == "here" else "here"
            await everyone[first].send("rematch")
            await everyone[last].wait_for(
                lambda x: x.type == "presence" and any(s.rematch for s in x.seats),
                start=starts[last],
            )
            await everyone[last].send("rematch")
            moved = {
                k: await x.wait_type("rematched", start=starts[k]) for k, x in everyone.items()
            }
            new = moved["here"].table
            assert new != table and {r.table for r in moved.values()} == {new}
            seated = [seated[1], seated[0]]  # everyone one seat on
            assert moved["here"].seat == seated.index("here")
            assert moved["there"].seat == seated.index("there")
            assert moved["w"].seat is None
            owned = a.lobby.tables[new]  # the new table is the old one's owner's
            assert [s.name for s in owned.seats] == seated
            for k, x in everyone.items():
                v = await x.wait_for(
                    lambda m: m.type == "view" and not m.view.game_over, start=starts[k]
                )
                assert v.state_version == 0
            assert [p.id for p in b.cluster.proxies.values()] == [new]  # type: ignore[union-attr]
            # the handles at the other node name the new table as its owner does
            assert {p.name for p in b.cluster.proxies.values()} == {owned.name}  # type: ignore[union-attr]
            table = new
        # the remote player's take reaches the new table as well as the local one's
        assert owned.game is not None
        mover = everyone[seated[owned.game.to_move]]
        await mover.wait_until(lambda: mover.latest_view().view.to_move == owned.game.to_move)
        fields = {**random_take(mover.latest_view().view, random.Random(5)), "state_version": 0}
        assert (await mover.request("take", **fields)).type == "ack"
        assert owned.version == 1
        # the token moved with the seat: resumed at a third node, at the new table
        await there.close()
        again = await hello(c.port, "there again")
        resumed = await again.request("resume", token=other)
        assert resumed.type == "resumed"
        assert (resumed.table, resumed.seat) == (table, seated.index("there"))
        for x in (here, watcher, again):
            await x.close()


async def hello(port: int, name: str) -> WsClient:
    """A 1.1 client (a rematch is 1.1)."""
    client = await WsClient.open(port, name, (1, 1))
    return client


async def _to_move(clients: list[WsClient]) -> tuple[WsClient, Any]:
    """The client whose seat is to move on the newest view, and that view message."""
    for c in clients:
        v = c.latest_view()
        if v is not None and v.view.seat == v.view.to_move:
            return c, v
    raise AssertionError("nobody is to move")


async def test_a_write_refused_by_its_fence_is_answered_stale_state(
    pg_url: str, redis_url: str
) -> None:
    """Another node claimed the table in the store while its owner did not know yet (a
    pause past the lease): the owner's next take is refused by the database, answered
    ``stale_state`` (never ``internal``), the owner lets go, and the players get a fresh
    view from the new owner and finish the game."""
    async with cluster(pg_url, redis_url, n=2) as (a, b):
        ca = await WsClient.open(a.port, "ann")
        table, _, _ = await create(ca)
        cb = await WsClient.open(a.port, "bob")
        await join(cb, table, "bob")
        for c in (ca, cb):
            await c.send("ready")
        for c in (ca, cb):
            await c.wait_type("view")
        rival = open_store(pg_url, exclusive=False)
        await rival.start()
        await rival.claim(table, "a node that took it over")
        await rival.close()
        mover, v = await _to_move([ca, cb])
        start = [len(c.msgs) for c in (ca, cb)]
        fields = random_take(v.view, random.Random(5))
        refused = await mover.request("take", **{**fields, "state_version": v.state_version})
        assert (refused.type, refused.code) == ("error", "stale_state"), refused
        await until(lambda: table not in a.lobby.tables, timeout=30)
        for c, i in zip((ca, cb), start, strict=True):  # a fresh view from the new owner
            fresh = await c.wait_for(lambda x: x.type == "view", start=i, timeout=20)
            assert fresh.state_version == v.state_version
        rng = random.Random(6)
        finals = await asyncio.gather(play_seat(ca, 0, rng), play_seat(cb, 1, rng))
        assert all(f.view.game_over for f in finals)
        for c in (ca, cb):
            assert not [x for x in c.msgs if x.type == "error" and x.code == "internal"]
        record, finished = b.store.load_record(table) or (None, False)
        assert finished and record is not None and record.replay().over


async def test_a_private_tables_spectator_follows_it_to_a_new_owner(
    pg_url: str, redis_url: str
) -> None:
    """A node loses the lease of a private table while a spectator watches it there:
    the spectator is attached again to whichever node serves it next (with the invite
    code it watched with) and sees the game to its end."""
    async with cluster(pg_url, redis_url, n=2) as (a, b):
        ca = await WsClient.open(a.port, "ann")
        table, invite, _ = await create(ca, private=True)
        cb = await WsClient.open(b.port, "bob")
        await join(cb, table, "bob", invite=invite)
        cs = await WsClient.open(a.port, "sue")
        assert (await cs.request("watch", table=table, invite=invite)).type == "watching"
        for c in (ca, cb):
            await c.send("ready")
        for c in (ca, cb, cs):
            await c.wait_for(lambda x: x.type == "view" and x.view.to_move is not None)
        r = aioredis.from_url(redis_url)
        await r.set(f"kk:lease:{table}", "a node that took it over", px=1500)
        await r.aclose()
        await until(lambda: table not in a.lobby.tables, timeout=30)  # a let go at its next renewal
        start = len(cs.msgs)
        await cs.wait_for(lambda x: x.type == "view", start=start, timeout=20)
        rng = random.Random(7)
        await asyncio.gather(play_seat(ca, 0, rng), play_seat(cb, 1, rng))
        final = await cs.wait_for(lambda x: x.type == "view" and x.view.game_over, timeout=20)
        assert final.view.seat is None


async def test_a_session_its_tables_owner_refuses_to_attach_is_told(
    pg_url: str, redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The owner refuses a one-way attachment (here a watch without the invite code, as
    older nodes sent after losing a table): it logs the refusal and tells the session's
    node, which closes the session with ``bye`` ``moved`` rather than leave it without
    frames (its client connects again and watches anew)."""
    caplog.set_level(logging.WARNING, logger="kupferkessel.cluster")
    async with cluster(pg_url, redis_url, n=2, lease=10.0) as (a, b):  # b keeps its table
        assert a.cluster is not None and b.cluster is not None
        cb = await WsClient.open(b.port, "bob")
        table, invite, _ = await create(cb, private=True)
        cs = await WsClient.open(a.port, "sue")
        assert (await cs.request("watch", table=table, invite=invite)).type == "watching"
        await cs.wait_type("presence")
        proxy = next(p for p in a.cluster.proxies.values() if p.id == table)
        a.cluster.send(
            b.cluster.node,
            {"k": "watch", "t": table, "sid": proxy.handle_id, "minor": 0, "combined": False},
        )
        bye = await cs.wait_type("bye", timeout=10)
        assert bye.reason == "moved"
        code, _ = await cs.wait_closed()
        assert code == 1013
        owner_log = logging.getLogger("kupferkessel.cluster")
        said = [r.getMessage() for r in caplog.records]
        assert any("refused watch" in line for line in said), (
            said,
            owner_log.getEffectiveLevel(),
            owner_log.disabled,
            [type(h).__name__ for h in logging.getLogger().handlers],
        )


async def test_a_person_at_another_node_takes_the_seat_back(pg_url: str, redis_url: str) -> None:
    """``back`` sent from a node that does not own the table reaches the owner (it was
    once taken for the node-level ``back`` a node sends when its channel returns, and
    never answered)."""
    now = [1_000_000.0]
    async with cluster(pg_url, redis_url, n=2, now=lambda: now[0], bot_think=5) as (a, b):
        host = await WsClient.open(a.port, "host", (1, 1))
        table, _, _ = await create(
            host, player=None, timing={"move": 10, "absent_after": 1}, options={"players": 2}
        )
        people = [await WsClient.open(b.port, f"p{i}", (1, 1)) for i in range(2)]
        for i, c in enumerate(people):
            await join(c, table, f"p{i}")
            await c.send("ready")
        for c in people:
            await c.wait_type("view")
        mover = people[0].latest_view().view.to_move
        now[0] += 11  # the mover's time runs out: a computer player takes the seat over
        await a.lobby.tick()
        await people[0].wait_for(lambda x: x.type == "presence" and x.seats[mover].computer)
        answer = await people[mover].request("back", timeout=10)
        assert answer.type == "ack", answer
        await people[0].wait_for(lambda x: x.type == "presence" and not x.seats[mover].computer)


async def test_a_resume_while_redis_is_down_is_refused_plainly(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A session's request that needs Redis while Redis cannot be reached (a failover
    soak saw a node wake from a pause into a Redis timeout) gets a typed ``internal``
    error telling it to try again, logged as a warning, not as a server bug; the node
    goes on serving."""
    redis = Redis().start()
    try:
        async with cluster(pg_url, redis.url, n=2, lease=30.0) as (a, b):
            ca = await WsClient.open(a.port, "ann")
            table, _, _ = await create(ca, "ann", name="on node a")
            cb = await WsClient.open(b.port, "bob")
            _, token = await join(cb, table, "bob")  # a seat at a's table, through b
            await cb.close()
            again = await WsClient.open(b.port, "bob again")
            redis.stop()
            with caplog.at_level(logging.WARNING, logger="kupferkessel"):
                refused = await again.request("resume", token=token)
            assert (refused.type, refused.code) == ("error", "internal"), refused
            assert "try again" in refused.message
            assert "internal error handling" not in caplog.text
            assert any(r.getMessage() == "cluster unreachable" for r in caplog.records)
            assert (await again.request("ping")).type == "pong"  # the node goes on
            redis.start(same_port=True)  # back (empty) before the nodes stop
    finally:
        redis.stop()


async def test_a_take_from_a_session_not_attached_at_the_owner_attaches_it_again(
    pg_url: str, redis_url: str
) -> None:
    """A table adopted by a node knows none of its sessions at other nodes until they
    attach again. A take that reached the new owner first (its session's attachment
    still on its way, or answered ``moved`` while the table was being loaded) was
    refused ``not_seated``, to a player who is seated; it is answered ``moved`` now, so
    the session's node attaches again (``resume``) and asks again: the take is acked."""
    async with cluster(pg_url, redis_url, n=2, lease=10.0) as (a, b):  # b keeps its table
        assert a.cluster is not None and b.cluster is not None
        cb = await WsClient.open(b.port, "bob")
        table, _, _ = await create(cb, options={"players": 2})
        cs = await WsClient.open(a.port, "sue")
        seat, _ = await join(cs, table, "sue")
        for c in (cb, cs):
            await c.send("ready")
        for c in (cb, cs):
            await c.wait_type("view")
        while cs.latest_view().view.to_move != seat:  # bob moves first (a wand: again)
            vb = cb.latest_view()
            fields = random_take(vb.view, random.Random(1))
            fields["state_version"] = vb.state_version
            assert (await cb.request("take", **fields)).type == "ack"
            after = vb.state_version
            await cs.wait_for(lambda x, v=after: x.type == "view" and x.state_version > v)
        # b forgets sue's attachment and her seat's connection, as a node that has just
        # loaded the table from the store knows neither
        served = b.lobby.tables[table]
        (key,) = [k for k in b.cluster.serving.occupants if k[0] == a.cluster.node]
        b.cluster.serving.occupants.pop(key)
        served.seats[seat].occupant = None
        vs = cs.latest_view()
        fields = random_take(vs.view, random.Random(2))
        fields["state_version"] = vs.state_version
        answer = await cs.request("take", timeout=20, **fields)
        assert answer.type == "ack", answer
        assert served.seat_of(next(iter(b.cluster.serving.occupants.values()))) == seat


async def test_a_seat_catches_up_on_another_node(pg_url: str, redis_url: str) -> None:
    """1.4: a seat that leaves node b while a computer stands in for it comes back at
    node c and catches up: the owner (node a) answers from its table's record, each
    step exactly what a spectator at node c got live, the computer's takes marked."""
    async with cluster(pg_url, redis_url, lease=KEEP_LEASE) as (a, b, c):
        host = await WsClient.open(a.port, "host", (1, 4))
        made = await host.request(
            "create_table", name="away", options={"players": 2}, timing={"grace": 1}
        )
        table = made.table.id
        p0 = await WsClient.open(b.port, "p0", (1, 4))
        p1 = await WsClient.open(c.port, "p1", (1, 4))
        _, token = await join(p0, table, "p0")
        await join(p1, table, "p1")
        spectator = await WsClient.open(c.port, "watcher", (1, 4))
        assert (await spectator.request("watch", table=table)).type == "watching"
        for p in (p0, p1):
            await p.send("ready")
        await spectator.wait_type("view")
        rng = random.Random(42)
        for _ in range(4):
            now = spectator.latest_view()
            mover = (p0, p1)[now.view.to_move]
            await mover.wait_until(lambda m=mover, v=now: m.shows(v.state_version))
            fields = {
                **random_take(mover.latest_view().view, rng),
                "state_version": now.state_version,
            }
            assert (await mover.request("take", **fields)).type == "ack"
            await spectator.wait_until(
                lambda v=now: spectator.latest_view().state_version > v.state_version
            )
        seen = p0.latest_view().state_version
        await p0.close()

        def computer_moves() -> int:
            return sum(s["by_computer"] for s in live_steps(spectator).values())

        while computer_moves() < 2 and not spectator.latest_view().view.game_over:
            now = spectator.latest_view()
            if now.view.to_move == 1:
                await p1.wait_until(lambda v=now: p1.shows(v.state_version))
                fields = {
                    **random_take(p1.latest_view().view, rng),
                    "state_version": now.state_version,
                }
                assert (await p1.request("take", **fields)).type == "ack"
            await spectator.wait_until(
                lambda v=now: spectator.latest_view().state_version > v.state_version, timeout=30
            )
        back = await WsClient.open(c.port, "p0 again", (1, 4))
        assert (await back.request("resume", token=token)).type == "resumed"
        raw, steps = await missed(back, seen)
        await spectator.wait_until(
            lambda: spectator.latest_view().state_version >= raw["state_version"]
        )
        live = live_steps(spectator)
        assert list(steps) == list(range(seen + 1, raw["state_version"] + 1))
        assert steps == {v: live[v] for v in steps}
        assert sum(s["by_computer"] for s in steps.values()) >= 2
