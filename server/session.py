"""One WebSocket connection: the handshake, the session's states, and the translation
between protocol messages and the lobby and tables.

States: ``new`` (only ``hello`` allowed) -> ``lobby`` (list, create, join, watch,
resume) -> at a table as a seat or a spectator (ready, take, resign, chat, leave).
Every frame is decoded by ``protocol``; every refusal is a typed ``error`` answering
the message's id, after which the connection carries on. Outgoing messages are queued
and written by one task per connection, so a slow reader never blocks a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol import messages as m
from protocol.codec import ProtocolError, check_version, decode_client, encode
from protocol.convert import options_from_shared, options_to_shared
from protocol.wire import (
    encode_ack,
    encode_events,
    encode_message,
    encode_payload,
    encode_view,
    message_payload,
)
from shared.errors import RuleError
from shared.events import Event
from shared.game import Take
from shared.view import View

from .ratelimit import RateLimiter, TokenBucket
from .table import Table, TableError

if TYPE_CHECKING:
    from .app import Server

__all__ = ["Session"]

log = logging.getLogger("kupferkessel.session")

CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008
CLOSE_TRY_AGAIN = 1013
CLOSE_REPLACED = 4001  # application code: the seat was resumed on another connection


class Session:
    """A network occupant of a seat or a spectator place (``table.Occupant``)."""

    def __init__(self, server: Server, ws: ServerConnection) -> None:
        self.server = server
        self.ws = ws
        cfg = server.config
        self.limiter = RateLimiter(
            cfg.limits.rate_messages / cfg.limits.rate_window, cfg.limits.rate_burst
        )
        self.chat_bucket = TokenBucket(cfg.limits.chat_per_minute / 60, 5)
        self.state = "new"
        self.table: Table | None = None
        self.name = "?"
        self.seq = 0
        self.out: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.closing = False
        self._writing = False  # the writer task holds frames: new ones queue behind them
        self._flush_soon = False
        self._pending: list[bytes] = []  # framed by _put, written by _flush
        self._raw: bool | None = None  # frame messages ourselves (no extension)
        self._write_buffer = cfg.write_buffer
        self.last_seen = asyncio.get_running_loop().time()
        self.peer = _peer(ws)

    # ------------------------------------------------------------------ sending
    def send(self, msg: BaseModel, re: int | None = None) -> None:
        if not self._room():
            return
        self.seq += 1
        self._put(encode_message(msg, self.seq, re))

    def _put(self, *frames: bytes) -> None:
        """Send a frame at once while the socket keeps up (no queue, no task switch);
        otherwise queue it behind the others for the writer task, which waits for the
        socket to drain. Frames always leave in order.

        The fast path frames the message itself: an unmasked, unfragmented binary frame
        (RFC 6455 section 5.2), exactly what ``websockets`` writes for it, built in a
        fraction of the time. The frames of one loop turn leave in one write. It is
        used only with no extension negotiated (no compression); with one, frames go
        through the library's protocol object."""
        ws = self.ws
        if (
            not self._writing
            and self.out.empty()
            and ws.protocol.state is State.OPEN
            and ws.transport.get_write_buffer_size() < self._write_buffer
        ):
            if self._raw is None:
                self._raw = not ws.protocol.extensions
            pending = self._pending
            for data in frames:
                if self._raw:
                    pending += (frame_head(len(data)), data)
                else:
                    ws.protocol.send_binary(data)
            if not self._flush_soon:  # one write for every frame of this loop turn
                self._flush_soon = True
                self.server.flush_soon(self)
            return
        self._flush()  # what is pending goes first
        for data in frames:
            self.out.put_nowait(data)

    def _flush(self) -> None:
        """Write out the frames made since the last flush in one system call (the
        events, view and ack of a take leave together, each still its own frame). If
        the connection stopped being open meanwhile (a close frame went out), frames
        are dropped: nothing may follow a close frame."""
        self._flush_soon = False
        pending, self._pending = self._pending, []
        ws = self.ws
        chunks = [] if self._raw else ws.protocol.data_to_send()  # raw: nothing there
        if pending and ws.protocol.state is State.OPEN:
            chunks += pending
        if chunks and not ws.transport.is_closing():
            ws.transport.write(b"".join(chunks))

    def _room(self) -> bool:
        """Whether another message may be queued; closes a client that reads too slowly."""
        if self.closing:
            return False
        if self.out.qsize() >= self.server.config.max_queue:
            log.warning("client too slow, closing", extra={"peer": self.peer})
            while not self.out.empty():  # drop the backlog: bye and the close go out next
                self.out.get_nowait()
            self.close(CLOSE_TRY_AGAIN, "too_slow: outgoing queue full")
            return False
        return True

    def error(self, code: str, message: str, re: int | None, detail: str | None = None) -> None:
        self.send(m.ErrorMsg(code=code, message=message, re=re, detail=detail))

    def close(self, code: int, reason: str) -> None:
        """Send ``bye`` (for our own reasons) then close with ``code``."""
        if self.closing:
            return
        self.closing = True
        self._flush()  # frames already made leave before the bye
        self.seq += 1  # not through send(): past max_queue it would call close() again
        bye = m.ByeMsg(reason=reason.split(":")[0], message=reason)
        self.out.put_nowait(encode(bye, seq=self.seq))
        self.out.put_nowait(None)
        self._close_code = (code, reason)

    async def _writer(self) -> None:
        while True:
            self._writing = not self.out.empty()
            data = await self.out.get()
            self._writing = True
            if data is None:
                code, reason = getattr(self, "_close_code", (1000, ""))
                with contextlib.suppress(Exception):
                    await self.ws.close(code, reason[:120])
                return
            try:
                await self.ws.send(data)
            except ConnectionClosed:
                return

    # ------------------------------------------------------------------ Occupant
    def deliver_view(self, table: Table, view: View, version: int) -> None:
        if self._room():
            self.seq += 1
            self._put(encode_view(view, version, self.seq))

    def deliver_update(
        self, table: Table, events: Sequence[Event], view: View, version: int
    ) -> None:
        if not self._room():
            return
        if events:
            self.seq += 2
            first = encode_events(events, version, self.seq - 1)
            self._put(first, encode_view(view, version, self.seq))
        else:
            self.seq += 1
            self._put(encode_view(view, version, self.seq))

    def deliver_presence(self, table: Table) -> None:
        if self._room():
            self.seq += 1
            self._put(encode_payload(_presence_payload(table), self.seq))

    def deliver_chat(self, table: Table, seat: int | None, name: str, text: str) -> None:
        self.send(m.ChatLineMsg(seat=seat, name=name, text=text))

    def deliver_finished(self, table: Table, reason: str, seat: int | None) -> None:
        """The table is finished: presence says so (after a game over the final view,
        with every kettle revealed, has already been sent)."""
        self.deliver_presence(table)

    def replaced(self, table: Table, seat: int) -> None:
        self.table = None
        self.state = "lobby"
        self.close(CLOSE_REPLACED, "replaced: this seat was resumed on another connection")

    # ------------------------------------------------------------------ reading
    async def run(self) -> None:
        writer = asyncio.create_task(self._writer())
        loop = asyncio.get_running_loop()
        recv = self.ws.recv
        try:
            while True:  # ``async for`` over the connection, minus its generator
                frame = await recv()
                self.last_seen = loop.time()  # the server's idle watch reads it
                if self.closing:
                    break
                verdict = self.limiter.check()
                if verdict == "abuse":
                    log.warning("rate limit abuse, closing", extra={"peer": self.peer})
                    self.close(CLOSE_POLICY, "rate_limited: sustained flooding")
                    break
                if verdict == "limited":
                    self.error("rate_limited", "too many messages: slow down", None)
                    continue
                await self.handle_frame(frame)
        except ConnectionClosed:
            pass
        finally:
            if self.table is not None:
                self.table.detach(self)
                self.table = None
            if not self.closing:
                self.closing = True
                self.out.put_nowait(None)
            # Keep reading (and discarding) while the writer closes: a flooding client
            # fills the incoming buffer, reading pauses, and the closing handshake would
            # otherwise hang until websockets' close_timeout.
            drain = asyncio.create_task(self._drain())
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            drain.cancel()

    async def _drain(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                await self.ws.recv()

    async def handle_frame(self, frame: str | bytes) -> None:
        if isinstance(frame, str):
            self.error("malformed", "frames must be binary msgpack, not text", None)
            return
        try:
            msg = decode_client(frame, max_frame=self.server.config.limits.max_frame)
        except ProtocolError as e:
            self.send(e.to_message())
            return
        try:
            await self.dispatch(msg)
        except TableError as e:
            self.error(e.code, e.message, msg.id, e.detail)
        except Exception:
            log.exception("internal error handling %s", msg.type, extra={"peer": self.peer})
            self.error("internal", "the server failed to handle this message", msg.id)

    async def dispatch(self, msg: Any) -> None:
        kind = msg.type
        if self.state == "new":
            if kind != "hello":
                raise TableError("hello_required", "send hello first")
            await self.on_hello(msg)
            return
        handler = _HANDLERS.get(kind)
        if handler is None or kind == "hello":
            raise TableError("not_allowed", f"{kind} is not allowed now")
        await handler(self, msg)

    # ------------------------------------------------------------------ handlers
    async def on_hello(self, msg: m.HelloMsg) -> None:
        refusal = check_version(msg)
        if refusal is not None:
            self.send(refusal)
            self.close(1000, "version_unsupported: " + refusal.message)
            return
        self.state = "lobby"
        self.name = msg.client
        self.send(self.server.welcome, re=msg.id)
        log.info("hello", extra={"peer": self.peer, "client": msg.client[:32]})

    async def on_ping(self, msg: m.PingMsg) -> None:
        self.send(m.PongMsg(), re=msg.id)

    async def on_list_tables(self, msg: m.ListTablesMsg) -> None:
        tables = self.server.lobby.listing()
        if self.table is not None and self.table not in tables:
            tables.append(self.table)
        self.send(m.TablesMsg(tables=tuple(table_summary(t) for t in tables)), msg.id)

    def _need_free(self) -> None:
        if self.table is not None:
            raise TableError("already_seated", "leave your current table first")

    async def on_create_table(self, msg: m.CreateTableMsg) -> None:
        self._need_free()
        o = msg.options
        try:
            options = options_to_shared(o)
        except RuleError as e:
            raise TableError("bad_options", e.message) from e
        if o.seed is not None and not self.server.config.allow_seeds:
            raise TableError("bad_options", "this server does not accept seeds from clients")
        seats = {b.seat for b in msg.bots}
        if len(seats) != len(msg.bots) or any(s >= o.players for s in seats):
            raise TableError("bad_options", "bots: one bot per seat, at seats of this table")
        if msg.seat is not None and (msg.seat in seats or msg.seat >= o.players):
            raise TableError("bad_options", "your seat must be a free seat of this table")
        if msg.player is not None and len(seats) >= o.players:
            raise TableError("bad_options", "no seat left for you: every seat is a bot's")
        table, invite = await self.server.lobby.create(
            msg.name, options, private=msg.private, bots=[(b.seat, b.level) for b in msg.bots]
        )
        self.send(m.TableCreatedMsg(table=table_summary(table), invite=invite), msg.id)
        if msg.player is not None:
            await self._sit(table, msg.player, msg.seat, msg.id)

    async def _sit(self, table: Table, player: str, seat: int | None, re: int) -> None:
        index, token = await table.join(player, self, seat)
        self.table = table
        self.state = "seated"
        self.name = player
        self.send(m.JoinedMsg(table=table.id, seat=index, token=token), re)
        log.info("seated", extra={"peer": self.peer, "table": table.id, "seat": index})

    async def on_join(self, msg: m.JoinMsg) -> None:
        self._need_free()
        table = self.server.lobby.get(msg.table)
        table.check_invite(msg.invite)
        await self._sit(table, msg.player, msg.seat, msg.id)

    async def on_watch(self, msg: m.WatchMsg) -> None:
        self._need_free()
        table = self.server.lobby.get(msg.table)
        table.check_invite(msg.invite)
        self.table = table
        self.state = "watching"
        self.send(m.WatchingMsg(table=table.id), msg.id)
        table.watch(self)

    async def on_resume(self, msg: m.ResumeMsg) -> None:
        found = self.server.lobby.find_seat(msg.token)
        if found is None:
            raise TableError("bad_token", "that seat token is not valid on this server")
        table, _ = found
        if self.table is not None and self.table is not table:
            raise TableError("already_seated", "leave your current table first")
        if table.seat_of(self) not in (None, found[1]):  # one connection, one seat
            raise TableError("already_seated", "this connection already plays another seat")
        self.send(m.ResumedMsg(table=table.id, seat=found[1]), msg.id)
        self.table = table
        self.state = "seated"
        seat = table.resume(table.seats[found[1]].token_hash or "", self)
        self.name = table.seats[seat].name or self.name

    async def on_leave(self, msg: m.LeaveMsg) -> None:
        table = self._at_table()
        await table.leave(self)
        self.table = None
        self.state = "lobby"
        self.send(m.LeftMsg(table=table.id), msg.id)

    def _at_table(self) -> Table:
        if self.table is None:
            raise TableError("not_seated", "you are not at a table")
        return self.table

    async def on_ready(self, msg: m.ReadyMsg) -> None:
        await self._at_table().set_ready(self, msg.ready)

    async def on_take(self, msg: m.TakeMsg) -> None:
        take = Take(msg.card, msg.special, msg.targets, msg.keep)
        version = await self._at_table().take(self, take, msg.state_version)
        if self._room():
            self.seq += 1
            self._put(encode_ack(version, msg.id, self.seq))

    async def on_resign(self, msg: m.ResignMsg) -> None:
        await self._at_table().resign(self)
        self.send(m.AckMsg(state_version=self._at_table().version), msg.id)

    async def on_chat(self, msg: m.ChatMsg) -> None:
        table = self._at_table()
        if not self.chat_bucket.take():
            raise TableError("rate_limited", "too many chat lines: wait a moment")
        table.chat(self, self.name, msg.text)


_HANDLERS: dict[str, Callable[[Session, Any], Awaitable[None]]] = {
    name.removeprefix("on_"): handler
    for name, handler in vars(Session).items()
    if name.startswith("on_")
}
"""Message type -> its handler, found once rather than by name on every message."""


def table_summary(table: Table) -> m.TableSummary:
    """A table as the lobby shows it (public facts only: never a token or the seed)."""
    return m.TableSummary(
        id=table.id,
        name=table.name,
        private=table.private,
        state=table.state,  # type: ignore[arg-type]
        options=options_from_shared(table.options),
        seats=seat_infos(table),
        spectators=len(table.spectators),
    )


def _seat_facts(table: Table) -> list[dict[str, Any]]:
    """Each seat as ``SeatInfo`` shows it (public facts only)."""
    return [
        {
            "seat": s.index,
            "name": s.name,
            "connected": s.occupant is not None,
            "bot": s.bot,
            "ready": s.ready,
            "resigned": s.index == table.resigned,
        }
        for s in table.seats
    ]


def seat_infos(table: Table) -> tuple[m.SeatInfo, ...]:
    return tuple(m.SeatInfo(**facts) for facts in _seat_facts(table))


def presence_message(table: Table) -> m.PresenceMsg:
    return m.PresenceMsg(
        table=table.id,
        state=table.state,  # type: ignore[arg-type]
        seats=seat_infos(table),
        spectators=len(table.spectators),
    )


_last_presence: tuple[tuple[Any, ...], dict[str, Any]] | None = None


def _presence_payload(table: Table) -> dict[str, Any]:
    """A presence broadcast goes to every occupant: build it once (it is rebuilt when
    anything it shows has changed)."""
    global _last_presence
    key = (
        table.id,
        table.state,
        table.resigned,
        len(table.spectators),
        tuple((s.name, s.occupant is not None, s.bot, s.ready) for s in table.seats),
    )
    if _last_presence is None or _last_presence[0] != key:
        source = {
            "table": table.id,
            "state": table.state,
            "seats": _seat_facts(table),
            "spectators": len(table.spectators),
            "seq": 0,
            "re": None,
        }
        _last_presence = (key, message_payload(m.PresenceMsg, source))
    return _last_presence[1]


def frame_head(n: int) -> bytes:
    """The header of a final, unmasked binary frame of ``n`` payload bytes (a server's
    frames are never masked), as RFC 6455 section 5.2 lays it out."""
    if n < 126:
        return bytes((0x82, n))
    if n < 0x10000:
        return b"\x82\x7e" + n.to_bytes(2, "big")
    return b"\x82\x7f" + n.to_bytes(8, "big")


def _peer(ws: ServerConnection) -> str:
    try:
        addr = ws.remote_address
        return f"{addr[0]}:{addr[1]}"
    except Exception:
        return "?"
