"""One WebSocket connection: the handshake, the session's states, and the translation
between protocol messages and the lobby and tables.

The session's states and what each accepts are one table, ``ACCEPTS`` (in the manner of
h11, all of it in ``server.net.states``): a handler runs only for a message its state
accepts, and the state changes only in ``_enter``. Every refusal is a typed ``error``
answering the message's id, after which the connection carries on. The handlers of
protocol 1.2's players are ``server.players.account``'s.

What the session sends goes through its ``Transport`` (``server.net.transport``): the
frames numbered and queued in order, bounded by ``max_output``, and the close. Here are
the reading and the handlers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol import messages as m
from protocol.codec import ProtocolError, check_version, decode_client, spoken_version
from protocol.convert import options_to_shared
from protocol.jsonframes import from_json
from protocol.wire import encode_ack
from shared.errors import RuleError
from shared.game import Take

from ..config import ServerConfig
from ..core.errors import failed
from ..core.handle import TableHandle
from ..core.intents import (
    Back,
    CatchUp,
    Chat,
    Claim,
    Hint,
    Join,
    Leave,
    Play,
    Ready,
    Rematch,
    Resign,
    Resume,
    Watch,
)
from ..core.table import TableError
from ..core.tokens import hash_token
from ..figures import SessionFigures
from ..lobby.registry import Lobby
from ..logs import peer_fields
from ..players.account import PLAYER_HANDLERS, Account
from ..players.names import check_shown_text
from .conduct import UNMODERATED, Conduct
from .framing import Frame, Framing
from .peers import client_address, peer_of
from .ratelimit import RateLimiter, TokenBucket
from .states import ACCEPTS, Phase, refusal
from .summaries import TABLES_OVERHEAD, packed_size, table_summary
from .transport import (
    CLOSE_NORMAL,
    CLOSE_POLICY,
    CLOSE_REPLACED,
    CLOSE_TRY_AGAIN,
    Transport,
)

__all__ = ["Session"]

log = logging.getLogger("kupferkessel.session")


CATCH_UP_TOKENS = 3
"""Rate-limit tokens a ``catch_up`` costs beyond the one every message takes."""


def _unknown(kind: str, msg_id: int | None) -> ProtocolError:
    return ProtocolError(m.ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}", msg_id)


class Session(Framing):
    """A network occupant of a seat or a spectator place (``table.Occupant``)."""

    def __init__(
        self,
        ws: ServerConnection,
        config: ServerConfig,
        lobby: Lobby,
        welcome: m.WelcomeMsg,
        figures: SessionFigures | None = None,  # shared by the server's sessions
        conduct: Conduct = UNMODERATED,  # the operator's mutes and bans
        account: Account | None = None,  # 1.2: who it plays as (signed in or not)
    ) -> None:
        self.config = config
        self.lobby = lobby
        self.welcome = welcome
        self.ws = ws
        cfg = config
        self.figures = figures = figures or SessionFigures()
        self.conduct = conduct
        self.limiter = RateLimiter(
            cfg.limits.rate_messages / cfg.limits.rate_window,
            cfg.limits.rate_burst,
            tally=figures.rate_limited,
        )
        self.chat_bucket = TokenBucket(cfg.limits.chat_per_minute / 60, 5)
        self.phase = Phase.CONNECTED
        self.minor = 0  # the protocol minor version spoken with this client (hello)
        self.combined = False  # 1.1: one ``update`` per new state (hello.combined)
        self.table: TableHandle | None = None
        self.invite: str | None = None  # the invite code this session entered its table with
        self.name = "?"
        # the JSON subprotocol: the same messages as text frames (``protocol.jsonframes``)
        self.json = getattr(ws, "subprotocol", None) == m.JSON_SUBPROTOCOL
        self.last_seen = asyncio.get_running_loop().time()
        self.peer = peer_of(ws)
        self.address = client_address(ws, self.peer, cfg.trust_forwarded)  # quotas count by it
        self.log_extra = peer_fields(self.peer, self.address)  # and so does the log's limit
        self.account = (account or Account(None)).at(self.address, lambda: ws.state is State.OPEN)
        self.transport = Transport(
            ws,
            json=self.json,
            max_output=cfg.max_output,
            write_limit=cfg.write_limit,
            log_extra=self.log_extra,
        )

    # ------------------------------------------------------------------ sending
    def send(self, message: BaseModel | Frame, re: int | None = None) -> None:
        """Send one message (``Transport.send``): a server message model (answering
        client message ``re`` if given), or a function making the frame from its ``seq``."""
        self.transport.send(message, re)

    def error(self, code: str, message: str, re: int | None, detail: str | None = None) -> None:
        self.refuse(m.ErrorMsg(code=code, message=message, re=re, detail=detail))

    def refuse(self, error: m.ErrorMsg) -> None:
        self.figures.errors.add(
            error.code
        )  # every error sent is counted (a refusal: in handle_frame)
        self.send(error)

    def close(self, code: int, reason: str) -> None:
        """Send ``bye`` after what is queued, then close with ``code``."""
        self.transport.close(code, reason)

    @property
    def closing(self) -> bool:
        """Whether the session is closing (``close`` was called, or it ended)."""
        return self.transport.closing

    # ------------------------------------------------------------------ Occupant
    def deliver_rematch(self, table: TableHandle, new: TableHandle, seat: int | None) -> bool:
        if self.minor == 0 or self.closing:
            return False  # 1.0 knows no rematch: it stays at the finished table
        self._enter(Phase.WATCHING if seat is None else Phase.SEATED, new)
        self.send(m.RematchedMsg(table=new.id, seat=seat))
        return True

    def replaced(self, table: TableHandle, seat: int) -> None:
        self._enter(Phase.LOBBY, None)
        self.close(CLOSE_REPLACED, "replaced: this seat was resumed on another connection")

    def lost_table(self, message: str) -> None:
        """The session's table cannot be reached any more (a node of a cluster could not
        attach it to the table's new owner): ``bye`` ``moved`` and close with 1013, so
        its client connects again and resumes its seat or watches again."""
        self._enter(Phase.LOBBY, None)
        self.close(CLOSE_TRY_AGAIN, f"moved: {message}")

    # ------------------------------------------------------------------ reading
    async def run(self) -> None:
        self.transport.start()
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
                    log.warning("rate limit abuse, closing", extra=self.log_extra)
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
            await self.transport.finish()  # the writer closes after what is queued

    async def handle_frame(self, frame: str | bytes) -> None:
        if isinstance(frame, str) != self.json:
            kind = "text frames of JSON" if self.json else "binary msgpack, not text"
            self.error("malformed", f"frames must be {kind}", None)
            return
        try:
            if isinstance(frame, str):
                if len(frame) > 4 * self.config.limits.max_frame:
                    raise ProtocolError(m.ErrorCode.TOO_LARGE, "the frame is too large")
                frame = from_json(frame)
            msg = decode_client(frame, max_frame=self.config.limits.max_frame)
            if self._unknown_here(msg.type):
                raise _unknown(msg.type, msg.id)
        except ProtocolError as e:
            kind = e.message.split(":", 1)[0]
            if e.code is m.ErrorCode.INVALID_FIELD and self._unknown_here(kind):
                e = _unknown(kind, e.id)  # 1.0 never read a 1.1 message's fields
            self.refuse(e.to_message(self.minor))
            return
        try:
            await self.dispatch(msg)
        except TableError as e:  # its answer (1.3: ``retry_after``), counted as ``error`` does
            self.figures.errors.add(e.code)
            self.send(e.answer(msg.id, self.minor))
        except Exception as e:  # a bug (logged), or the store out of reach: ``failed``
            err = failed(e, log, f"internal error handling {msg.type}", self.log_extra)
            self.error(err.code, err.message, msg.id, err.detail)

    def _unknown_here(self, kind: str) -> bool:
        """Whether ``kind`` is a message of a later minor version than the one this
        connection's ``hello`` chose (``ADDED_IN``): 1.0 knows no ``claim``, ..."""
        return self.phase is not Phase.CONNECTED and m.ADDED_IN.get(kind, 0) > self.minor

    async def dispatch(self, msg: Any) -> None:
        """Run the handler of ``msg`` if this phase accepts it (``ACCEPTS``)."""
        refused = refusal(msg.type, self.phase)
        if refused is not None:
            raise refused
        await _HANDLERS[msg.type](self, msg)

    def _enter(self, phase: Phase, table: TableHandle | None) -> None:
        """The one place the session's phase (and its table) change."""
        self.phase = phase
        self.table = table

    def follow(self, table: TableHandle) -> None:
        """The session's table is served elsewhere from now on: ``table`` is the handle
        to it (a node of a cluster let go of it). Its phase, seated or watching, stays."""
        assert self.phase in (Phase.SEATED, Phase.WATCHING), self.phase
        self._enter(self.phase, table)

    # ------------------------------------------------------------------ handlers
    async def on_hello(self, msg: m.HelloMsg) -> None:
        refusal = check_version(msg)
        if refusal is not None:
            self.refuse(refusal)
            self.close(CLOSE_NORMAL, "version_unsupported: " + refusal.message)
            return
        self._enter(Phase.LOBBY, None)
        self.name = msg.client
        spoken = spoken_version(msg)
        self.minor = spoken[1]
        self.combined = msg.combined and self.minor >= 1
        welcome = self.welcome
        if spoken != tuple(welcome.protocol):  # an older client hears the version it speaks
            welcome = welcome.model_copy(update={"protocol": spoken})
        self.send(welcome, re=msg.id)
        log.info("hello", extra={**self.log_extra, "client": msg.client[:32]})

    async def on_ping(self, msg: m.PingMsg) -> None:
        self.send(m.PongMsg(), re=msg.id)

    async def on_list_tables(self, msg: m.ListTablesMsg) -> None:
        """One page of the listing (``Lobby.page``): at most ``limit`` tables (the
        server's ``list_page`` if the client sets none) and never more than
        ``max_listing_bytes`` in all, so that every client can take it; the table this
        connection is at comes first on the first page, even if private. The page is
        charged to the rate limit by its size, and refused (``rate_limited``) while the
        connection has not read half of its ``max_output`` yet: a page is only made for
        a client that reads."""
        cfg = self.config
        lobby = self.lobby
        transport = self.transport
        if transport.unread + cfg.max_listing_bytes > transport.max_output // 2:
            raise TableError("rate_limited", "read the tables already sent first")
        limit = min(msg.limit or cfg.list_page, cfg.list_page_max)
        room = cfg.max_listing_bytes - TABLES_OVERHEAD
        summaries: list[m.TableSummary] = []
        size = 0
        # 1.1: your own table first, public too, and only there; 1.0 (as 1.0 did): your
        # private table first, the public ones where they fall
        mine = self.table if self.table is not None and (self.minor or self.table.private) else None
        if msg.cursor is None and mine is not None:
            summaries.append(table_summary(mine, self.minor))
            size += packed_size(summaries[-1], self.json)
        last, more = msg.cursor, False
        for cursor, table in lobby.page(msg.cursor, limit + (mine is not None), msg.open_first):
            if mine is not None and table.id == mine.id:
                last = cursor  # listed first on the first page
                continue
            summary = table_summary(table, self.minor)
            n = packed_size(summary, self.json)
            if len(summaries) >= limit or size + n > room:
                more = True
                break
            summaries.append(summary)
            size += n
            last = cursor
        if more and last is None:  # the page held only this connection's own table
            last = ("o" if msg.open_first else "a") + "0"
        total = len({t.id for t in lobby.listing()})  # every node's, once each
        reply = m.TablesMsg(tables=tuple(summaries), next=last if more else None, total=total)
        if self.minor == 0:  # 1.0 knew no paging: its clients get the first page, as 1.0
            reply = m.TablesMsg(tables=reply.tables)
        self.send(reply, msg.id)
        self.limiter.messages.charge(size / cfg.listing_bytes_per_token)

    async def on_create_table(self, msg: m.CreateTableMsg) -> None:
        check_shown_text(msg.name, "a table's name", "name")
        o = msg.options
        try:
            options = options_to_shared(o)
        except RuleError as e:
            raise TableError("bad_options", e.message) from e
        if o.seed is not None and not self.config.allow_seeds:
            raise TableError("bad_options", "this server does not accept seeds from clients")
        seats = {b.seat for b in msg.bots}
        if len(seats) != len(msg.bots) or any(s >= o.players for s in seats):
            raise TableError("bad_options", "bots: one bot per seat, at seats of this table")
        if msg.seat is not None and (msg.seat in seats or msg.seat >= o.players):
            raise TableError("bad_options", "your seat must be a free seat of this table")
        if msg.player is not None and len(seats) >= o.players:
            raise TableError("bad_options", "no seat left for you: every seat is a bot's")
        if msg.player is not None:
            self.conduct.may_sit(self.account.seat_name(msg.player), self.address)  # before a table
        rated, timing = self.account.table_rules(msg, self.minor)  # 1.2: rated, then clocked
        table, invite = await self.lobby.create(
            msg.name,
            options,
            private=msg.private,
            bots=[(b.seat, b.level) for b in msg.bots],
            timing=timing,
            peer=self.address,
            rated=rated,
        )
        summary = table_summary(table, self.minor)
        self.send(m.TableCreatedMsg(table=summary, invite=invite), msg.id)
        if msg.player is not None:  # the creator knows the seed it chose
            await self._sit(table, msg.player, msg.seat, msg.id, seeded=True)
            self.invite = invite

    async def _sit(
        self, table: TableHandle, player: str, seat: int | None, re: int, *, seeded: bool = False
    ) -> None:
        self.account.check_join(table)  # 1.2: rated tables, one seat per player
        player = self.account.seat_name(player)
        self.conduct.may_sit(player, self.address)
        index, token = await table.apply(self, Join(player, seat, seeded, self.account.player_id()))
        self._enter(Phase.SEATED, table)
        self.name = player
        self.send(m.JoinedMsg(table=table.id, seat=index, token=token), re)
        log.info("seated", extra={**self.log_extra, "table": table.id, "seat": index})

    async def on_join(self, msg: m.JoinMsg) -> None:
        table = await self.lobby.locate(msg.table, msg.invite)
        await self._sit(table, msg.player, msg.seat, msg.id, seeded=msg.seeded)
        self.invite = msg.invite

    async def on_watch(self, msg: m.WatchMsg) -> None:
        self.conduct.may_sit(self.account.watch_name(self.name), self.address)  # who chats here
        table = await self.lobby.locate(msg.table, msg.invite)
        self.invite = msg.invite
        self._enter(Phase.WATCHING, table)
        self.send(m.WatchingMsg(table=table.id), msg.id)
        await table.apply(self, Watch())

    async def on_resume(self, msg: m.ResumeMsg) -> None:
        found = await self.lobby.locate_seat(msg.token, self.table)
        if found is None:
            raise TableError("bad_token", "that seat token is not valid on this server")
        await self.resume_seat(*found, hash_token(msg.token), msg.id)

    async def resume_seat(self, table: TableHandle, seat: int, token_hash: str, re: int) -> None:
        """Take back ``seat`` (``resume``, or 1.2's ``rejoin``), answering ``re``."""
        if self.table is not None and self.table is not table:
            raise TableError("already_seated", "leave your current table first")
        if table.seat_of(self) not in (None, seat):  # one connection, one seat
            raise TableError("already_seated", "this connection already plays another seat")
        self.conduct.may_sit(table.public_seats()[seat].name or "", self.address)
        self.send(m.ResumedMsg(table=table.id, seat=seat), re)
        self._enter(Phase.SEATED, table)
        await table.apply(self, Resume(token_hash))
        self.name = table.public_seats()[seat].name or self.name

    async def on_leave(self, msg: m.LeaveMsg) -> None:
        table = self._at_table()
        await table.apply(self, Leave())
        self._enter(Phase.LOBBY, None)
        self.send(m.LeftMsg(table=table.id), msg.id)

    def _at_table(self) -> TableHandle:
        assert self.table is not None, "ACCEPTS lets only seated or watching sessions here"
        return self.table

    async def on_ready(self, msg: m.ReadyMsg) -> None:
        await self._at_table().apply(self, Ready(msg.ready))

    async def on_take(self, msg: m.TakeMsg) -> None:
        arrived = time.perf_counter()
        take = Take(msg.card, msg.special, msg.targets, msg.keep)
        re = msg.id if self.combined else None  # combined: the take's update answers it
        taken = await self._at_table().apply(self, Play(take, msg.state_version, re))
        if not taken.answered:
            self.send(lambda seq: encode_ack(taken.version, msg.id, seq))
        self.figures.take_seconds.observe(time.perf_counter() - arrived)

    async def on_resign(self, msg: m.ResignMsg) -> None:
        version = await self._at_table().apply(self, Resign())
        self.send(m.AckMsg(state_version=version), msg.id)

    async def on_claim(self, msg: m.ClaimMsg) -> None:
        version = await self._at_table().apply(self, Claim())
        self.send(m.AckMsg(state_version=version), msg.id)

    async def on_back(self, msg: m.BackMsg) -> None:
        version = await self._at_table().apply(self, Back())
        self.send(m.AckMsg(state_version=version), msg.id)

    async def on_rematch(self, msg: m.RematchMsg) -> None:
        await self._at_table().apply(self, Rematch(msg.rematch))

    async def on_ask_hint(self, msg: m.AskHintMsg) -> None:
        """1.5: the expert's take for this seat's decision, answered by ``hint`` from
        the table; each asked counts against the address's and the player's hints
        (``Analyses.charge_hint``), given back if the table refuses it."""
        give_back = self.account.service().analyses.charge_hint(self.account.player, self.account)
        try:
            await self._at_table().apply(self, Hint(msg.id))
        except TableError:
            give_back()
            raise

    async def on_catch_up(self, msg: m.CatchUpMsg) -> None:
        """1.4: the steps after ``since``, answered by ``missed`` from the table's record
        (wherever the table is served). Refused while half of ``max_output`` is unread,
        and charged ``CATCH_UP_TOKENS`` beyond its own: a ``missed`` may be long."""
        transport = self.transport
        if transport.unread > transport.max_output // 2:
            raise TableError("rate_limited", "read what was already sent first")
        await self._at_table().apply(self, CatchUp(msg.since, msg.id))
        self.limiter.messages.charge(CATCH_UP_TOKENS)

    async def on_chat(self, msg: m.ChatMsg) -> None:
        table = self._at_table()
        if not self.chat_bucket.take():
            self.figures.rate_limited.add("chat")
            raise TableError("rate_limited", "too many chat lines: wait a moment")
        check_shown_text(msg.text, "a chat line", "text")
        self.conduct.may_chat(self.name, self.address)
        await table.apply(self, Chat(self.name, msg.text))


_HANDLERS: dict[str, Callable[[Session, Any], Awaitable[None]]] = {
    **{kind: getattr(Session, f"on_{kind}") for kind in ACCEPTS if kind not in PLAYER_HANDLERS},
    **PLAYER_HANDLERS,  # 1.2's, in ``server.players.account``
}
"""Message type -> its handler (one for every row of ``ACCEPTS``)."""
