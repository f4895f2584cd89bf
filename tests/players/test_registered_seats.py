"""Presence marks registered players' seats (protocol 1.2), on real SQLite and
PostgreSQL and across the nodes of a cluster: "Hanna (registered)" is told from
someone who typed the name Hanna; 1.0 and 1.1 frames never carry the mark."""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]

from tests.helpers.cluster import KEEP_LEASE, cluster
from tests.server.wsclient import WsClient, create

from .helpers import new_secret, signed_in, stored_server


def _marks(presence: Any) -> list[tuple[str | None, bool]]:
    return [(s.name, s.registered) for s in presence.seats]


def _last_presence_frame(c: WsClient) -> dict[str, Any]:
    frames = [msgpack.unpackb(f) for f in c.raw]
    return [f for f in frames if f.get("type") == "presence"][-1]


async def test_presence_marks_registered_seats_across_a_restart(store_url: str) -> None:
    secret = new_secret()
    async with stored_server(store_url) as server:
        hanna = await signed_in(server.port, "Hanna", secret, register=True)
        table, _, _ = await create(hanna, player="whatever", options={"players": 3})
        typed = await WsClient.open(server.port, "t", (1, 2))  # anonymous, the same name
        assert (await typed.request("join", table=table, player="Hanna")).type == "joined"
        old = await WsClient.open(server.port, "o", (1, 1))
        assert (await old.request("join", table=table, player="Otto")).type == "joined"
        want = [("Hanna", True), ("Hanna", False), ("Otto", False)]
        p = await hanna.wait_for(lambda x: x.type == "presence" and x.seats[2].name == "Otto")
        assert _marks(p) == want
        await old.wait_for(lambda x: x.type == "presence" and x.seats[2].name == "Otto")
        frame = _last_presence_frame(old)
        assert all("registered" not in s for s in frame["seats"])  # 1.1 frames as ever
        listed = await typed.request("list_tables")
        assert [(s.name, s.registered) for s in listed.tables[0].seats] == want
        for c in (hanna, typed, old):
            await c.close()
    async with stored_server(store_url) as server:  # the mark is stored with the seat
        watcher = await WsClient.open(server.port, "w", (1, 2))
        assert (await watcher.request("watch", table=table)).type == "watching"
        p = await watcher.wait_type("presence")
        assert _marks(p) == want
        hanna = await signed_in(server.port, "Hanna", secret)
        assert (await hanna.request("rejoin", table=table)).type == "resumed"
        for c in (hanna, watcher):
            await c.close()


async def test_a_seat_given_up_loses_its_mark(store_url: str) -> None:
    async with stored_server(store_url) as server:
        hanna = await signed_in(server.port, "Hanna", new_secret(), register=True)
        anon = await WsClient.open(server.port, "a", (1, 2))
        table, _, _ = await create(anon, player="Anna", options={"players": 2})
        assert (await hanna.request("join", table=table, player="x", seat=1)).type == "joined"
        await anon.wait_for(lambda x: x.type == "presence" and x.seats[1].registered)
        assert (await hanna.request("leave")).type == "left"
        await anon.wait_for(lambda x: x.type == "presence" and x.seats[1].name is None)
        other = await WsClient.open(server.port, "b", (1, 2))
        start = len(anon.msgs)
        assert (await other.request("join", table=table, player="Hanna")).type == "joined"
        p = await anon.wait_for(
            lambda x: x.type == "presence" and x.seats[1].name == "Hanna", start=start
        )
        assert _marks(p) == [("Anna", False), ("Hanna", False)]
        assert server.store.seat_players(table) == {}
        for c in (hanna, anon, other):
            await c.close()


async def test_a_registered_player_at_another_node_is_marked(pg_url: str, redis_url: str) -> None:
    async with cluster(pg_url, redis_url, n=2, lease=KEEP_LEASE) as (a, b):
        anon = await WsClient.open(a.port, "a", (1, 2))
        table, _, _ = await create(anon, player="Anna", options={"players": 2})
        hanna = await signed_in(b.port, "Hanna", new_secret(), register=True)
        assert (await hanna.request("join", table=table, player="x")).type == "joined"
        p = await hanna.wait_for(lambda x: x.type == "presence" and x.seats[1].name == "Hanna")
        assert _marks(p) == [("Anna", False), ("Hanna", True)]
        await anon.wait_for(lambda x: x.type == "presence" and x.seats[1].registered)
        owned = a.lobby.tables[table]
        assert owned.seats[1].player is not None
        assert a.store.seat_players(table) == {1: owned.seats[1].player}
        for c in (anon, hanna):
            await c.close()
