"""A session's side of a table another node serves.

A session on node A at a table owned by node B holds a ``RemoteTable``: a
``TableHandle`` (``server.core.handle``) whose ``apply`` sends the intent as it is to B
(an ``IntentFor``, through the ``Bus``) and waits for B's answer; what does not answer
(watch, resume, chat, detach) is sent in order with the rest. ``Forwarding`` keeps
every such handle of this node (by its ``handle_id``, which the messages between nodes
carry as ``sid``), the calls waiting for their answers, and follows the tables' owners:
when one changes, its sessions attach again to the new owner (a fresh view follows)
and their intents in flight are answered as lost (``stale_state`` for a take).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis

from ..core.errors import CLUSTER_UNAVAILABLE, unavailable
from ..core.handle import PublicSeat, TableHandle, next_serial
from ..core.intents import (
    Back,
    Chat,
    Claim,
    Detach,
    Intent,
    Join,
    Leave,
    Play,
    Resign,
    Resume,
    Taken,
    Watch,
)
from ..core.restore import seats_from_stored, timing_from_stored
from ..core.roles import Occupant
from ..core.table import LOBBY, TableError
from ..core.tokens import hash_token, invite_admits
from ..lobby.registry import rematch_name
from ..net.framing import Framing
from ..net.session import Session
from ..store import StoredSeat, StoredTable
from .bus import Bus
from .messages import (
    FrameFor,
    IntentFor,
    NodeMessage,
    Reconnected,
    Refused,
    Rematched,
    Replaced,
    Reply,
    encode,
)
from .wire import lease_key, reachable, text, with_seq

__all__ = ["Forwarding", "RemoteTable"]

log = logging.getLogger("kupferkessel.cluster")


class RemoteTable:
    """On a session's node: a table another node owns, as the session sees it (a
    ``TableHandle``). Each intent goes to the owner as it is and waits for its answer;
    what does not answer (watch, resume, chat, detach) is sent in order with the rest. One per
    session and table; its facts are what the store said when the session found it
    (``stored``), with the session's own seat kept up to date."""

    def __init__(self, forwarding: Forwarding, st: StoredTable, owner: str | None) -> None:
        self.forwarding = forwarding
        self.owner = owner
        self.stored = st
        self.id, self.name, self.options = st.id, st.name, st.options
        self.private, self.invite_hash, self.created = st.private, st.invite_hash, st.created
        self.state, self.rated = st.state, st.rated
        self.timing = timing_from_stored(st)
        self.seats = seats_from_stored(st)
        self.serial = next_serial()
        self.version = 0  # the state version the owner last answered with
        self.session: Occupant[TableHandle] | None = None
        self.handle_id = forwarding.new_handle_id()
        self.role: tuple[str, Any] | None = None  # ("seat", token hash) or ("watch", None)
        self.session_protocol = (0, False)  # its minor version, combined (set by bind)
        self.my_seat: int | None = None
        self.invite: str | None = None  # the code the session gave (the owner checks it too)

    # the table's facts (``TableFacts``), as stored
    @property
    def open(self) -> bool:
        return self.state == LOBBY and any(not s.taken for s in self.seats)

    @property
    def seeded(self) -> bool:
        return self.options.seed is not None

    @property
    def spectator_count(self) -> int:
        return 0  # unknown here: the owner's presence messages tell the session

    def public_seats(self) -> list[PublicSeat]:
        return [
            PublicSeat(
                s.index,
                s.name,
                s.index == self.my_seat,
                s.bot,
                s.ready,
                False,
                registered=s.player is not None,
            )
            for s in self.seats
        ]

    def invite_ok(self, code: str | None) -> bool:
        return invite_admits(self.private, self.invite_hash, code)

    async def apply(self, occupant: Occupant[TableHandle], intent: Intent) -> Any:
        """Forward ``intent`` to the owner as it is, and answer what its table returned;
        joining, watching, resuming, leaving and detaching also bind the session to this
        handle or release it."""
        match intent:
            case Join(name, _, _, player_id):
                self.bind(occupant)
                try:
                    index, token = await self._call(intent)
                except BaseException:
                    self.forwarding.unbind(self)
                    raise
                th = hash_token(token)
                self.my_seat, self.role = index, ("seat", th)
                self.seats[index].name, self.seats[index].token_hash = name, th
                self.seats[index].player = player_id
                return int(index), str(token)
            case Watch():
                self.bind(occupant)
                self.role = ("watch", None)
                self._cast(intent)
            case Resume(token_hash):
                return self._resume(token_hash, occupant)
            case Leave():
                try:
                    await self._call(intent)
                finally:
                    self.forwarding.unbind(self)
            case Detach():
                self.detach(occupant)
            case Chat():
                self._cast(intent)
            case Play():
                answer = await self.forwarding.call(self, intent)
                self.version = int(answer.result)
                return Taken(self.version, bool(answer.answered))
            case Resign() | Claim() | Back():
                self.version = int(await self._call(intent))
                return self.version
            case _:  # the rest answers nothing a session uses
                return await self._call(intent)
        return None

    # the session's view of itself
    def seat_of(self, occupant: Occupant[TableHandle]) -> int | None:
        return self.my_seat if occupant is self.session else None

    def bind(self, occupant: Occupant[TableHandle]) -> None:
        """Make ``occupant`` this handle's session, heard of by this node's forwarding
        from now on."""
        self.session = occupant
        # the protocol the session speaks: the owner frames for it accordingly
        self.session_protocol = (
            occupant.minor,
            isinstance(occupant, Framing) and occupant.combined,
        )
        self.forwarding.bind(self)

    def message(self, intent: Intent, rid: int | None = None) -> IntentFor:
        """The message carrying this session's ``intent`` to the owner (``rid``: the
        request it answers, from this node)."""
        minor, combined = self.session_protocol
        front = None if rid is None else self.forwarding.node
        return IntentFor(intent, self.id, self.handle_id, rid, front, minor, combined, self.invite)

    async def _call(self, intent: Intent) -> Any:
        """Send ``intent`` to the owner and wait for what its table returned."""
        return (await self.forwarding.call(self, intent)).result

    def _cast(self, intent: Intent) -> None:
        """Send ``intent`` to the owner, in order with the rest; no answer comes."""
        if self.owner is not None:
            self.forwarding.bus.send(self.owner, encode(self.message(intent)))
            self.forwarding.forwarded += 1

    def _resume(self, token_hash: str, occupant: Occupant[TableHandle]) -> int:
        for s in self.seats:
            if s.token_hash == token_hash:
                self.bind(occupant)
                self.my_seat, self.role = s.index, ("seat", token_hash)
                self._cast(Resume(token_hash))
                return s.index
        raise TableError("bad_token", "that seat token is not valid here")

    def rematched(self, table_id: str, created: float, seat: int | None, seats: list[Any]) -> bool:
        """The owner started this table's rematch at ``table_id`` and moved the session
        there (at ``seat``; None: it watches): it becomes the session's remote table, under
        the same ``handle_id``. False if the session cannot follow (it is closing)."""
        session = self.session
        if session is None:
            return False
        token_hash = self.role[1] if seat is not None and self.role is not None else None
        st = dataclasses.replace(  # as the owner made it (``Lobby.rematch``)
            self.stored,
            id=table_id,
            name=rematch_name(self.name),
            options=self.options.replace(seed=None),
            created=created,
            state=LOBBY,
            finished=None,
            record=None,
            life=None,
            seats=[  # the session's token opens its new seat
                StoredSeat(i, name, token_hash if i == seat else None, bot)
                for i, (name, bot) in enumerate(seats)
                if name
            ],
        )
        new = RemoteTable(self.forwarding, st, self.owner)
        new.handle_id, new.invite, new.role, new.my_seat = (
            self.handle_id,
            self.invite,
            self.role,
            seat,
        )
        self.forwarding.rebind(self, new, session)
        if session.deliver_rematch(self, new, seat):
            return True
        self.forwarding.unbind(new)
        return False

    def reattach(self) -> None:
        """Attach again to a new owner (it sends a fresh view and presence)."""
        if self.role is None:
            return
        if self.role[0] == "seat":
            self._cast(Resume(self.role[1]))
        else:
            self._cast(Watch())

    def detach(self, occupant: Occupant[TableHandle]) -> None:
        self._cast(Detach())
        self.forwarding.unbind(self)


if TYPE_CHECKING:  # mypy proves that a remote table is a handle (``server.core.handle``)
    _a_remote_table_is_a_handle: type[TableHandle] = RemoteTable


class Forwarding:
    """This node's sessions at tables other nodes serve: their handles, their calls."""

    def __init__(self, node: str, bus: Bus, redis: aioredis.Redis, lease: float) -> None:
        self.node = node
        self.bus = bus
        self.redis = redis
        self.lease = lease
        self.proxies: dict[str, RemoteTable] = {}  # handle_id -> a session's remote table
        self._handle_ids = 0
        self._rid = 0
        # requests waiting for their reply: the session's remote table they are for
        # (None: the operator's, ``ask``)
        self._pending: dict[int, tuple[asyncio.Future[Reply], RemoteTable | None]] = {}
        self.forwarded = 0  # intents sent to the tables' owners (for the metrics)
        bus.dropped = self.dropped

    def new_handle_id(self) -> str:
        self._handle_ids += 1
        return str(self._handle_ids)

    def refused(self, msg: Refused) -> None:
        """The owner would not attach a session of ours again: rather than leave it
        waiting for frames that never come, it is closed with ``bye`` ``moved`` (its
        client connects again and resumes or watches anew)."""
        proxy = self.proxies.get(msg.handle_id)
        if proxy is None or proxy.id != msg.table:
            return
        self.unbind(proxy)
        log.warning(
            "session could not follow its table", extra={"table": proxy.id, "code": msg.code}
        )
        session = proxy.session
        if isinstance(session, Session):
            session.lost_table(f"the table moved to another node, which refused: {msg.message}")

    def bind(self, proxy: RemoteTable) -> None:
        self.proxies[proxy.handle_id] = proxy

    def rebind(self, old: RemoteTable, new: RemoteTable, session: Occupant[TableHandle]) -> None:
        """``new`` replaces ``old`` for its session (a rematch), with the intents in
        flight (the vote that started the rematch is answered after it)."""
        new.session, new.session_protocol = session, old.session_protocol
        self.proxies[new.handle_id] = new
        for rid, (fut, p) in list(self._pending.items()):
            if p is old:
                self._pending[rid] = (fut, new)

    def unbind(self, proxy: RemoteTable) -> None:
        self.proxies.pop(proxy.handle_id, None)
        for rid, (fut, p) in list(self._pending.items()):
            if p is proxy and not fut.done():
                fut.cancel()
                del self._pending[rid]

    async def call(self, proxy: RemoteTable, intent: Intent) -> Reply:
        """Send ``intent`` to the table's owner and wait for its answer (``result``: what
        the table returned); a refusal is raised as the ``TableError`` the owner's table
        raised."""
        take = isinstance(intent, Play)
        for _ in range(2):  # once more after the table moved
            if not self.bus.up:  # Redis cannot be reached: the intent cannot travel
                raise unavailable(CLUSTER_UNAVAILABLE)
            if proxy.owner is None:
                await self._await_owner(proxy)
            self._rid += 1
            rid = self._rid
            fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
            self._pending[rid] = (fut, proxy)
            assert proxy.owner is not None
            self.bus.send(proxy.owner, encode(proxy.message(intent, rid)))
            self.forwarded += 1
            try:
                answer = await asyncio.wait_for(fut, self.lease * 4)
            except _CutOff:
                raise unavailable(CLUSTER_UNAVAILABLE) from None
            except (TimeoutError, asyncio.CancelledError) as e:
                self._pending.pop(rid, None)
                raise self._lost(take) from e
            if answer.moved:
                self.moved(proxy.id, proxy)
                continue
            if answer.error is not None:
                raise TableError(*answer.error, **answer.particulars)
            return answer
        raise self._lost(take)

    async def ask(
        self, node: str, request: Callable[[int], NodeMessage], timeout: float | None = None
    ) -> Reply:
        """Send node ``node`` the request ``request(rid)`` and wait for its reply
        (``TimeoutError`` after ``timeout`` seconds, by default four leases)."""
        self._rid += 1
        rid = self._rid
        fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._pending[rid] = (fut, None)
        self.bus.send(node, encode(request(rid)))
        try:
            return await asyncio.wait_for(fut, self.lease * 4 if timeout is None else timeout)
        finally:
            self._pending.pop(rid, None)

    @staticmethod
    def _lost(take: bool) -> TableError:
        if take:
            return TableError(
                "stale_state", "the table moved to another node: decide again on its fresh view"
            )
        return TableError("internal", "the table moved to another node: try again")

    def cut_off(self) -> None:
        """Our channel to the other nodes is lost: the intents in flight are answered
        at once (not after four leases, nor later as moved), ``cluster_unavailable``:
        whether one reached its table is not known, and the fresh view that follows
        once Redis is back (``attach_again``) shows it."""
        for rid, (fut, _) in list(self._pending.items()):
            if not fut.done():
                del self._pending[rid]
                fut.set_exception(_CutOff())

    async def _await_owner(self, proxy: RemoteTable) -> None:
        deadline = time.monotonic() + self.lease * 3
        while proxy.owner is None and time.monotonic() < deadline:
            async with reachable("owner"):
                owner = await self.redis.get(lease_key(proxy.id))
            if owner is not None:
                self.owner_changed(proxy.id, text(owner))
                break
            await asyncio.sleep(self.lease / 6)
        if proxy.owner is None:
            raise self._lost(False)

    def moved(self, table_id: str, proxy: RemoteTable | None) -> None:
        """The owner says it no longer serves the table: find the new one."""
        for p in self.proxies.values():
            if p.id == table_id:
                p.owner = None
        if proxy is not None:
            proxy.owner = None

    def owner_changed(self, table_id: str, owner: str) -> None:
        for p in list(self.proxies.values()):
            if p.id == table_id and p.owner != owner:
                old = p.owner
                p.owner = owner
                if old is not None or p.role is not None:
                    self.attach_again([p])

    def attach_again(self, proxies: list[RemoteTable]) -> None:
        """Attach remote sessions again to their tables' owners (a fresh view each);
        their intents in flight are answered as lost (``stale_state`` for a take:
        decide again on the fresh view)."""
        for p in proxies:
            for rid, (fut, q) in list(self._pending.items()):
                if q is p and not fut.done():
                    del self._pending[rid]
                    fut.set_exception(self._lost(True))
            p.reattach()

    # ------------------------------------------------------------- from the owners
    def frame(self, src: str, msg: FrameFor) -> None:
        """A frame the owner made for one of our sessions (with ``seq`` 0), from node
        ``src``. One from a node that does not own the session's table (any more) is
        dropped: a node paused past its lease publishes, when it wakes, what it made
        before, after the new owner's fresh view, and the session would be shown a past
        state last (a seat told it is to move in a state long gone)."""
        proxy = self.proxies.get(msg.handle_id)
        if proxy is None or not isinstance(proxy.session, Session):
            return
        if proxy.owner is not None and proxy.owner != src:
            return  # (no owner known: being attached again, a fresh view follows)
        proxy.session.send(functools.partial(with_seq, msg.frame))

    def replied(self, msg: Reply) -> None:
        """The owner's answer to a call."""
        pending = self._pending.pop(msg.rid, None)
        if pending is not None and not pending[0].done():
            pending[0].set_result(msg)

    def replaced(self, msg: Replaced) -> None:
        """The owner says another connection resumed a session's seat."""
        proxy = self.proxies.pop(msg.handle_id, None)
        if proxy is not None and proxy.session is not None:
            proxy.session.replaced(proxy, msg.seat)

    def rematched(self, src: str, msg: Rematched) -> None:
        """The owner started a rematch and moved a session there; one that cannot
        follow is detached from the new table."""
        proxy = self.proxies.get(msg.handle_id)
        if proxy is None or not proxy.rematched(msg.table, msg.created, msg.seat, msg.seats):
            self.bus.send(src, encode(IntentFor(Detach(), msg.table, msg.handle_id)))

    def dropped(self, nodes: list[str]) -> None:
        """What we sent ``nodes`` (``"*"``: every node) was dropped: Redis did not take it
        within a lease (it was slow, or this node was paused), while every channel may
        have stayed up. As after a lost channel, our sessions at their tables attach
        again (a fresh view each, their intents in flight answered as lost), and they
        are told to attach theirs at ours again (``Reconnected``): nobody waits for a
        frame or an answer that was lost."""
        every = "*" in nodes
        self.attach_again([p for p in self.proxies.values() if every or p.owner in nodes])
        for node in ["*"] if every else nodes:
            self.bus.send(node, encode(Reconnected()))

    def reconnected(self, src: str) -> None:
        """Node ``src`` is back on its channel: what we sent it meanwhile was lost."""
        self.attach_again([p for p in self.proxies.values() if p.owner == src])


class _CutOff(Exception):
    """The answer to a call cannot come: our channel was lost (``Forwarding.cut_off``)."""
