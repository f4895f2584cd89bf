"""What nodes publish for each other: their health counts and their public tables.

Each node keeps its public tables' summaries in Redis (``kk:listed:NODE``, with the
listing's version) and every round writes only those that changed (``changed``),
sending the same change to every node in one transaction (``listed``); the others keep
every node's listing in memory, read it whole only when they do not follow it yet
(they joined, missed a version, lost their channel), and a node writes its own whole
only when Redis lost it. Its health counts (``/healthz``) go to ``kk:health:NODE``; the
sums over the living nodes are ``totals``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as aioredis

from protocol import messages as m
from protocol.convert import options_to_shared, timing_to_shared

from ..core.handle import PublicSeat, TableFacts, next_serial
from ..core.table import LOBBY, Table
from ..net.summaries import table_summary
from .messages import Listed, encode
from .wire import text

__all__ = ["Listings"]

_DELTA_MAX = 200
"""Changed tables a ``listed`` message carries at most; beyond, the readers read the
whole listing again (a burst, such as a node adopting many tables)."""


class Listings:
    """This node's health counts and public tables as published, and the other nodes'."""

    def __init__(self, node: str, redis: aioredis.Redis, lease: float) -> None:
        self.node = node
        self.redis = redis
        self.lease = lease
        # our public tables as published (table id -> summary), the ids seen last
        # round, the tables changed since (``changed``), our listing's version in Redis
        # and whether to write it whole (the first time, after Redis lost it)
        self._summaries: dict[str, bytes] = {}
        self._known: set[str] = set()
        self._dirty: set[str] = set()
        self.version = 0
        self._whole = True
        self.others: dict[str, _Listing] = {}  # other nodes' public tables
        self.totals: dict[str, Any] = {"nodes": 1}  # the living nodes' health, summed

    def changed(self, table_id: str) -> None:
        """What the lobby shows of one of our tables may have changed."""
        self._dirty.add(table_id)

    async def publish(self, tables: Mapping[str, Table], health: dict[str, Any]) -> None:
        """Our health, and our public tables as far as they changed since the last round
        (the ``kk:listed:NODE`` hash and a ``listed`` message to every node, in one
        transaction); then the other nodes' health, and the listings of the nodes we do
        not follow yet in full (a node joined, a gap, Redis restarted)."""
        ttl = int(self.lease * 3000)
        key = f"kk:listed:{self.node}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd("kk:nodes", self.node)
            pipe.set(f"kk:health:{self.node}", json.dumps(health), px=ttl)
            pipe.pexpire(key, ttl)
            pipe.hget(key, "~v")
            pipe.smembers("kk:nodes")
            results = await pipe.execute()
        if results[-2] is None:  # not written yet, or lost (Redis restarted)
            self._whole = True
        delta = self._delta(tables)
        if delta is not None:
            await self._write_listing(key, ttl, delta)
        nodes = sorted(n.decode() for n in results[-1])
        healths = await self.redis.mget([f"kk:health:{n}" for n in nodes]) if nodes else []
        gone = [n for n, h in zip(nodes, healths, strict=True) if h is None]
        if gone:
            await self.redis.srem("kk:nodes", *gone)
        totals: dict[str, Any] = {"nodes": len(nodes) - len(gone)}
        for h in healths:
            if h is None:
                continue
            for k, v in json.loads(h).items():
                if isinstance(v, int | float) and k != "uptime":
                    totals[k] = totals.get(k, 0) + v
        self.totals = totals
        alive = {n for n, h in zip(nodes, healths, strict=True) if h is not None}
        alive.discard(self.node)
        for node in set(self.others) - alive:
            del self.others[node]
        stale = [n for n in sorted(alive) if self.others.setdefault(n, _Listing()).v is None]
        if stale:
            async with self.redis.pipeline(transaction=False) as pipe:
                for node in stale:
                    pipe.hgetall(f"kk:listed:{node}")
                got = await pipe.execute()
            for node, entries in zip(stale, got, strict=True):
                self.others[node].load(entries)

    def _delta(self, tables: Mapping[str, Table]) -> tuple[dict[str, bytes], list[str]] | None:
        """What changed in our public tables since the last round: (summaries to set,
        ids to delete); everything when the listing is to be written in full; None if
        nothing changed."""
        ids = tables.keys()
        if self._whole:
            self._summaries, self._known, self._dirty = {}, set(), set()
        new = ids - self._known
        gone = self._known - ids
        self._known.difference_update(gone)
        self._known.update(new)
        check, self._dirty = (self._dirty & ids) | new, set()
        changed: dict[str, bytes] = {}
        for tid in check:
            table = tables[tid]
            if not table.private:
                raw = table_summary(table).model_dump_json().encode()
                if self._summaries.get(tid) != raw:
                    changed[tid] = self._summaries[tid] = raw
        removed = [tid for tid in gone if self._summaries.pop(tid, None) is not None]
        if changed or removed or self._whole:
            return changed, removed
        return None

    async def _write_listing(
        self, key: str, ttl: int, delta: tuple[dict[str, bytes], list[str]]
    ) -> None:
        """Apply ``delta`` to our listing in Redis and tell every node, atomically; in
        full (every summary, readers read the hash again) at the first round, after
        Redis lost it, or when too much changed to send it along."""
        changed, removed = delta
        full = self._whole
        version = self.version + 1
        if full or len(changed) + len(removed) > _DELTA_MAX:
            msg = encode(Listed(version, full=True))
        else:
            msg = encode(Listed(version, set=changed, deleted=removed))
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                if full:
                    pipe.delete(key)
                    items = list(self._summaries.items())
                    for at in range(0, len(items), 1000):
                        pipe.hset(key, mapping=dict(items[at : at + 1000]))
                else:
                    if changed:
                        pipe.hset(key, mapping=changed)  # type: ignore[arg-type]
                    if removed:
                        pipe.hdel(key, *removed)
                pipe.hset(key, "~v", version)
                pipe.pexpire(key, ttl)
                pipe.publish("kk:all", msgpack.packb([self.node, [msg]]))
                await pipe.execute()
        except BaseException:  # written or not: whole next time, under a new version
            self.version, self._whole = version, True
            raise
        self.version, self._whole = version, False

    async def members(self) -> list[str]:
        """The other nodes of the cluster now, read from Redis (not the last round's
        word): every node that published and has not stopped, its health fresh or not
        (one too busy to renew it in time is still one of them; one killed stays until
        a round finds its health gone)."""
        nodes = {text(n) for n in await self.redis.smembers("kk:nodes")}
        return sorted(nodes - {self.node})

    def heard(self, src: str, msg: Listed) -> None:
        """Another node's ``listed`` message: apply it to what we know of its tables."""
        self.others.setdefault(src, _Listing()).apply(msg)

    def stale(self) -> None:
        """``listed`` messages may have been lost (our channel was away): read every
        other node's listing whole again."""
        for other in self.others.values():
            other.stale()

    def tables(self) -> list[TableFacts]:
        """The public tables the other nodes serve (as of their last report; a table
        being handed over is listed once)."""
        found = {tid: t for o in self.others.values() for tid, (_, t) in o.tables.items()}
        return list(found.values())


class _Listing:
    """What this node knows of another node's public tables: its listing's version
    ``v`` (None: to be read in full from Redis, at the next round) and the tables, each
    as its summary and a ``ListedTable`` for the lobby; ``listed`` messages that came while
    it is being read wait in ``backlog``."""

    def __init__(self) -> None:
        self.v: int | None = None
        self.tables: dict[str, tuple[bytes, ListedTable]] = {}
        self.backlog: list[Listed] = []

    def stale(self) -> None:
        self.v, self.backlog = None, []

    def apply(self, msg: Listed) -> None:
        if self.v is None:
            if len(self.backlog) < 50:
                self.backlog.append(msg)
        elif msg.version <= self.v:
            return  # already in what was read
        elif msg.version != self.v + 1 or msg.full:
            self.stale()
        else:
            self.v = msg.version
            for tid, raw in msg.set.items():
                self._put(tid, raw)
            for tid in msg.deleted:
                self.tables.pop(tid, None)

    def load(self, entries: dict[bytes, bytes]) -> None:
        """The node's whole listing as read from Redis (then the messages since)."""
        version = entries.pop(b"~v", None)
        if version is None:  # not written yet (it joined, or Redis restarted)
            return
        kept, self.tables = self.tables, {}
        for tid, raw in entries.items():
            tid_s = tid.decode()
            old = kept.get(tid_s)
            if old is not None and old[0] == raw:
                self.tables[tid_s] = old
            else:
                self._put(tid_s, raw, old)
        self.v = int(version)
        backlog, self.backlog = self.backlog, []
        for msg in sorted(backlog, key=lambda x: x.version):
            self.apply(msg)

    def _put(self, tid: str, raw: bytes, old: tuple[bytes, ListedTable] | None = None) -> None:
        old = old or self.tables.get(tid)
        summary = m.TableSummary.model_validate_json(raw)
        # a changed table keeps its place in this node's listing order
        self.tables[tid] = (raw, ListedTable(summary, None if old is None else old[1].serial))


class ListedTable:
    """A public table another node listed, as this node's listing shows it: the facts
    of its summary (``TableFacts``), never a table one can act at (a session that
    enters it gets a ``RemoteTable`` from ``Cluster.locate``)."""

    def __init__(self, summary: m.TableSummary, serial: int | None = None) -> None:
        self.summary = summary
        self.options = options_to_shared(summary.options)
        self.timing = timing_to_shared(summary.timing)
        self.serial = next_serial() if serial is None else serial
        self._seats = [PublicSeat(**info.model_dump()) for info in summary.seats]

    @property
    def id(self) -> str:
        return self.summary.id

    @property
    def name(self) -> str:
        return self.summary.name

    @property
    def private(self) -> bool:
        return self.summary.private

    @property
    def state(self) -> str:
        return self.summary.state

    @property
    def open(self) -> bool:
        return self.state == LOBBY and any(s.name is None for s in self._seats)

    @property
    def seeded(self) -> bool:
        return self.summary.seeded

    @property
    def rated(self) -> bool:
        return self.summary.rated

    @property
    def spectator_count(self) -> int:
        return self.summary.spectators

    def public_seats(self) -> list[PublicSeat]:
        return self._seats


if TYPE_CHECKING:  # mypy proves that a listed table has a table's public facts
    _listed_tables_have_facts: type[TableFacts] = ListedTable
