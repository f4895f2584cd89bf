"""The operator's part of a node (``kupferkessel admin`` on a cluster): its lists of
every node's tables and connections, and the closing of a table another node
serves, both asked of the other nodes over the bus and answered with ``Reply``.

``ClusterOperator`` is what a node's admin endpoint is handed (``ClusterAdmin`` in
``server.ops.admin``); the node routes the other nodes' ``AdminAsk`` to ``asked``
(``CloseTable`` goes to ``Serving.close``, which serves the node's tables).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis

from ..core.errors import TableError
from .bus import Bus
from .listing import Listings
from .messages import AdminAsk, CloseTable, Reply, encode
from .remote import Forwarding
from .wire import lease_key, reachable, text

__all__ = ["ADMIN_LISTS", "ADMIN_WAIT", "ClusterOperator", "Listing"]

Listing = Callable[[str], list[Any]]
"""This node's list for the operator's ``tables`` or ``players`` (``ADMIN_LISTS``)."""

ADMIN_LISTS = ("tables", "players")
ADMIN_WAIT = 5.0
"""Seconds the operator's list waits for each other node's part."""


class ClusterOperator:
    """The operator's requests of the other nodes, and this node's answers to theirs."""

    def __init__(
        self,
        node: str,
        redis: aioredis.Redis,
        bus: Bus,
        forwarding: Forwarding,
        listings: Listings,
        lease: float,
    ) -> None:
        self.node = node
        self.redis = redis
        self.bus = bus
        self.forwarding = forwarding
        self.listings = listings
        self.lease = lease
        self.listing: Listing | None = None  # this node's lists (the node's ``start``)

    def asked(self, src: str, msg: AdminAsk) -> None:
        """Another node's operator lists the cluster: this node's part."""
        if self.listing is None or msg.action not in ADMIN_LISTS:
            error = ("unknown_action", f"no list {msg.action!r} here", None)
            self.bus.send(src, encode(Reply(msg.rid, error=error)))
            return
        self.bus.send(src, encode(Reply(msg.rid, self.listing(msg.action))))

    async def ask_others(self, action: str) -> tuple[dict[str, list[Any]], list[str]]:
        """The operator's ``action`` list (``tables``, ``players``) of every other node
        of the cluster (``Listings.members``), asked at once: each node's list, and the
        nodes that did not answer within ``ADMIN_WAIT`` seconds (lost, or of an older
        version)."""
        async with reachable("admin"):
            others = await self.listings.members()
        replies = await asyncio.gather(
            *(
                self.forwarding.ask(
                    node, lambda rid: AdminAsk(rid, action), timeout=ADMIN_WAIT
                )
                for node in others
            ),
            return_exceptions=True,
        )
        lists: dict[str, list[Any]] = {}
        unanswered = []
        for node, reply in zip(others, replies, strict=True):
            if isinstance(reply, Reply) and reply.error is None and not reply.moved:
                lists[node] = list(reply.result)
            else:  # no answer in time, or a refusal (a node of an older version)
                unanswered.append(node)
        return lists, unanswered

    async def close_elsewhere(
        self, table_id: str, resign: int | None
    ) -> tuple[str, str, list[int]] | None:
        """The operator's ``admin close`` of a table this node does not serve: its owner
        closes it (``Serving.close``). The owner's id, the ending and the winners; None
        if no node serves the table (finished and let go, never made, or its node lost
        and nobody has adopted it yet)."""
        for _ in range(3):  # again after the table moved on the way
            async with reachable("close"):
                owner = await self.redis.get(lease_key(table_id))
            if owner is None:
                return None
            node = text(owner)
            try:
                reply = await self.forwarding.ask(
                    node, lambda rid: CloseTable(rid, table_id, resign)
                )
            except TimeoutError:
                raise TableError("internal", f"node {node} did not answer: try again") from None
            if reply.error is not None:
                raise TableError(*reply.error)
            if not reply.moved:
                ending, winners = reply.result
                return node, ending, list(winners)
            await asyncio.sleep(self.lease / 3)
        raise TableError("internal", f"table {table_id} is moving between nodes: try again")
