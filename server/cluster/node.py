"""Nodes of a cluster: several servers sharing one PostgreSQL store and one Redis.

Theory of operation (docs/OPERATIONS.md, "A cluster of nodes", says it for operators).

- **Ownership.** Each table is served by one node, its owner: the node holds the
  table's lease, the Redis key ``kk:lease:TABLE`` set to its node id with an expiry
  (``lease`` seconds) that it renews three times per lease while it lives. Before it
  serves a table a node also ``claim``s it in the store (``Store.claim``: the table's
  epoch goes up), and every write of the table carries that epoch: a node that lost its
  lease without knowing (paused, cut off) cannot write into a game another node took
  over, because the store refuses a stale epoch (fencing). PostgreSQL is the truth;
  Redis only says who serves what and carries messages, and is rebuilt from the nodes
  after a restart.
- **Any node for any client.** A session on node A at a table owned by node B holds a
  ``RemoteTable`` (``remote``): a handle whose methods send the intent to B
  (``kk:to:B``, Redis pub/sub: ``bus``) and wait for B's answer. On B a
  ``RemoteOccupant`` (``owner``) stands for the session at the table: what the table
  delivers to it (views, events, presence, chat) is framed on B exactly as a local
  session frames it and published to A, which gives each frame the session's own
  ``seq`` and sends it. Everything one node sends another goes through one publisher
  task, so frames and answers arrive in the order they were made (the ack of a take
  after its events and view, as on one node).
- **Losing a node.** A dead node's leases expire. Every node scans the unfinished tables
  of the store for tables without a lease; one seen without a lease twice in a row is
  adopted by whichever node sets the lease first: it claims the table, restores it by
  replaying its record, and serves it. Sessions on other nodes see the owner change in
  Redis and attach again to the new owner (a fresh view follows); an intent that was in
  flight to the dead node is answered ``stale_state`` (decide again on the fresh view).
  Clients of the dead node reconnect to any node and ``resume``. A game that finished
  as its node died is adopted too (finished) by a node whose sessions are at it.
- **Losing Redis.** Pub/sub keeps nothing: what is published to a node while its
  channel is away is lost. A node that subscribes again attaches its sessions again
  and tells the others (``Reconnected``), which attach theirs at its tables again.
- **The lobby** (``listing``). Each node keeps its public tables' summaries in Redis
  (``kk:listed:NODE``, with the listing's version) and every round writes only those
  that changed (``Lobby.changed``), sending the same change to every node in one
  transaction (``listed``); the others keep every node's listing in memory, read it
  whole only when they do not follow it yet (they joined, missed a version, lost
  their channel), and a node writes its own whole only when Redis lost it.
- **Limits.** ``--max-tables``, ``--max-connections`` and the quotas per address count
  the whole cluster, in Redis (``server.cluster.counts``, ``Cluster.counts``).
- **Leaving.** On SIGTERM a node hands its tables over: it stops serving each (waiting
  for an intent in progress), drops its lease and tells the others, who adopt them at
  once; then it closes its own connections as a single server does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from ..aio import patiently, stop_tasks
from ..bots.seats import BotPlayer
from ..core.handle import TableFacts, TableHandle
from ..core.restore import stored_form
from ..core.table import FINISHED, Table, hash_token
from ..lobby.quotas import Served
from ..net.session import Session
from ..store import Store, StoredTable, StoreUnavailable
from .bus import Bus
from .counts import ClusterCounts
from .listing import Listings
from .messages import (
    AdminAsk,
    CloseTable,
    FrameFor,
    IntentFor,
    Listed,
    Moved,
    Reconnected,
    Refused,
    Released,
    Rematched,
    Replaced,
    Reply,
    decode,
    encode,
)
from .operator import ClusterOperator, Listing
from .owner import RemoteOccupant, Serving
from .remote import Forwarding, RemoteTable
from .wire import lease_key, reachable, text, with_seq

__all__ = ["Cluster", "RemoteOccupant", "RemoteTable", "with_seq"]

log = logging.getLogger("kupferkessel.cluster")


_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('GET', key)
  if v == false or v == ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""
"""Renew our leases (one call for all of them); a lease gone missing (Redis restarted)
is set again; returns the keys another node holds now."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Registry(Served, Protocol):
    """The tables this node serves, as the node needs them (the lobby): handed to the
    node at ``start``, so the node never reaches up to the server."""

    @property
    def finished_ttl(self) -> float: ...

    def now(self) -> float: ...

    async def adopt(self, st: StoredTable) -> Table:
        """Serve a stored table here from now on (restored by replaying its record)."""
        ...

    def release(self, table: Table) -> bool:
        """Stop serving ``table`` here (another node serves it now)."""
        ...


class Cluster:
    """This node's part in the cluster (see the module docstring): the lobby's
    ``Directory`` on a node."""

    def __init__(
        self,
        url: str,
        store: Store,
        *,
        lease: float = 3.0,
        max_connections: int = 5000,
        health: Callable[[], dict[str, Any]] = dict,
    ) -> None:
        self.store = store
        self.health_here = health  # this node's own health counts, published for the others
        self._lobby: Registry | None = None  # from ``start``
        self.url = url
        self.lease = lease
        self.every = lease / 3
        self.node = f"{socket.gethostname()}-{os.getpid()}-{random.getrandbits(24):06x}"
        # a bounded pool whose users wait their turn (bursts of adoptions, intents)
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=32, timeout=lease * 2, socket_timeout=lease
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        # our channel's own connection, which never reconnects behind our back: a
        # message published while it was away is lost, so each loss must be seen
        # (``_listen``) to attach again what it may have cost
        self._channel = aioredis.Redis.from_url(url, retry=Retry(NoBackoff(), 0))
        self._adopting = asyncio.Semaphore(8)  # tables being adopted at once
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self.bus = Bus(
            self.node,
            self.redis,
            self._channel,
            lease,
            self._receive,
            self._reconnected,
            self._cut_off,
        )
        self.forwarding = Forwarding(self.node, self.bus, self.redis, lease)
        self.serving = Serving(self.bus, lambda: self.lobby.tables, lambda: self.stopping)
        self.listings = Listings(self.node, self.redis, lease)
        self.operator = ClusterOperator(
            self.node, self.redis, self.bus, self.forwarding, self.listings, lease
        )
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()  # intents being served, adoptions
        self._unleased: set[str] = set()  # tables seen without a lease in the last scan
        self._orphans: set[str] = set()  # our sessions' tables seen without an owner
        self._unservable: set[str] = set()  # ... and found finished too long ago
        self._queued: set[str] = set()  # tables to adopt, in a task each (``_adopt_soon``)
        self._claiming: set[str] = set()  # tables being adopted (leased, not yet served)
        self.adopted = 0
        self.handed_over = 0
        self.received = 0  # tables other nodes said they handed over (as they said it)
        self.stopping = False
        # what counts against the limits: the whole cluster's tables and connections
        self.counts = ClusterCounts(self.node, self.redis, lease, max_connections)

    @property
    def lobby(self) -> Registry:
        assert self._lobby is not None, "the node is started"
        return self._lobby

    # ------------------------------------------------------------- life
    async def start(self, lobby: Registry, listing: Listing | None = None) -> None:
        """Join the cluster, serving ``lobby``'s tables; ``listing`` answers another
        node's operator (``admin tables``, ``admin players``) for this node."""
        self._lobby = lobby
        self.operator.listing = listing

        async def ping() -> None:
            await self.redis.ping()

        await patiently("Redis", ping, (RedisError, OSError))  # started during an outage
        self.store.fence_writes()  # a write of a table not held here is refused
        self._tasks = [
            *await self.bus.start(),
            asyncio.create_task(self._upkeep()),
            asyncio.create_task(self._renewer()),
        ]
        self.counts.start(lobby)
        log.info("node joined the cluster", extra={"node": self.node})

    @property
    def proxies(self) -> dict[str, RemoteTable]:
        """Our sessions' handles to tables other nodes serve, by session id."""
        return self.forwarding.proxies

    def send(self, node: str, msg: dict[str, Any]) -> None:
        """Send ``node`` a message (through the bus)."""
        self.bus.send(node, msg)

    async def handover(self) -> None:
        """Give every table to the other nodes (SIGTERM): stop serving each one once
        its intent in progress is done, drop its lease, and tell the others."""
        self.stopping = True
        lobby = self.lobby
        released = []
        for table in list(lobby.tables.values()):
            async with table.lock:
                self._drop(table)
            with contextlib.suppress(RedisError):
                await self._release(keys=[lease_key(table.id)], args=[self.node])
            released.append(table.id)
        self.handed_over += len(released)
        if released:
            self.bus.send_all(encode(Released(released)))
            await self.bus.drain()
        log.info("tables handed over", extra={"count": len(released)})

    async def stop(self) -> None:
        self.stopping = True
        await self.bus.drain()
        self.bus.close()
        await stop_tasks([*self._tasks, *self._running], self.lease)
        await self.counts.stop()
        with contextlib.suppress(RedisError):
            await self.redis.srem("kk:nodes", self.node)
            await self.redis.delete(f"kk:health:{self.node}", f"kk:listed:{self.node}")
        await self.disconnect()

    async def disconnect(self) -> None:
        """Close the connections to Redis (what a start that did not end leaves open)."""
        await self.redis.aclose()
        await self._channel.aclose()

    @property
    def _handlers(self) -> dict[type[Any], Callable[[str, Any], None]]:
        """What a node does with each message."""
        f = self.forwarding
        return {
            IntentFor: lambda src, msg: self._spawn(self.serving.serve(src, msg)),
            FrameFor: f.frame,
            Reply: lambda src, msg: f.replied(msg),
            Replaced: lambda src, msg: f.replaced(msg),
            Rematched: f.rematched,
            Moved: lambda src, msg: f.moved(msg.table, None),
            Refused: lambda src, msg: f.refused(msg),
            Listed: self.listings.heard,
            Reconnected: lambda src, msg: f.reconnected(src),
            Released: self._released,
            CloseTable: lambda src, msg: self._spawn(self.serving.close(src, msg)),
            AdminAsk: self.operator.asked,
        }

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    def _receive(self, src: str, msgs: list[dict[str, Any]]) -> None:
        """Messages from node ``src`` (ours too, sent to ourselves)."""
        handlers = self._handlers
        for raw in msgs:
            try:
                msg = decode(raw)
            except (KeyError, TypeError, ValueError, IndexError):
                msg = None
            if msg is None:
                self.serving.unreadable(src, raw)
            else:
                handlers[type(msg)](src, msg)

    def _released(self, src: str, msg: Released) -> None:
        if not self.stopping:
            self.received += len(msg.tables)
            for tid in msg.tables:
                self._adopt_soon(tid)

    def _cut_off(self) -> None:
        """Our channel is lost (Redis cannot be reached): no answer to our sessions'
        intents in flight can come; they are answered at once (``cluster_unavailable``)."""
        self.forwarding.cut_off()

    async def reachable(self) -> bool:
        """Whether Redis answers now and our channel is subscribed (readiness)."""
        if not self.bus.up:
            return False
        try:
            await asyncio.wait_for(self.redis.ping(), self.every)
        except (RedisError, OSError, TimeoutError):
            return False
        return True

    def _reconnected(self) -> None:
        """Our channel is back after a loss: attach every remote session of ours again
        (frames for it may have been lost meanwhile), tell the other nodes we are back
        (``Reconnected``: what they sent us meanwhile was lost too) and read their
        listings."""
        self.forwarding.attach_again(list(self.forwarding.proxies.values()))
        self.bus.send_all(encode(Reconnected()))
        self.listings.stale()

    def entered(self, table: TableHandle, invite: str | None) -> None:
        """A session entered a table another node serves with ``invite`` (kept: it
        attaches again with it when the table moves)."""
        if isinstance(table, RemoteTable):
            table.invite = invite

    async def locate(self, table_id: str, current: TableHandle | None = None) -> TableHandle | None:
        """The table a session asked for: ours, or a ``RemoteTable`` for its owner; a
        table nobody serves is adopted here (a finished one too, if it finished less
        than the lobby's ``finished_ttl`` ago, as a single server restores it)."""
        if current is not None and current.id == table_id:
            return current
        for _ in range(3):
            local = self.lobby.tables.get(table_id)
            if local is not None:
                return local
            async with reachable("locate"):
                owner = await self.redis.get(lease_key(table_id))
            st = await asyncio.to_thread(self.store.load_table, table_id)
            if st is None:
                break
            if owner is not None:  # served (a finished one too, while its owner keeps it)
                return RemoteTable(self.forwarding, st, text(owner))
            if not self._servable(st):
                break
            await self._adopt(table_id, finished=True)
        return None

    async def locate_seat(
        self, token: str, current: TableHandle | None
    ) -> tuple[TableHandle, int] | None:
        since = self.lobby.now() - self.lobby.finished_ttl
        found = await asyncio.to_thread(self.store.find_token, hash_token(token), since)
        if found is None:
            return None
        table = await self.locate(found[0], current)
        return None if table is None else (table, found[1])

    async def reserve_id(self, table_id: str) -> bool:
        """Take the lease of a table about to be created here (False: the id is taken)."""
        key, ms = lease_key(table_id), int(self.lease * 1000)
        async with reachable("reserve"):
            ok = await self.redis.set(key, self.node, nx=True, px=ms)
        return bool(ok)

    async def created(self, table: Table) -> None:
        """A table was created here: claim it in the store (fencing from now on)."""
        await self.store.claim(table.id, self.node)

    def _servable(self, st: StoredTable, finished: bool = True) -> bool:
        """Whether a table nobody serves is to be served again: unfinished, or (with
        ``finished``) a game that finished less than ``finished_ttl`` ago, so that its
        players and spectators see how it ended even if its node died meanwhile."""
        if st.state != FINISHED:
            return True
        lobby = self.lobby
        recent = st.finished is not None and st.finished >= lobby.now() - lobby.finished_ttl
        return finished and recent and st.record is not None

    def _adopt_soon(self, table_id: str, *, finished: bool = False) -> None:
        """``_adopt`` in a task of its own (once at a time for a table)."""
        if table_id in self._queued:
            return
        self._queued.add(table_id)

        async def adopt() -> None:
            try:
                await self._adopt(table_id, finished=finished)
            finally:
                self._queued.discard(table_id)

        self._spawn(adopt())

    async def _adopt(self, table_id: str, *, finished: bool = False) -> None:
        """Serve a table nobody serves: lease, claim, restore by replaying its record
        (a recently finished one too, with ``finished``: see ``_servable``)."""
        async with self._adopting:
            await self._adopt_one(table_id, finished)

    async def _adopt_one(self, table_id: str, finished: bool) -> None:
        if self.stopping or table_id in self.lobby.tables:
            return
        try:
            ok = await self.redis.set(
                lease_key(table_id), self.node, nx=True, px=int(self.lease * 1000)
            )
            if not ok:
                return
            self._claiming.add(table_id)  # renewed from now on
            started = time.monotonic()
            store = self.store
            await store.claim(table_id, self.node)
            st = await asyncio.to_thread(store.load_table, table_id)
            if st is None or not self._servable(st, finished):
                if st is not None:
                    self._unservable.add(table_id)
                store.release(table_id)
                await self._release(keys=[lease_key(table_id)], args=[self.node])
                return
            await self.lobby.adopt(st)
            self.adopted += 1
            self.forwarding.owner_changed(table_id, self.node)
            log.info(
                "table adopted",
                extra={"table": table_id, "ms": round((time.monotonic() - started) * 1000, 1)},
            )
        except Exception:
            if not self.stopping:
                log.exception("could not adopt table", extra={"table": table_id})
            self.store.release(table_id)
            with contextlib.suppress(RedisError):
                await self._release(keys=[lease_key(table_id)], args=[self.node])
        finally:
            self._claiming.discard(table_id)

    def lost(self, table: Table) -> None:
        """``Directory.lost``: the store refused a write of ``table`` because another node
        claimed it since: stop serving it at once (its sessions follow the new owner)."""
        log.warning("lease lost: the store refused a write", extra={"table": table.id})
        self._drop(table)

    def _drop(self, table: Table) -> None:
        """Stop serving a table (its lease is lost, or handed over): forget it, stop its
        bots, tell the other nodes' sessions at it, and make our own sessions at it
        remote ones (they attach again to whichever node takes it)."""
        if not self.lobby.release(table):
            return
        self.store.release(table.id)
        for seat in table.seats:
            if isinstance(seat.occupant, BotPlayer):
                self._spawn(seat.occupant.stop())
        for session_node in self.serving.forget(table):
            self.bus.send(session_node, encode(Moved(table.id)))
        if not self.stopping:
            self._demote(table)
        log.info("table dropped", extra={"table": table.id})

    def _demote(self, table: Table) -> None:
        """Our own sessions at ``table``, which another node serves from now on, each
        get a ``RemoteTable`` to it (``Session.follow``), starting from its facts now."""
        st = stored_form(table)
        for seat_no, occ in table.telling.occupants():
            if not isinstance(occ, Session):
                continue
            proxy = RemoteTable(self.forwarding, st, None)
            if seat_no is None:
                proxy.role = ("watch", None)
            else:
                proxy.my_seat = seat_no
                proxy.role = ("seat", table.seats[seat_no].token_hash)
            proxy.invite = occ.invite  # a private table's spectator needs it to watch again
            proxy.bind(occ)  # with the protocol the session speaks
            occ.follow(proxy)

    # ------------------------------------------------------------- upkeep
    async def _renewer(self) -> None:
        """Every third of a lease, renew our leases (dropping the lost ones): in a task
        of its own, so that nothing else the node does between two renewals (publish,
        scan, adopt, all of which wait for Redis and PostgreSQL) can make them late;
        the cluster limits are renewed with them (``ClusterCounts.renew``)."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self._renew_leases()
                self.counts.renew()
            except (RedisError, OSError) as e:
                log.warning("lease renewal failed", extra={"error": repr(e)})
            except Exception:
                log.exception("lease renewal failed")

    async def _upkeep(self) -> None:
        """Every third of a lease: publish our health counts and public tables, watch the
        owners of our sessions' tables, and adopt the tables nobody serves (each in a
        task of its own, a few at a time)."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.listings.publish(self.lobby.tables, self.health_here())
                await self._watch_owners()
                if not self.stopping:
                    await self._scan()
            except (RedisError, OSError, StoreUnavailable) as e:  # an outage: no bug
                log.warning("cluster upkeep failed", extra={"error": repr(e)})
            except Exception:
                log.exception("cluster upkeep failed")

    async def _renew_leases(self) -> None:
        ids = [*self.lobby.tables, *self._claiming]
        if not ids:
            return
        lost = await self._renew(
            keys=[lease_key(t) for t in ids], args=[self.node, int(self.lease * 1000)]
        )
        for key in lost:
            tid = key.decode().removeprefix("kk:lease:")
            table = self.lobby.tables.get(tid)
            if table is not None:
                log.warning("lease lost", extra={"table": tid})
                self._drop(table)

    def changed(self, table: Table) -> None:
        """What the lobby shows of one of our tables may have changed."""
        self.listings.changed(table.id)

    def listing(self) -> list[TableFacts]:
        """The public tables the other nodes serve (as of their last report)."""
        return self.listings.tables()

    async def _watch_owners(self) -> None:
        """Follow the owners of our sessions' remote tables; a table seen without one
        twice in a row is adopted here, finished or not (a game that ended as its node
        died: its sessions here may not have heard the end; ``_scan`` only takes the
        unfinished tables)."""
        ids = sorted({p.id for p in self.proxies.values()})
        self._unservable &= set(ids)
        if not ids:
            self._orphans = set()
            return
        owners = await self.redis.mget([lease_key(t) for t in ids])
        orphans = set()
        for tid, owner in zip(ids, owners, strict=True):
            if owner is not None:
                self.forwarding.owner_changed(tid, text(owner))
            elif tid not in self._unservable:
                orphans.add(tid)
        ready, self._orphans = orphans & self._orphans, orphans
        for tid in sorted(ready):
            if not self.stopping:
                self._adopt_soon(tid, finished=True)

    async def _scan(self) -> None:
        ids = await asyncio.to_thread(self.store.open_table_ids)
        if not ids:
            self._unleased = set()
            return
        owners = await self.redis.mget([lease_key(t) for t in ids])
        unleased = {t for t, o in zip(ids, owners, strict=True) if o is None}
        ready = list(unleased & self._unleased)
        self._unleased = unleased
        random.shuffle(ready)
        for tid in ready:
            self._adopt_soon(tid)

    def stats(self) -> dict[str, int]:
        """This node's counters for the metrics (as ``Store.stats``): the leases it
        holds, the tables it adopted and handed over, the intents it forwarded to owners
        and served for other nodes' sessions."""
        return {
            "leases": len(self.lobby.tables) + len(self._claiming),
            "adopted": self.adopted,
            "handed_over": self.handed_over,
            "received": self.received,
            "forwarded": self.forwarding.forwarded,
            "served": self.serving.served,
        }

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = {"node": self.node}
        out.update({f"cluster_{k}": v for k, v in self.listings.totals.items()})
        out["node_adopted"] = self.adopted
        return out
