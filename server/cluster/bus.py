"""The bus between nodes: Redis pub/sub, one channel per node and one for all.

Every message a node sends goes through one publisher task, in the order made, so
frames and answers reach each node in order (the ack of a take after its events and
view, as on one node); all that one turn of the event loop sends leaves in one
pipeline. A node's channel has a connection of its own that never reconnects behind
its back: pub/sub keeps nothing, so each loss is seen (``lost`` is called at once,
``resubscribed`` once the channel is back; ``up`` says which) and what it may have cost
is made good by the node.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as aioredis
from redis.exceptions import RedisError

__all__ = ["Bus"]

log = logging.getLogger("kupferkessel.cluster")

Message = dict[str, Any]


class Bus:
    """``node``'s messages to the others and theirs to it (``receive(src, msgs)``)."""

    def __init__(
        self,
        node: str,
        redis: aioredis.Redis,
        channel: aioredis.Redis,
        lease: float,
        receive: Callable[[str, list[Message]], None],
        resubscribed: Callable[[], None],
        lost: Callable[[], None] = lambda: None,
    ) -> None:
        self.node = node
        self.redis = redis
        self._channel = channel
        self.lease = lease
        self._receive = receive
        self._resubscribed = resubscribed
        self._lost = lost
        self.up = True  # our channel is subscribed (False from its loss until it is back)
        self._outbox: dict[str, list[Message]] = {}
        self._flush_queued = False
        self._publish: asyncio.Queue[dict[str, list[Message]] | None] = asyncio.Queue()
        self.stopping = False
        # told which nodes (``"*"``: every node) a dropped batch was for (``Forwarding``)
        self.dropped: Callable[[list[str]], None] = lambda nodes: None

    async def start(self) -> list[asyncio.Task[None]]:
        """Subscribe; returns the listening and the publishing task."""
        pubsub = self._channel.pubsub()
        await pubsub.subscribe(f"kk:to:{self.node}", "kk:all")
        return [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._publisher()),
        ]

    def send(self, node: str, msg: Message) -> None:
        """Queue a message for a node; all of this loop turn's leave together, in order."""
        self._outbox.setdefault(node, []).append(msg)
        if not self._flush_queued:
            self._flush_queued = True
            asyncio.get_running_loop().call_soon(self._flush)

    def send_all(self, msg: Message) -> None:
        self.send("*", msg)

    def _flush(self) -> None:
        self._flush_queued = False
        out, self._outbox = self._outbox, {}
        mine = out.pop(self.node, None)
        if out:
            self._publish.put_nowait(out)
        if mine:
            self._receive(self.node, mine)

    async def drain(self) -> None:
        """Wait (up to 5 s) until everything sent so far is published."""
        self._flush()
        done = asyncio.get_running_loop().create_future()
        self._publish.put_nowait({"": [{"k": "_done", "fut": done}]})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done, 5)

    def close(self) -> None:
        """Publish nothing more (the publisher ends)."""
        self.stopping = True
        self._publish.put_nowait(None)

    async def _publisher(self) -> None:
        """The one task that publishes: messages reach each node in the order made."""
        while True:
            batch = await self._publish.get()
            if batch is None:
                return
            marker = batch.pop("", None)
            if batch:
                await self._publish_batch(batch)
            if marker:
                fut = marker[0]["fut"]
                if not fut.done():
                    fut.set_result(None)

    async def _publish_batch(self, batch: dict[str, list[Message]]) -> None:
        """Publish, trying again while Redis is away (restarting) for up to a lease:
        what a node sends must not be lost in between; after that it is dropped, and
        ``dropped`` is told for which nodes (the sessions concerned attach again: the
        channels may all have stayed up, with nobody else to notice the loss)."""
        deadline = time.monotonic() + self.lease
        while True:
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for node, msgs in batch.items():
                        channel = "kk:all" if node == "*" else f"kk:to:{node}"
                        pipe.publish(channel, msgpack.packb([self.node, msgs]))
                    await pipe.execute()
                return
            except (RedisError, OSError) as e:
                if time.monotonic() > deadline or self.stopping:
                    log.warning("publish failed", extra={"error": repr(e), "nodes": len(batch)})
                    if not self.stopping:
                        self.dropped(list(batch))
                    return
                await asyncio.sleep(0.05)

    async def _listen(self, pubsub: Any) -> None:
        """Read our channel. After a lost connection (Redis restarted) subscribe again,
        then tell the node (``resubscribed``): what was sent to it meanwhile is lost."""
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    src, msgs = msgpack.unpackb(message["data"], raw=False)
                    if src != self.node:
                        self._receive(src, msgs)
            except (RedisError, OSError) as e:
                log.warning("cluster channel lost", extra={"error": repr(e)})
                self.up = False
                self._lost()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                while True:
                    await asyncio.sleep(0.2)
                    try:
                        pubsub = self._channel.pubsub()
                        await pubsub.subscribe(f"kk:to:{self.node}", "kk:all")
                        break
                    except (RedisError, OSError):
                        continue
                log.info("cluster channel back")
                self.up = True
                self._resubscribed()
