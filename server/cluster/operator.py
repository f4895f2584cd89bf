"""The operator's part of a node (``kupferkessel admin`` on a cluster): its lists of
every node's tables and connections, and the closing of a table another node
serves, both asked of the other nodes over the bus and answered with ``Reply``.

``ClusterOperator`` is what a node's admin endpoint is handed (``ClusterAdmin`` in
``server.ops.admin``); the node routes the other nodes' ``AdminAsk`` to ``asked``
(``CloseTable`` goes to ``Serving.close``, which serves the node's tables). A sanction
made or lifted at one node is announced to the others at once (``enforce_elsewhere``),
so a ban closes its connections at every node within the bus's delay, and the operator
reads how many each node closed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis

from ..core.errors import TableError
from .bus import Bus
from .listing import Listings
from .messages import AdminAsk, CloseTable, Reply, encode
from .remote import Forwarding
from .wire import lease_key, reachable, text

__all__ = ["ADMIN_LISTS", "ADMIN_WAIT", "ClusterOperator", "Enforcing", "Listing"]

Listing = Callable[[str], list[Any]]
"""This node's list for the operator's ``tables`` or ``players`` (``ADMIN_LISTS``)."""
Enforcing = Callable[[str], Awaitable[int]]
"""This node reads the sanctions again and enforces sanction ``id``: the connections
it closed (the server's ``enforce_here``)."""

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
        self.enforcing: Enforcing | None = None  # this node's sanctions (the server's)
        self._tasks: set[asyncio.Task[None]] = set()

    def asked(self, src: str, msg: AdminAsk) -> None:
        """Another node's operator lists the cluster, or made a sanction: this node's part."""
        if msg.action == "enforce" and self.enforcing is not None and msg.sanction:
            task = asyncio.create_task(self._enforce(src, msg.rid, self.enforcing, msg.sanction))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        if self.listing is None or msg.action not in ADMIN_LISTS:
            error = ("unknown_action", f"no list {msg.action!r} here", None)
            self.bus.send(src, encode(Reply(msg.rid, error=error)))
            return
        self.bus.send(src, encode(Reply(msg.rid, self.listing(msg.action))))

    async def _enforce(self, src: str, rid: int, enforcing: Enforcing, sanction: str) -> None:
        try:
            closed = await enforcing(sanction)
        except Exception as e:  # the store could not be read: the asker says so
            self.bus.send(src, encode(Reply(rid, error=("internal", str(e)[:200], None))))
            return
        self.bus.send(src, encode(Reply(rid, closed)))

    async def ask_others(self, action: str) -> tuple[dict[str, list[Any]], list[str]]:
        """The operator's ``action`` list (``tables``, ``players``) of every other node
        of the cluster (``Listings.members``), asked at once: each node's list, and the
        nodes that did not answer within ``ADMIN_WAIT`` seconds (lost, or of an older
        version)."""
        answers, unanswered = await self._ask_all(lambda rid: AdminAsk(rid, action))
        return {node: list(result) for node, result in answers.items()}, unanswered

    async def enforce_elsewhere(self, sanction_id: str) -> tuple[dict[str, int], list[str]]:
        """Every other node takes sanction ``sanction_id`` (made or lifted here) at once:
        the connections each closed, and the nodes that did not answer (they read it at
        their next sweep)."""
        answers, unanswered = await self._ask_all(lambda rid: AdminAsk(rid, "enforce", sanction_id))
        return {node: int(result) for node, result in answers.items()}, unanswered

    async def _ask_all(
        self, request: Callable[[int], AdminAsk]
    ) -> tuple[dict[str, Any], list[str]]:
        """``request`` of every other node at once: each node's result, and the nodes
        that did not answer within ``ADMIN_WAIT`` seconds (or refused)."""
        async with reachable("admin"):
            others = await self.listings.members()
        replies = await asyncio.gather(
            *(self.forwarding.ask(node, request, timeout=ADMIN_WAIT) for node in others),
            return_exceptions=True,
        )
        answers: dict[str, Any] = {}
        unanswered = []
        for node, reply in zip(others, replies, strict=True):
            if isinstance(reply, Reply) and reply.error is None and not reply.moved:
                answers[node] = reply.result
            else:  # no answer in time, or a refusal (a node of an older version)
                unanswered.append(node)
        return answers, unanswered

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
                raise TableError(*reply.error, **reply.particulars)
            if not reply.moved:
                ending, winners = reply.result
                return node, ending, list(winners)
            await asyncio.sleep(self.lease / 3)
        raise TableError("internal", f"table {table_id} is moving between nodes: try again")
