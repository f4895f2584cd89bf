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
  ``RemoteTable``: a ``Table`` whose methods send the intent to B (``kk:to:B``, Redis
  pub/sub) and wait for B's answer. On B a ``RemoteOccupant`` stands for the session at
  the table: what the table delivers to it (views, events, presence, chat) is framed on
  B exactly as a local session frames it and published to A, which gives each frame the
  session's own ``seq`` and sends it. Everything one node sends another goes through one
  publisher task, so frames and answers arrive in the order they were made (the ack of a
  take after its events and view, as on one node).
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
  and tells the others (``back``), which attach theirs at its tables again.
- **The lobby.** Each node keeps its public tables' summaries in Redis
  (``kk:listed:NODE``, with the listing's version) and every round writes only those
  that changed (``Table.on_change``), sending the same change to every node in one
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
import functools
import json
import logging
import os
import random
import socket
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as aioredis
from pydantic import BaseModel
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from protocol import messages as m
from protocol.convert import options_to_shared
from protocol.wire import encode_as
from shared.game import Take

from ..bots.seats import BotSeat
from ..core.table import FINISHED, LOBBY, Occupant, Seat, Table, TableError, hash_token
from ..lobby.quotas import Served
from ..net.session import Frame, Session, table_summary
from ..store import Store, StoredSeat, StoredTable
from ..tasks import stop_tasks
from .counts import ClusterCounts

__all__ = ["Cluster", "RemoteOccupant", "RemoteTable", "with_seq"]

log = logging.getLogger("kupferkessel.cluster")

_SEQ_ZERO = b"\xa3seq\x00"  # the key "seq" and the value 0, as msgpack packs them


def with_seq(frame: bytes, seq: int) -> bytes:
    """A frame made with ``seq`` 0 (by the owner of a table) with the connection's own
    ``seq`` instead: every server message is a map starting ``type``, ``seq``, so the
    value is spliced in place; the bytes are those a local session would have sent."""
    at = frame.find(_SEQ_ZERO, 0, 48)
    if at < 0:  # not our framing: unpack and pack again (the same map, the new seq)
        data = msgpack.unpackb(frame, raw=False, strict_map_key=False)
        data["seq"] = seq
        out: bytes = msgpack.packb(data)
        return out
    head = at + len(_SEQ_ZERO) - 1
    packed: bytes = msgpack.packb(seq)
    return frame[:head] + packed + frame[head + 1 :]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Moved(Exception):
    """The table is not (or no longer) served by the node that was asked."""


class RemoteOccupant:
    """On the owner: a session of another node (``front``) at one of our tables. It
    frames what the table delivers exactly as a local session would, with the very
    methods of ``Session`` (for the protocol version and ``combined`` mode the session
    agreed on at its hello, sent along when it attached), with ``seq`` 0, and sends the
    frames to the session's node."""

    def __init__(
        self, cluster: Cluster, front: str, sid: str, minor: int = 0, combined: bool = False
    ) -> None:
        self.cluster = cluster
        self.front = front
        self.sid = sid
        self.minor = minor
        self.combined = combined
        self.closing = False
        self._answering: int | None = None  # the id of the take being applied (combined)
        self.at: str | None = None  # the table it was last put at (a rematch moves it)

    def send(self, message: BaseModel | Frame, re: int | None = None) -> None:
        if isinstance(message, BaseModel):
            frame = encode_as(type(message), message, seq=0, re=re)
        else:
            frame = message(0)
        self.cluster.send(self.front, {"k": "frame", "sid": self.sid, "f": frame})

    # the session's own framing (they only use send, minor, combined and _answering)
    _fit = Session._fit
    deliver_view = Session.deliver_view
    deliver_update = Session.deliver_update
    deliver_result = Session.deliver_result
    deliver_presence = Session.deliver_presence
    deliver_chat = Session.deliver_chat
    deliver_finished = Session.deliver_finished

    def deliver_rematch(self, table: Table, new: Table, seat: int | None) -> bool:
        """The session follows to the rematch's new table (served here too), as a local
        session does: its node makes its remote table the new one and sends it
        ``rematched`` (1.0 knows no rematch: such a session stays, as on one node)."""
        if self.minor == 0:
            return False
        seats = [[s.name, s.bot] for s in new.seats]
        self.cluster.send(
            self.front,
            {
                "k": "rematched",
                "sid": self.sid,
                "t": new.id,
                "c": new.created,
                "seat": seat,
                "seats": seats,
            },
        )
        self.at = new.id
        return True

    def replaced(self, table: Table, seat: int) -> None:
        self.cluster.send(self.front, {"k": "replaced", "sid": self.sid, "seat": seat})
        self.cluster.occupants.pop((self.front, self.sid), None)

    async def stop(self) -> None:
        """Nothing runs here (the session lives at its own node)."""


class RemoteTable(Table):
    """On a session's node: a table another node owns, as the session sees it. Each
    intent goes to the owner and waits for its answer; what does not answer (watch,
    resume, chat, detach) is sent in order with the rest. One per session and table."""

    def __init__(self, cluster: Cluster, st: StoredTable, owner: str | None, store: Store) -> None:
        super().__init__(
            st.id,
            st.name,
            st.options,
            store,
            private=st.private,
            invite_hash=st.invite_hash,
            created=st.created,
        )
        self.cluster = cluster
        self.owner = owner
        self.state = st.state
        for ss in st.seats:
            seat = self.seats[ss.seat]
            seat.name, seat.token_hash, seat.bot = ss.name, ss.token_hash, ss.bot
        self.session: Occupant | None = None
        self.sid = cluster.new_sid()
        self.role: tuple[str, Any] | None = None  # ("seat", token hash) or ("watch", None)
        self.speaks: dict[str, Any] = {"minor": 0, "combined": False}  # set by _bind
        self.my_seat: int | None = None

    # the session's view of itself
    def seat_of(self, occupant: Occupant) -> int | None:
        return self.my_seat if occupant is self.session else None

    def _bind(self, occupant: Occupant) -> None:
        self.session = occupant
        # the protocol the session speaks: the owner frames for it accordingly
        self.speaks = {
            "minor": getattr(occupant, "minor", 0),
            "combined": getattr(occupant, "combined", False),
        }
        self.cluster.bind(self)

    async def _call(self, kind: str, **fields: Any) -> Any:
        return (await self.cluster.call(self, kind, fields)).get("r")

    def _cast(self, kind: str, **fields: Any) -> None:
        if self.owner is not None:
            self.cluster.send(
                self.owner, {"k": kind, "t": self.id, "sid": self.sid, **self.speaks, **fields}
            )

    def __eq__(self, other: object) -> bool:
        """The same table as another one (a session's own table is listed once)."""
        return isinstance(other, Table) and other.id == self.id

    __hash__ = Table.__hash__

    async def join(
        self, name: str, occupant: Occupant, seat: int | None = None, *, seeded: bool = False
    ) -> tuple[int, str]:
        self._bind(occupant)
        try:
            index, token = await self._call(
                "join", player=name, seat=seat, invite=self._invite, seeded=seeded
            )
        except BaseException:
            self.cluster.unbind(self)
            raise
        self.my_seat, self.role = index, ("seat", hash_token(token))
        self.seats[index].name, self.seats[index].token_hash = name, hash_token(token)
        return int(index), str(token)

    _invite: str | None = None  # the code the session gave (the owner checks it too)

    def watch(self, occupant: Occupant) -> None:
        self._bind(occupant)
        self.role = ("watch", None)
        self._cast("watch", invite=self._invite)

    def resume(self, token_hash: str, occupant: Occupant) -> int:
        for s in self.seats:
            if s.token_hash == token_hash:
                self._bind(occupant)
                self.my_seat, self.role = s.index, ("seat", token_hash)
                self._cast("resume", th=token_hash)
                return s.index
        raise TableError("bad_token", "that seat token is not valid here")

    def rematched(self, table_id: str, created: float, seat: int | None, seats: list[Any]) -> bool:
        """The owner started this table's rematch at ``table_id`` and moved the session
        there (at ``seat``; None: it watches): it becomes the session's remote table, under
        the same ``sid``. False if the session cannot follow (it is closing)."""
        session = self.session
        if session is None:
            return False
        st = StoredTable(
            table_id,
            self.name,
            self.options.replace(seed=None),
            self.private,
            self.invite_hash,
            created,
            LOBBY,
            seats=[StoredSeat(i, name, None, bot) for i, (name, bot) in enumerate(seats) if name],
        )
        new = RemoteTable(self.cluster, st, self.owner, self.store)
        new.sid, new._invite, new.role, new.my_seat = self.sid, self._invite, self.role, seat
        if seat is not None and self.role is not None:
            new.seats[seat].token_hash = self.role[1]  # the token opens the new seat
        self.cluster.rebind(self, new, session)
        if session.deliver_rematch(self, new, seat):
            return True
        self.cluster.unbind(new)
        return False

    def reattach(self) -> None:
        """Attach again to a new owner (it sends a fresh view and presence)."""
        if self.role is None:
            return
        if self.role[0] == "seat":
            self._cast("resume", th=self.role[1])
        else:
            self._cast("watch", invite=self._invite)

    async def leave(self, occupant: Occupant) -> None:
        try:
            await self._call("leave")
        finally:
            self.cluster.unbind(self)

    def detach(self, occupant: Occupant) -> None:
        self._cast("detach")
        self.cluster.unbind(self)

    async def set_ready(self, occupant: Occupant, ready: bool = True) -> None:
        await self._call("ready", ready=ready)

    async def take(self, occupant: Occupant, take: Take, state_version: int) -> int:
        re = getattr(occupant, "_answering", None)  # combined: the update answers the take
        answer = await self.cluster.call(
            self, "take", {"take": list(take), "v": state_version, "re": re}
        )
        if answer.get("answered"):  # the owner's update answered it: no ack after it
            occupant._answering = None  # type: ignore[attr-defined]
        self.version = int(answer["r"])
        return self.version

    async def resign(self, occupant: Occupant) -> None:
        self.version = int(await self._call("resign"))

    async def claim(self, occupant: Occupant) -> None:
        self.version = int(await self._call("claim"))

    async def back(self, occupant: Occupant) -> None:
        self.version = int(await self._call("back"))

    async def vote_rematch(self, occupant: Occupant, yes: bool) -> None:
        await self._call("rematch", yes=yes)

    def chat(self, occupant: Occupant, name: str, text: str) -> None:
        self._cast("chat", name=name, text=text)


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


def _lease(table_id: str) -> str:
    return f"kk:lease:{table_id}"


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
        self.health_here = health  # this node's own figures, published for the others
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
        self.occupants: dict[tuple[str, str], RemoteOccupant] = {}  # (front, sid), ours
        self.proxies: dict[str, RemoteTable] = {}  # sid -> a session's remote table
        self._sid = 0
        self._rid = 0
        self._pending: dict[int, tuple[asyncio.Future[Any], RemoteTable]] = {}
        self._outbox: dict[str, list[dict[str, Any]]] = {}
        self._flush_queued = False
        self._publish: asyncio.Queue[dict[str, list[dict[str, Any]]] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()  # intents being served, adoptions
        self._unleased: set[str] = set()  # tables seen without a lease in the last scan
        self._orphans: set[str] = set()  # our sessions' tables seen without an owner
        self._unservable: set[str] = set()  # ... and found finished too long ago
        self._queued: set[str] = set()  # tables to adopt, in a task each (``_adopt_soon``)
        self._claiming: set[str] = set()  # tables being adopted (leased, not yet served)
        # our public tables as published (table id -> summary), the ids seen last
        # round, the tables changed since (``changed``), our listing's version in Redis
        # and whether to write it whole (the first time, after Redis lost it)
        self._summaries: dict[str, bytes] = {}
        self._known: set[str] = set()
        self._dirty: set[str] = set()
        self._version = 0
        self._whole = True
        self._others: dict[str, _Listing] = {}  # other nodes' public tables
        self.figures: dict[str, Any] = {"nodes": 1}
        self.adopted = 0
        self.handed_over = 0
        self.stopping = False
        # what counts against the limits: the whole cluster's tables and connections
        self.counts = ClusterCounts(self.node, self.redis, lease, max_connections)

    @property
    def lobby(self) -> Registry:
        assert self._lobby is not None, "the node is started"
        return self._lobby

    # ------------------------------------------------------------- life
    async def start(self, lobby: Registry) -> None:
        """Join the cluster, serving ``lobby``'s tables."""
        self._lobby = lobby
        await self.redis.ping()
        self.store.fence_writes()  # a write of a table not held here is refused
        pubsub = self._channel.pubsub()
        await pubsub.subscribe(f"kk:to:{self.node}", "kk:all")
        self._tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._publisher()),
            asyncio.create_task(self._keep()),
            asyncio.create_task(self._renewer()),
        ]
        self.counts.start(lobby)
        log.info("node joined the cluster", extra={"node": self.node})

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
                await self._release(keys=[_lease(table.id)], args=[self.node])
            released.append(table.id)
        self.handed_over += len(released)
        if released:
            self.send_all({"k": "released", "tables": released})
            await self._drain_outbox()
        log.info("tables handed over", extra={"count": len(released)})

    async def stop(self) -> None:
        self.stopping = True
        await self._drain_outbox()
        self._publish.put_nowait(None)
        await stop_tasks([*self._tasks, *self._running], self.lease)
        await self.counts.stop()
        with contextlib.suppress(RedisError):
            await self.redis.srem("kk:nodes", self.node)
            await self.redis.delete(f"kk:health:{self.node}", f"kk:listed:{self.node}")
        await self.redis.aclose()
        await self._channel.aclose()

    async def _drain_outbox(self) -> None:
        self._flush()
        done = asyncio.get_running_loop().create_future()
        self._publish.put_nowait({"": [{"k": "_done", "fut": done}]})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done, 5)

    # ------------------------------------------------------------- messaging
    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    def new_sid(self) -> str:
        self._sid += 1
        return str(self._sid)

    def send(self, node: str, msg: dict[str, Any]) -> None:
        """Queue a message for a node; all of this loop turn's leave together, in order."""
        self._outbox.setdefault(node, []).append(msg)
        if not self._flush_queued:
            self._flush_queued = True
            asyncio.get_running_loop().call_soon(self._flush)

    def send_all(self, msg: dict[str, Any]) -> None:
        self.send("*", msg)

    def _flush(self) -> None:
        self._flush_queued = False
        out, self._outbox = self._outbox, {}
        mine = out.pop(self.node, None)
        if out:
            self._publish.put_nowait(out)
        if mine:
            self._receive(self.node, mine)

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

    async def _publish_batch(self, batch: dict[str, list[dict[str, Any]]]) -> None:
        """Publish, trying again while Redis is away (restarting) for up to a lease:
        what a node sends must not be lost in between; after that it is dropped (the
        sessions concerned attach again when the cluster channel comes back)."""
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
                    log.warning("publish failed", extra={"error": repr(e)})
                    return
                await asyncio.sleep(0.05)

    async def _listen(self, pubsub: Any) -> None:
        """Read our channel. After a lost connection (Redis restarted) subscribe again,
        then attach every remote session of ours again (frames for it may have been
        lost meanwhile) and tell the other nodes we are ``back`` (what they sent us
        meanwhile, a session's attachment or intent, was lost too)."""
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
                self._attach_again(list(self.proxies.values()))
                self.send_all({"k": "back"})
                for other in self._others.values():  # "listed" messages may be lost
                    other.stale()

    def _receive(self, src: str, msgs: list[dict[str, Any]]) -> None:
        for msg in msgs:
            kind = msg["k"]
            if kind == "frame":
                proxy = self.proxies.get(msg["sid"])
                if proxy is not None and proxy.session is not None:
                    session: Session = proxy.session  # type: ignore[assignment]
                    session.send(functools.partial(with_seq, msg["f"]))
            elif kind == "reply":
                pending = self._pending.pop(msg["rid"], None)
                if pending is not None and not pending[0].done():
                    pending[0].set_result(msg)
            elif kind == "replaced":
                proxy = self.proxies.pop(msg["sid"], None)
                if proxy is not None and proxy.session is not None:
                    proxy.session.replaced(proxy, msg["seat"])
            elif kind == "rematched":
                proxy = self.proxies.get(msg["sid"])
                if proxy is None or not proxy.rematched(
                    msg["t"], msg["c"], msg["seat"], msg["seats"]
                ):
                    self.send(src, {"k": "detach", "t": msg["t"], "sid": msg["sid"]})
            elif kind == "moved":
                self._moved(msg["t"], None)
            elif kind == "refused":  # the owner refused to attach a session again
                self._refused(msg)
            elif kind == "listed":
                self._listed_changed(src, msg)
            elif kind == "back":  # its channel was lost a while: attach to it again
                self._attach_again([p for p in self.proxies.values() if p.owner == src])
            elif kind == "released":
                if not self.stopping:
                    for tid in msg["tables"]:
                        self._adopt_soon(tid)
            else:
                self._spawn(self._serve(src, msg))

    # ------------------------------------------------------------- a session's side
    def _refused(self, msg: dict[str, Any]) -> None:
        """The owner would not attach a session of ours again: rather than leave it
        waiting for frames that never come, it is closed with ``bye`` ``moved`` (its
        client connects again and resumes or watches anew)."""
        proxy = self.proxies.get(msg["sid"])
        if proxy is None or proxy.id != msg["t"]:
            return
        self.unbind(proxy)
        code, message = msg["e"]
        log.warning("session could not follow its table", extra={"table": proxy.id, "code": code})
        session = proxy.session
        if isinstance(session, Session):
            session.lost_table(f"the table moved to another node, which refused: {message}")

    def bind(self, proxy: RemoteTable) -> None:
        self.proxies[proxy.sid] = proxy

    def rebind(self, old: RemoteTable, new: RemoteTable, session: Occupant) -> None:
        """``new`` replaces ``old`` for its session (a rematch), with the intents in
        flight (the vote that started the rematch is answered after it)."""
        new.session, new.speaks = session, old.speaks
        self.proxies[new.sid] = new
        for rid, (fut, p) in list(self._pending.items()):
            if p is old:
                self._pending[rid] = (fut, new)

    def unbind(self, proxy: RemoteTable) -> None:
        self.proxies.pop(proxy.sid, None)
        for rid, (fut, p) in list(self._pending.items()):
            if p is proxy and not fut.done():
                fut.cancel()
                del self._pending[rid]

    async def call(self, proxy: RemoteTable, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
        """Send an intent to the table's owner and wait for its answer (``r``: what the
        table returned); a refusal is raised as the ``TableError`` the owner's table
        raised."""
        for _ in range(2):  # once more after the table moved
            if proxy.owner is None:
                await self._await_owner(proxy)
            self._rid += 1
            rid = self._rid
            fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._pending[rid] = (fut, proxy)
            assert proxy.owner is not None
            msg = {"k": kind, "t": proxy.id, "sid": proxy.sid, "rid": rid, "front": self.node}
            self.send(proxy.owner, {**msg, **proxy.speaks, **fields})
            try:
                answer = await asyncio.wait_for(fut, self.lease * 4)
            except (TimeoutError, asyncio.CancelledError) as e:
                self._pending.pop(rid, None)
                raise self._lost(kind) from e
            if "moved" in answer:
                self._moved(proxy.id, proxy)
                continue
            if "error" in answer:
                code, message, detail = answer["error"]
                raise TableError(code, message, detail)
            return dict(answer)
        raise self._lost(kind)

    @staticmethod
    def _lost(kind: str) -> TableError:
        if kind == "take":
            return TableError(
                "stale_state", "the table moved to another node: decide again on its fresh view"
            )
        return TableError("internal", "the table moved to another node: try again")

    async def _await_owner(self, proxy: RemoteTable) -> None:
        deadline = time.monotonic() + self.lease * 3
        while proxy.owner is None and time.monotonic() < deadline:
            owner = await self.redis.get(_lease(proxy.id))
            if owner is not None:
                self._owner_changed(proxy.id, _text(owner))
                break
            await asyncio.sleep(self.every / 2)
        if proxy.owner is None:
            raise self._lost("")

    def _moved(self, table_id: str, proxy: RemoteTable | None) -> None:
        """The owner says it no longer serves the table: find the new one."""
        for p in self.proxies.values():
            if p.id == table_id:
                p.owner = None
        if proxy is not None:
            proxy.owner = None

    def _owner_changed(self, table_id: str, owner: str) -> None:
        for p in list(self.proxies.values()):
            if p.id == table_id and p.owner != owner:
                old = p.owner
                p.owner = owner
                if old is not None or p.role is not None:
                    self._attach_again([p])

    def _attach_again(self, proxies: list[RemoteTable]) -> None:
        """Attach remote sessions again to their tables' owners (a fresh view each);
        their intents in flight are answered as lost (``stale_state`` for a take:
        decide again on the fresh view)."""
        for p in proxies:
            for rid, (fut, q) in list(self._pending.items()):
                if q is p and not fut.done():
                    del self._pending[rid]
                    fut.set_exception(self._lost("take"))
            p.reattach()

    def entered(self, table: Table, invite: str | None) -> None:
        """A session entered a table another node serves with ``invite`` (kept: it
        attaches again with it when the table moves)."""
        if isinstance(table, RemoteTable):
            table._invite = invite

    async def locate(self, table_id: str, current: Table | None = None) -> Table | None:
        """The table a session asked for: ours, or a ``RemoteTable`` for its owner; a
        table nobody serves is adopted here (a finished one too, if it finished less
        than the lobby's ``finished_ttl`` ago, as a single server restores it)."""
        if current is not None and current.id == table_id:
            return current
        for _ in range(3):
            local = self.lobby.tables.get(table_id)
            if local is not None:
                return local
            owner = await self.redis.get(_lease(table_id))
            st = await asyncio.to_thread(self.store.load_table, table_id)
            if st is None:
                break
            if owner is not None:  # served (a finished one too, while its owner keeps it)
                return RemoteTable(self, st, _text(owner), self.store)
            if not self._servable(st):
                break
            await self._adopt(table_id, finished=True)
        return None

    async def locate_seat(self, token: str, current: Table | None) -> tuple[Table, int] | None:
        since = self.lobby.now() - self.lobby.finished_ttl
        found = await asyncio.to_thread(self.store.find_token, hash_token(token), since)
        if found is None:
            return None
        table = await self.locate(found[0], current)
        return None if table is None else (table, found[1])

    # ------------------------------------------------------------- the owner's side
    async def _serve(self, src: str, msg: dict[str, Any]) -> None:
        kind, rid, front = msg["k"], msg.get("rid"), msg.get("front", src)
        answer: dict[str, Any] = {"k": "reply", "rid": rid}
        try:
            table = self.lobby.tables.get(msg["t"])
            if table is None or self.stopping:
                raise Moved
            key = (front, msg["sid"])
            occ = self.occupants.get(key)
            if occ is None:
                occ = self.occupants[key] = RemoteOccupant(
                    self, front, msg["sid"], msg.get("minor", 0), msg.get("combined", False)
                )
            moved_on = kind in ("leave", "detach") and occ.at not in (None, table.id)
            answer["r"] = await self._apply(table, occ, kind, msg)
            if kind in ("join", "watch", "resume"):
                occ.at = table.id
            if kind == "take" and msg.get("re") is not None:
                answer["answered"] = occ._answering is None  # the update carried re
                occ._answering = None
            if kind in ("leave", "detach") and not moved_on:  # (not one a rematch moved)
                self.occupants.pop(key, None)
        except Moved:
            answer["moved"] = True
            if rid is None:
                self.send(front, {"k": "moved", "t": msg["t"]})
        except TableError as e:
            answer["error"] = [e.code, e.message, e.detail]
            if rid is None:  # a one-way message: never refused in silence
                log.warning(
                    "refused %s from another node",
                    kind,
                    extra={"table": msg.get("t"), "node": front, "code": e.code},
                )
                if kind in ("watch", "resume"):  # its session waits for frames: tell it
                    refusal = {"k": "refused", "t": msg["t"], "sid": msg["sid"]}
                    self.send(front, {**refusal, "e": [e.code, e.message]})
        except Exception:
            log.exception("internal error serving %s", kind, extra={"table": msg.get("t")})
            answer["error"] = ["internal", "the server failed to handle this message", None]
        if rid is not None:
            self.send(front, answer)

    async def _apply(
        self, table: Table, occ: RemoteOccupant, kind: str, msg: dict[str, Any]
    ) -> Any:
        if kind in ("join", "watch") and not table.invite_ok(msg.get("invite")):
            raise TableError(
                "no_such_table", "no such table here (a private table needs its invite code)"
            )
        if kind == "join":
            return list(
                await table.join(msg["player"], occ, msg["seat"], seeded=msg.get("seeded", False))
            )
        if kind == "watch":
            table.watch(occ)
        elif kind == "resume":
            return table.resume(msg["th"], occ)
        elif kind == "leave":
            await table.leave(occ)
        elif kind == "detach":
            table.detach(occ)
        elif kind == "ready":
            await table.set_ready(occ, msg["ready"])
        elif kind == "take":
            card, special, targets, keep = msg["take"]
            take = Take(card, special, None if targets is None else tuple(targets), keep)
            occ._answering = msg.get("re") if occ.combined else None
            return await table.take(occ, take, msg["v"])
        elif kind == "claim":
            await table.claim(occ)
            return table.version
        elif kind == "back":
            await table.back(occ)
            return table.version
        elif kind == "rematch":
            await table.vote_rematch(occ, msg["yes"])
        elif kind == "resign":
            await table.resign(occ)
            return table.version
        elif kind == "chat":
            table.chat(occ, msg["name"], msg["text"])
        else:
            raise TableError("not_allowed", f"{kind} is not a cluster intent")
        return None

    async def reserve_id(self, table_id: str) -> bool:
        """Take the lease of a table about to be created here (False: the id is taken)."""
        ok = await self.redis.set(_lease(table_id), self.node, nx=True, px=int(self.lease * 1000))
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
                _lease(table_id), self.node, nx=True, px=int(self.lease * 1000)
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
                await self._release(keys=[_lease(table_id)], args=[self.node])
                return
            await self.lobby.adopt(st)
            self.adopted += 1
            self._owner_changed(table_id, self.node)
            log.info(
                "table adopted",
                extra={"table": table_id, "ms": round((time.monotonic() - started) * 1000, 1)},
            )
        except Exception:
            if not self.stopping:
                log.exception("could not adopt table", extra={"table": table_id})
            self.store.release(table_id)
            with contextlib.suppress(RedisError):
                await self._release(keys=[_lease(table_id)], args=[self.node])
        finally:
            self._claiming.discard(table_id)

    def lost(self, table: Table) -> None:
        """``Table.on_lost``: the store refused a write of ``table`` because another node
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
            if isinstance(seat.occupant, BotSeat):
                self._spawn(seat.occupant.stop())
        fronts = set()
        for _, occ in table.occupants():
            if isinstance(occ, RemoteOccupant):
                fronts.add(occ.front)
                self.occupants.pop((occ.front, occ.sid), None)
        for front in fronts:
            self.send(front, {"k": "moved", "t": table.id})
        if not self.stopping:
            self._demote(table)
        log.info("table dropped", extra={"table": table.id})

    def _demote(self, table: Table) -> None:
        st = StoredTable(
            table.id,
            table.name,
            table.options,
            table.private,
            table.invite_hash,
            table.created,
            table.state,
        )
        for seat_no, occ in table.occupants():
            if not isinstance(occ, Session):
                continue
            proxy = RemoteTable(self, st, None, self.store)
            for s in table.seats:
                proxy.seats[s.index].name = s.name
                proxy.seats[s.index].token_hash = s.token_hash
            if seat_no is None:
                proxy.role = ("watch", None)
            else:
                proxy.my_seat = seat_no
                proxy.role = ("seat", table.seats[seat_no].token_hash)
            proxy._invite = occ.invite  # a private table's spectator needs it to watch again
            proxy._bind(occ)  # with the protocol the session speaks
            occ.follow(proxy)

    # ------------------------------------------------------------- upkeep
    async def _renewer(self) -> None:
        """Every third of a lease, renew our leases (dropping the lost ones): in a task
        of its own, so that nothing else the node does between two renewals (publish,
        scan, adopt, all of which wait for Redis and PostgreSQL) can make them late;
        the cluster limits are renewed with them (``ClusterLimits.renew``)."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self._renew_leases()
                self.counts.renew()
            except (RedisError, OSError) as e:
                log.warning("lease renewal failed", extra={"error": repr(e)})
            except Exception:
                log.exception("lease renewal failed")

    async def _keep(self) -> None:
        """Every third of a lease: publish our figures and public tables, watch the
        owners of our sessions' tables, and adopt the tables nobody serves (each in a
        task of its own, a few at a time)."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self._publish_state()
                await self._watch_owners()
                if not self.stopping:
                    await self._scan()
            except (RedisError, OSError) as e:
                log.warning("cluster upkeep failed", extra={"error": repr(e)})
            except Exception:
                log.exception("cluster upkeep failed")

    async def _renew_leases(self) -> None:
        ids = [*self.lobby.tables, *self._claiming]
        if not ids:
            return
        lost = await self._renew(
            keys=[_lease(t) for t in ids], args=[self.node, int(self.lease * 1000)]
        )
        for key in lost:
            tid = key.decode().removeprefix("kk:lease:")
            table = self.lobby.tables.get(tid)
            if table is not None:
                log.warning("lease lost", extra={"table": tid})
                self._drop(table)

    def changed(self, table: Table) -> None:
        """What the lobby shows of one of our tables may have changed (``on_change``)."""
        self._dirty.add(table.id)

    async def _publish_state(self) -> None:
        """Our health, and our public tables as far as they changed since the last round
        (the ``kk:listed:NODE`` hash and a ``listed`` message to every node, in one
        transaction); then the other nodes' health, and the listings of the nodes we do
        not follow yet in full (a node joined, a gap, Redis restarted)."""
        ttl = int(self.lease * 3000)
        key = f"kk:listed:{self.node}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd("kk:nodes", self.node)
            pipe.set(f"kk:health:{self.node}", json.dumps(self.health_here()), px=ttl)
            pipe.pexpire(key, ttl)
            pipe.hget(key, "~v")
            pipe.smembers("kk:nodes")
            results = await pipe.execute()
        if results[-2] is None:  # not written yet, or lost (Redis restarted)
            self._whole = True
        delta = self._listing_delta()
        if delta is not None:
            await self._write_listing(key, ttl, delta)
        nodes = sorted(n.decode() for n in results[-1])
        healths = await self.redis.mget([f"kk:health:{n}" for n in nodes]) if nodes else []
        gone = [n for n, h in zip(nodes, healths, strict=True) if h is None]
        if gone:
            await self.redis.srem("kk:nodes", *gone)
        figures: dict[str, Any] = {"nodes": len(nodes) - len(gone)}
        for h in healths:
            if h is None:
                continue
            for k, v in json.loads(h).items():
                if isinstance(v, int | float) and k != "uptime":
                    figures[k] = figures.get(k, 0) + v
        self.figures = figures
        alive = {n for n, h in zip(nodes, healths, strict=True) if h is not None}
        alive.discard(self.node)
        for node in set(self._others) - alive:
            del self._others[node]
        stale = [n for n in sorted(alive) if self._others.setdefault(n, _Listing()).v is None]
        if stale:
            async with self.redis.pipeline(transaction=False) as pipe:
                for node in stale:
                    pipe.hgetall(f"kk:listed:{node}")
                got = await pipe.execute()
            for node, entries in zip(stale, got, strict=True):
                self._others[node].load(entries, self)

    def _listing_delta(self) -> tuple[dict[str, bytes], list[str]] | None:
        """What changed in our public tables since the last round: (summaries to set,
        ids to delete); everything when the listing is to be written in full; None if
        nothing changed."""
        tables = self.lobby.tables
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
        version = self._version + 1
        if full or len(changed) + len(removed) > _DELTA_MAX:
            msg: dict[str, Any] = {"k": "listed", "v": version, "full": True}
        else:
            msg = {"k": "listed", "v": version, "set": changed, "del": removed}
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
            self._version, self._whole = version, True
            raise
        self._version, self._whole = version, False

    def _listed_changed(self, src: str, msg: dict[str, Any]) -> None:
        """Another node's ``listed`` message: apply it to what we know of its tables."""
        self._others.setdefault(src, _Listing()).apply(msg, self)

    def listing(self) -> list[Table]:
        """The public tables the other nodes serve (as of their last report; a table
        being handed over is listed once)."""
        found = {tid: t for o in self._others.values() for tid, (_, t) in o.tables.items()}
        return list(found.values())

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
        owners = await self.redis.mget([_lease(t) for t in ids])
        orphans = set()
        for tid, owner in zip(ids, owners, strict=True):
            if owner is not None:
                self._owner_changed(tid, _text(owner))
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
        owners = await self.redis.mget([_lease(t) for t in ids])
        unleased = {t for t, o in zip(ids, owners, strict=True) if o is None}
        ready = list(unleased & self._unleased)
        self._unleased = unleased
        random.shuffle(ready)
        for tid in ready:
            self._adopt_soon(tid)

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = {"node": self.node}
        out.update({f"cluster_{k}": v for k, v in self.figures.items()})
        out["node_adopted"] = self.adopted
        return out


_DELTA_MAX = 200
"""Changed tables a ``listed`` message carries at most; beyond, the readers read the
whole listing again (a burst, such as a node adopting many tables)."""


class _Listing:
    """What this node knows of another node's public tables: its listing's version
    ``v`` (None: to be read in full from Redis, at the next round) and the tables, each
    as its summary and a ``Table`` for the lobby; ``listed`` messages that came while
    it is being read wait in ``backlog``."""

    def __init__(self) -> None:
        self.v: int | None = None
        self.tables: dict[str, tuple[bytes, Table]] = {}
        self.backlog: list[dict[str, Any]] = []

    def stale(self) -> None:
        self.v, self.backlog = None, []

    def apply(self, msg: dict[str, Any], cluster: Cluster) -> None:
        if self.v is None:
            if len(self.backlog) < 50:
                self.backlog.append(msg)
        elif msg["v"] <= self.v:
            return  # already in what was read
        elif msg["v"] != self.v + 1 or msg.get("full"):
            self.stale()
        else:
            self.v = msg["v"]
            for tid, raw in msg["set"].items():
                self._put(tid, raw, cluster)
            for tid in msg["del"]:
                self.tables.pop(tid, None)

    def load(self, entries: dict[bytes, bytes], cluster: Cluster) -> None:
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
                self._put(tid_s, raw, cluster, old)
        self.v = int(version)
        backlog, self.backlog = self.backlog, []
        for msg in sorted(backlog, key=lambda x: int(x["v"])):
            self.apply(msg, cluster)

    def _put(
        self, tid: str, raw: bytes, cluster: Cluster, old: tuple[bytes, Table] | None = None
    ) -> None:
        old = old or self.tables.get(tid)
        table = _listed_table(raw, cluster)
        if old is not None:  # the same place in this node's listing order
            table.serial = old[1].serial
        self.tables[tid] = (raw, table)


class _Elsewhere(RemoteOccupant):
    """Stands for a connected player or spectator in a table another node listed (it
    is never delivered anything: a listed table is only summarized)."""


def _listed_table(raw: bytes, cluster: Cluster) -> Table:
    """A table another node listed, as a ``Table`` for the listing (public facts only)."""
    s = m.TableSummary.model_validate_json(raw)
    store = cluster.store
    table = Table(s.id, s.name, options_to_shared(s.options), store, private=s.private)
    table.state = s.state
    for info in s.seats:
        seat: Seat = table.seats[info.seat]
        seat.name, seat.bot, seat.ready = info.name, info.bot, info.ready
        seat.occupant = _Elsewhere(cluster, "", "") if info.connected else None
        if info.resigned:
            table.resigned.append(info.seat)
    table.spectators = {_Elsewhere(cluster, "", "") for _ in range(s.spectators)}
    return table
