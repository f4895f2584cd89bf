"""What one node publishes to another may be lost without any channel going down: Redis
did not take it within a lease (it was slow, or the node was paused meanwhile), and the
node dropped it. The sessions it concerned must not wait for ever for what it carried.
And what a node publishes may come late: a node paused past its lease publishes, when it
wakes, what it made before for tables another node serves by then; their sessions must
not be shown that past."""

from __future__ import annotations

import random

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as aioredis

from bench.services import Redis
from protocol import messages as m
from protocol.wire import encode_as
from server.app import Server
from server.cluster.messages import FrameFor, encode

from ..helpers.cluster import KEEP_LEASE, LEASE, cluster
from .wsclient import WsClient, create, join, random_take


async def two_seats(a: Server, b: Server) -> tuple[str, WsClient, WsClient]:
    """A table of two at node b, which owns it: seat 0 at b, seat 1 at a (a remote
    session), both ready. Returns the table, seat 0's client and seat 1's."""
    host = await WsClient.open(b.port, "p0")
    table, _, _ = await create(host, options={"players": 2})
    guest = await WsClient.open(a.port, "p1")
    await join(guest, table, "p1")
    for c in (host, guest):
        await c.send("ready")
    return table, host, guest


async def test_an_update_lost_on_its_way_to_another_node_is_made_good(
    pg_url: str, own_redis: Redis
) -> None:
    """A take at node b, whose update to a seat at node a cannot be published for
    longer than a lease (Redis takes no writes: ``CLIENT PAUSE ... WRITE``, which also
    stops the leases' expiry, so nobody's table moves). Before, the seat at a never
    heard of the take and waited for a view that never came; now b tells a that what it
    sent was lost and a attaches its sessions at b's tables again: a fresh view."""
    async with cluster(pg_url, own_redis.url, n=2) as (a, b):
        _, host, guest = await two_seats(a, b)
        first = await host.wait_type("view")
        await guest.wait_type("view")
        seats = [host, guest]
        while first.view.to_move != 0:  # let seat 1 move until seat 0 (at b) is to move
            mover = seats[first.view.to_move]
            fields = random_take(first.view, random.Random(first.state_version))
            seen = len(host.msgs)
            fields["state_version"] = first.state_version
            acked = await mover.request("take", **fields)
            assert acked.type == "ack", acked
            first = await host.wait_for(lambda x: x.type == "view", start=seen)
        version = first.state_version
        r = aioredis.Redis.from_url(own_redis.url)
        try:
            await r.execute_command("CLIENT", "PAUSE", int(4 * LEASE * 1000), "WRITE")
            fields = random_take(first.view, random.Random(5))
            fields["state_version"] = version
            acked = await host.request("take", **fields)
            assert acked.type == "ack", acked  # stored in PostgreSQL: no Redis needed
            # the update to the seat at a waits in vain for Redis, longer than a lease
            news = await guest.wait_for(
                lambda x: x.type == "view" and x.state_version == version + 1,
                timeout=12 * LEASE,
            )
        finally:
            await r.execute_command("CLIENT", "UNPAUSE")
            await r.aclose()
        # the state after the take, as its owner shows it (whoever moves next: seat 0
        # again when seat 1 stops beside a corner, or after a wand)
        mine = await host.wait_for(lambda x: x.type == "view" and x.state_version == version + 1)
        assert (news.view.to_move, news.view.grid) == (mine.view.to_move, mine.view.grid)
        for c in (host, guest):
            await c.close()


async def test_a_frame_from_a_node_that_does_not_own_the_table_is_not_shown(
    pg_url: str, redis_url: str
) -> None:
    """A seat at node a of a table node b owns gets a view the table moved past from a
    node that does not own the table (a former owner woken after its lease: its frames
    come after the new owner's fresh view). Before, a showed it: the seat's last view
    was a state long gone, in which it may be told it is to move, and it waited for
    news that never came (the failover soak's silent seat). Now a drops it; b's frames
    still come through."""
    async with cluster(pg_url, redis_url, n=2, lease=KEEP_LEASE) as (a, b):
        table, host, guest = await two_seats(a, b)
        first = await guest.wait_type("view")
        old = guest.raw[guest.msgs.index(first)]
        assert isinstance(old, bytes)
        fields = random_take(first.view, random.Random(3))
        fields["state_version"] = first.state_version
        mover = (host, guest)[first.view.to_move]
        assert (await mover.request("take", **fields)).type == "ack"
        await guest.wait_until(lambda: guest.shows(first.state_version + 1))
        assert a.cluster is not None and b.cluster is not None
        (handle,) = [h for h, p in a.cluster.forwarding.proxies.items() if p.id == table]
        seen = len(guest.msgs)
        after = encode_as(m.ChatLineMsg, m.ChatLineMsg(seat=0, name="p0", text="after"), seq=0)
        r = aioredis.Redis.from_url(redis_url)
        try:
            for src, frame in (("a-former-owner", old), (b.cluster.node, after)):
                sent = msgpack.packb([src, [encode(FrameFor(handle, frame))]])
                await r.publish(f"kk:to:{a.cluster.node}", sent)
        finally:
            await r.aclose()
        # the owner's frame, published after the other, is there: the other was handled
        await guest.wait_for(lambda x: x.type == "chat", start=seen)
        assert [x.type for x in guest.msgs[seen:]] == ["chat"]
        assert guest.shows(first.state_version + 1)
        for c in (host, guest):
            await c.close()
