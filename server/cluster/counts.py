"""The limits and quotas of a cluster, counted in Redis (``server.lobby.quotas`` decides).

Theory of operation.

- **Tables.** Each unfinished table is a member (its id) of the sorted set
  ``kk:quota:tables``, and of ``kk:quota:PEER:KIND`` for each kind it counts as against
  the address that made it (``limits.counts_as``: ``lobby``, ``unattended``, ``bots``).
  A member's score is when it expires (Redis' own clock, milliseconds), three leases on:
  the node serving the table renews it once a lease and sends each change as it happens (a game
  starts or ends, the last person leaves); every read first drops the expired members.
  So a table is counted once whichever node serves it: the node that adopts a table, or
  takes it over on a SIGTERM handover, renews the same member; a dead node's members
  expire unless another node adopts their tables, and after a Redis restart every node
  puts its tables back at its next renewal (the store is the truth: a table counts for
  the address stored with it).
- **A new table** is checked and reserved by one script (``_RESERVE``): it counts the
  live members of the sets the new table is checked against and adds it to them only if
  every count is under its limit. Redis runs a script atomically, so two nodes making
  the last table allowed at the same instant cannot both succeed.
- **Connections.** Each node's count of connections is a field of the hash
  ``kk:conns`` and the node a member of ``kk:conns:live`` scored by its expiry (one
  lease): a dead node's connections stop counting after a lease (its clients reconnect
  elsewhere). ``_CONNECT`` admits up to the cluster's cap and sets the node's count in
  one step.
- **Order.** Everything a node writes here goes through one task in order (``_writer``):
  what it sends reflects its tables at the moment of sending, never overtaken by an
  older message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from ..aio import stop_tasks
from ..core.errors import CLUSTER_UNAVAILABLE, unavailable
from ..core.table import FINISHED, Table, TableError
from ..figures import Tally
from ..lobby.quotas import KINDS, NO_QUOTAS, REFUSALS, Held, Served, counts_as, limits_of, refuse

__all__ = ["TABLES", "ClusterCounts", "peer_key"]

log = logging.getLogger("kupferkessel.cluster")

TABLES = "kk:quota:tables"
CONNS = "kk:conns"
CONNS_LIVE = "kk:conns:live"
STOP_WITHIN = 5.0  # seconds the writer may take to end at a stop (a write in progress)

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

_RESERVE = (
    _NOW
    + """
-- KEYS: the sorted sets a new table is checked against; ARGV: the table id, the
-- members' lifetime (ms), then per key its limit (-1: none) and whether the new
-- table joins it (1/0). Returns the live count of each key, then 1 if reserved.
local ttl = tonumber(ARGV[2])
local counts = {}
local ok = 1
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  counts[i] = redis.call('ZCARD', key)
  local limit = tonumber(ARGV[1 + 2 * i])
  if limit >= 0 and counts[i] >= limit then ok = 0 end
end
if ok == 1 then
  for i, key in ipairs(KEYS) do
    if ARGV[2 + 2 * i] == '1' then
      redis.call('ZADD', key, now + ttl, ARGV[1])
      redis.call('PEXPIRE', key, ttl)
    end
  end
end
counts[#KEYS + 1] = ok
return counts
"""
)

_APPLY = (
    _NOW
    + """
-- ARGV[1]: the lifetime (ms) of what is added; then for each of KEYS in turn: how many
-- members it gets (added, or renewed), how many it loses, then those members.
local ttl = tonumber(ARGV[1])
local at = 2
for _, key in ipairs(KEYS) do
  local adds, removes = tonumber(ARGV[at]), tonumber(ARGV[at + 1])
  at = at + 2
  for first = at, at + adds - 1, 500 do  -- 500 at a time (Lua's stack)
    local zargs = {}
    for j = first, math.min(first + 499, at + adds - 1) do
      zargs[#zargs + 1] = now + ttl
      zargs[#zargs + 1] = ARGV[j]
    end
    redis.call('ZADD', key, unpack(zargs))
  end
  if adds > 0 then redis.call('PEXPIRE', key, ttl) end
  at = at + adds
  for first = at, at + removes - 1, 500 do
    redis.call('ZREM', key, unpack(ARGV, first, math.min(first + 499, at + removes - 1)))
  end
  at = at + removes
end
return #KEYS
"""
)

_CONNECT = (
    _NOW
    + """
-- KEYS: the hash node -> connections, the sorted set node -> expiry. ARGV: this node,
-- its connections, how many more want in, the cluster's cap, the lifetime (ms).
-- Admits as many as fit under the cap, sets the node's count; returns how many.
local node, held, want = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local cap, ttl = tonumber(ARGV[4]), tonumber(ARGV[5])
for _, dead in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
  redis.call('HDEL', KEYS[1], dead)
  redis.call('ZREM', KEYS[2], dead)
end
local others = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if all[i] ~= node then others = others + tonumber(all[i + 1]) end
end
local n = math.max(0, math.min(want, cap - others - held))
redis.call('HSET', KEYS[1], node, held + n)
redis.call('ZADD', KEYS[2], now + ttl, node)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return n
"""
)


_Reserve = tuple[list[str], list[Any], "asyncio.Future[list[int]]", str, frozenset[str]]
"""A reservation waiting: the script's keys and arguments, the future of its answer,
the table's id and the sets it joins if reserved."""


def peer_key(peer: str, kind: str) -> str:
    return f"kk:quota:{peer}:{kind}"


def _keys(table: Table) -> frozenset[str]:
    """The sets a table is a member of (none once it finished)."""
    if table.state == FINISHED:
        return frozenset()
    keys = {TABLES}
    if table.made_by is not None:
        keys.update(peer_key(table.made_by, kind) for kind in counts_as(table))
    return frozenset(keys)


class ClusterCounts:
    """What the whole cluster holds, for ``Lobby.limits`` on a node (``LocalCounts``'
    interface)."""

    def __init__(
        self, node: str, redis: aioredis.Redis, lease: float, max_connections: int
    ) -> None:
        self.node = node
        self.redis = redis
        self.served: Served | None = None  # the node's tables, from ``start``
        self.max_connections = max_connections
        self.table_ttl = int(lease * 3000)
        self.conn_ttl = int(lease * 1000)
        self._reserve = self.redis.register_script(_RESERVE)
        self._apply = self.redis.register_script(_APPLY)
        self._connect = self.redis.register_script(_CONNECT)
        self._pushed: dict[str, frozenset[str]] = {}  # table id -> its sets, as last sent
        self._dirty: dict[str, Table | None] = {}  # changed tables (None: cancelled)
        self._reserves: list[_Reserve] = []
        self._admits: list[asyncio.Future[bool]] = []
        self._renew = True  # every table and the connections, at the next round
        self.held = 0  # connections admitted here and not yet gone
        self.refused = Tally(REFUSALS)  # new tables refused here, by limit
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self, served: Served) -> None:
        """Count ``served`` (the node's lobby) from now on."""
        self.served = served
        self._task = asyncio.create_task(self._writer())

    def _served(self) -> Served:
        assert self.served is not None, "started"
        return self.served

    async def stop(self) -> None:
        """Stop writing; this node's connections stop counting at once."""
        if self._task is not None:
            await stop_tasks([self._task], STOP_WITHIN)
        node = self.node
        with contextlib.suppress(RedisError, OSError):
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.hdel(CONNS, node)
                pipe.zrem(CONNS_LIVE, node)
                await pipe.execute()

    # ------------------------------------------------------------- the interface
    async def reserve(self, table_id: str, peer: str | None, bots_only: bool) -> None:
        """Check a new table against the cluster's table limit and ``peer``'s quotas and
        reserve it, atomically; ``server_full`` (the same message as on one server)."""
        lobby = self._served()
        quotas = lobby.quotas if peer is not None else NO_QUOTAS
        keys = [TABLES]
        if peer is not None and quotas != NO_QUOTAS:
            keys += [peer_key(peer, kind) for kind in KINDS]
        limits = limits_of(lobby.max_tables, quotas, bots_only)[: len(keys)]
        joins = [True, True, False, bots_only][: len(keys)]  # a new table is in the lobby
        args: list[Any] = [table_id, self.table_ttl]
        for limit, join in zip(limits, joins, strict=True):
            args += [-1 if limit is None else limit, int(join)]
        done: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
        joined = frozenset(k for k, j in zip(keys, joins, strict=True) if j)
        self._reserves.append((keys, args, done, table_id, joined))
        self._wake.set()
        got = await done
        counts, ok = got[:-1], got[-1]
        if ok:
            return
        held = Held(*(counts + [0] * (4 - len(counts))))
        refuse(held, lobby.max_tables, quotas, bots_only, self.refused)

    def cancel(self, table_id: str) -> None:
        self._dirty[table_id] = None
        self._wake.set()

    def added(self, table: Table) -> None:
        self.changed(table)

    def changed(self, table: Table) -> None:
        self._dirty[table.id] = table
        self._wake.set()

    async def admit(self) -> bool:
        """Whether the cluster's connections are under ``max_connections`` (one more is
        counted if so). While Redis cannot be reached, the node's own cap only."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._admits.append(done)
        self._wake.set()
        return await done

    def left(self) -> None:
        self.held -= 1
        self._wake.set()

    def renew(self) -> None:
        """Called every third of a lease: renew the node's connections, and every third
        time (once a lease, three times a table's lifetime) every table's members; also
        what rebuilds them after a Redis restart."""
        self._renew = self._renew or self._rounds % 3 == 0
        self._rounds += 1
        self._conns_sent = -1
        self._wake.set()

    _rounds = 0

    def written(self) -> bool:
        """Whether Redis holds what this node's tables count as now (nothing waits to be
        written): a change made here counts at every node from then on."""
        tables = self._served().tables.values()
        return (
            not (self._wake.is_set() or self._busy)
            and all(self._pushed.get(t.id, frozenset()) == _keys(t) for t in tables)
            and self._conns_sent == self.held
        )

    # ------------------------------------------------------------- the writer
    _busy = False  # a round is being written

    async def _writer(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            self._busy = True
            try:
                await self._round()
            except Exception:
                log.exception("counting for the cluster's limits failed")
            finally:
                self._busy = False

    def _changes(self) -> tuple[list[str], list[Any], dict[str, frozenset[str]]]:
        """The set operations that bring Redis to what this node's tables count as now
        (``_APPLY``'s keys and arguments): the changed ones, or on a renewal all
        (members renewed)."""
        tables = self._served().tables
        dirty, self._dirty = self._dirty, {}
        renew, self._renew = self._renew, False
        if renew:
            for tid in [t for t in self._pushed if t not in tables and t not in dirty]:
                del self._pushed[tid]  # served elsewhere now, or gone: nothing to renew
            dirty.update(tables)
        adds: dict[str, list[str]] = {}
        removes: dict[str, list[str]] = {}
        sent: dict[str, frozenset[str]] = {}
        for tid, table in dirty.items():
            if table is not None and tables.get(tid) is not table and table.state != FINISHED:
                # served by another node now (handed over, lost): it renews the members
                self._pushed.pop(tid, None)
                continue
            now = _keys(table) if table is not None else frozenset()
            before = self._pushed.get(tid, frozenset())
            for key in now if renew else now - before:
                adds.setdefault(key, []).append(tid)
            for key in before - now:
                removes.setdefault(key, []).append(tid)
            sent[tid] = now
        keys = sorted(adds.keys() | removes.keys())
        args: list[Any] = []
        for key in keys:
            added, gone = adds.get(key, []), removes.get(key, [])
            args += [len(added), len(gone), *added, *gone]
        return keys, args, sent

    async def _round(self) -> None:
        keys, ops, sent = self._changes()
        reserves, self._reserves = self._reserves, []
        admits, self._admits = self._admits, []
        connect = bool(admits) or self._conns_sent != self.held
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                if keys:
                    await self._apply(keys=keys, args=[self.table_ttl, *ops], client=pipe)
                for rkeys, rargs, *_ in reserves:
                    await self._reserve(keys=rkeys, args=rargs, client=pipe)
                if connect:
                    args: list[Any] = [self.node, self.held, len(admits)]
                    args += [self.max_connections, self.conn_ttl]
                    await self._connect(keys=[CONNS, CONNS_LIVE], args=args, client=pipe)
                results = await pipe.execute(raise_on_error=False)
        except (RedisError, OSError) as e:
            for tid, now in sent.items():  # not known whether it arrived: remove later
                self._pushed[tid] = now | self._pushed.get(tid, frozenset())
            for _, _, done, *_ in reserves:
                if not done.done():
                    done.set_exception(unavailable(CLUSTER_UNAVAILABLE))
            log.warning("cluster counts not written", extra={"error": repr(e)})
            self._admitted(admits, len(admits))  # fail open: the node's own cap holds
            self._conns_sent = self.held  # sent again at the next renewal (not at once)
            return
        for tid, now in sent.items():
            if now:
                self._pushed[tid] = now
            else:
                self._pushed.pop(tid, None)
        if keys:
            results = results[1:]
        for (_, _, done, tid, joined), got in zip(reserves, results, strict=False):
            if isinstance(got, Exception):
                log.warning("a table's reservation failed", extra={"error": repr(got)})
                if not done.done():
                    done.set_exception(TableError("internal", "the cluster's counts failed"))
                continue
            got = [int(x) for x in got]
            if got[-1]:  # reserved
                self._pushed[tid] = joined
                if done.done():  # its request went away meanwhile: not made after all
                    self.cancel(tid)
            if not done.done():
                done.set_result(got)
        if connect:
            got = results[-1]
            if isinstance(got, Exception):
                log.warning("cluster connections not counted", extra={"error": repr(got)})
                self._admitted(admits, len(admits))  # fail open, as above
                self._conns_sent = self.held  # sent again at the next renewal
            else:
                self._conns_sent = self.held + int(got)
                self._admitted(admits, int(got))
        if self._dirty or self._reserves or self._admits or self._conns_sent != self.held:
            self._wake.set()

    _conns_sent = -1  # the count last sent for this node (-1: none yet)

    def _admitted(self, admits: list[asyncio.Future[bool]], n: int) -> None:
        """The first ``n`` connections waiting are admitted, the others refused."""
        for i, fut in enumerate(admits):
            if i >= n:
                if not fut.done():
                    fut.set_result(False)
            elif fut.done():  # its connection went away meanwhile: not counted
                pass
            else:
                self.held += 1
                fut.set_result(True)
