"""``Client``: one connection to a server, speaking protocol v1.

It speaks the ``kupferkessel.v1`` subprotocol (binary msgpack frames, ``protocol``
package), does the ``hello``/``welcome`` handshake (keeping the card catalogue and the
server's limits), matches replies to requests by message id and raises a typed
``ServerError`` subclass for an ``error`` reply. Everything the server sends on its own
(views, events, presence, chat, unsolicited errors, ``bye``) and the client's own
connection ``Status`` arrive through ``async for update in client.updates()``.

It keeps the connection alive with ``ping`` well below the server's ``idle_timeout``,
and when the connection drops it reconnects by itself (exponential backoff with jitter)
and takes its seat back with the seat token, or watches its table again. Tokens are
kept in a ``TokenStore`` file (see ``client.tokens``), so a new ``Client`` in a new
process can ``resume`` too. Tokens are never printed or logged.

Theory of operation: ``connect`` opens the socket and handshakes; a supervisor task then
runs one reader task and one keep-alive task per connection, and when the reader ends it
fails the pending requests with ``ConnectionLost`` and reconnects (or ends the stream).
The server handles one connection's messages in order, so a message that has no reply on
success (``ready``, ``chat``) is followed by a ``ping``: its ``pong`` proves the message
was accepted, and an ``error`` before it is raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.typing import Subprotocol

from protocol import messages as m
from protocol.codec import ProtocolError, decode_server, encode

from ..accounts import AccountStore
from ..tokens import TokenStore
from .address import normalize_url
from .errors import ClientError, ConnectionLost, ServerError
from .requests import TableRequests
from .results import Missed, Seated, Status, Update, is_update

__all__ = ["CLIENT_VERSION", "Client"]

log = logging.getLogger("kupferkessel.client")

CLIENT_VERSION = "0.1.0"

_M = TypeVar("_M", bound=BaseModel)


@dataclass
class _Pending:
    future: asyncio.Future[list[m.ServerMessage]]
    terminal: frozenset[str] | None  # reply types that complete it; None: the first reply
    replies: list[m.ServerMessage] = field(default_factory=list)


class Client(TableRequests):
    """An async client of one server: the connection's machinery; its requests are
    ``TableRequests`` (the lobby and the table) and 1.2's ``PlayerRequests``.

    ``name`` is the client's name in ``hello`` (and the default player name).
    ``tokens`` keeps seat tokens on disk (default: ``TokenStore()`` in the user's data
    directory), and the registered player beside them; with ``persist_tokens=False``
    neither is kept. ``protocol`` is
    the version said in ``hello``: 1.0 by default, the version this client's screens
    are written for (1.1 adds results, clocks and ``takes``: docs/PROTOCOL.md).
    """

    def __init__(
        self,
        url: str,
        *,
        name: str = "player",
        tokens: TokenStore | None = None,
        persist_tokens: bool = True,
        reconnect: bool = True,
        backoff: tuple[float, float] = (0.2, 10.0),
        max_attempts: int | None = None,
        open_timeout: float = 10.0,
        protocol: tuple[int, int] = m.MINOR_1_0,
    ) -> None:
        self.url = normalize_url(url)
        self.protocol = protocol
        self.name = name
        self.tokens = (tokens or TokenStore()) if persist_tokens else None
        self.accounts = AccountStore(self.tokens.directory) if self.tokens else None
        self.reconnect = reconnect
        self.backoff = backoff
        self.max_attempts = max_attempts
        self.open_timeout = open_timeout

        super().__init__(name)  # the table and seat we are at: none yet
        self.welcome: m.WelcomeMsg | None = None
        self.connected = False
        self.reconnections = 0  # how many times the connection was re-established

        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._queue: asyncio.Queue[Update | None] = asyncio.Queue()
        self._supervisor: asyncio.Task[None] | None = None
        self._closing = False
        self._final_reason: str | None = None
        self._held: list[Update] | None = None  # updates held back while catching up
        self.resumed_from: int | None = None
        """1.4: the state a seat taken back from its token on disk had been shown to
        (kept with the token, ``shown``): its missed takes, from there on, came first in
        the update stream, as after a reconnection. None: no such catch-up."""

    def __repr__(self) -> str:
        return f"<Client {self.url} table={self.table} seat={self.seat}>"

    # ------------------------------------------------------------------ properties
    @property
    def waiting(self) -> int:
        """How many updates have arrived that ``updates()`` has not yet yielded (a
        paced display falls behind a quick game by this many)."""
        return self._queue.qsize()

    @property
    def catalogue(self) -> m.Catalogue:
        assert self.welcome is not None, "connect() first"
        return self.welcome.catalogue

    @property
    def limits(self) -> m.Limits:
        assert self.welcome is not None, "connect() first"
        return self.welcome.limits

    @property
    def closed(self) -> bool:
        return self._closing or (self._supervisor is not None and self._supervisor.done())

    # ------------------------------------------------------------------ lifecycle
    async def connect(self) -> m.WelcomeMsg:
        """Open the connection and handshake; raises ``OSError`` (or a websockets
        error) if the server cannot be reached, ``ServerError`` if it refuses us."""
        await self._open()
        self._supervisor = asyncio.create_task(self._supervise())
        await self._sign_back_in()  # 1.2: the kept player, on every connection
        assert self.welcome is not None
        return self.welcome

    async def close(self) -> None:
        """Close for good: no reconnection, and the update stream ends."""
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._supervisor is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor
        else:
            self._queue.put_nowait(None)

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def updates(self) -> AsyncIterator[Update]:
        """Views, events, presence, chat, unsolicited errors, ``bye`` and connection
        ``Status``, in order of arrival; ends when the client is closed for good."""
        while True:
            item = await self._queue.get()
            if item is None:
                self._queue.put_nowait(None)  # let a second iterator end too
                return
            yield item

    # ------------------------------------------------------------------ internals
    async def _open(self) -> None:
        ws = await ws_connect(
            self.url,
            subprotocols=[Subprotocol(m.SUBPROTOCOL)],
            open_timeout=self.open_timeout,
            max_size=None,  # decode_server checks the size itself
            compression=None,
        )
        try:
            hello = m.HelloMsg(
                id=next(self._ids),
                protocol=self.protocol,
                client=self.name[:32] or "client",
                client_version=CLIENT_VERSION,
            )
            await ws.send(encode(hello))
            async with asyncio.timeout(self.open_timeout):
                reply = await self._recv(ws)
                while reply is None:
                    reply = await self._recv(ws)
            if isinstance(reply, m.ErrorMsg):
                self._final_reason = reply.code
                raise ServerError.from_message(reply)
            if not isinstance(reply, m.WelcomeMsg):
                raise ClientError(f"expected welcome, got {reply.type}")
        except BaseException:
            await ws.close()
            raise
        self.welcome = reply
        self._ws = ws
        self.connected = True

    @staticmethod
    async def _recv(ws: ClientConnection) -> m.ServerMessage | None:
        """The next message, or None for one of a newer minor version (skipped)."""
        frame = await ws.recv()
        if isinstance(frame, str):
            raise ClientError("the server sent a text frame")
        try:
            return decode_server(frame)
        except ProtocolError as e:
            if e.code == m.ErrorCode.UNKNOWN_TYPE:
                return None
            raise ClientError(f"the server sent a bad message: {e.message}") from e

    async def _send(self, msg: BaseModel) -> None:
        ws = self._ws
        if ws is None or not self.connected:
            raise ConnectionLost("not connected")
        try:
            await ws.send(encode(msg))
        except ConnectionClosed as e:
            raise ConnectionLost("the connection closed") from e

    async def _request(
        self, cls: type[_M], *, terminal: frozenset[str] | None = None, **fields: Any
    ) -> list[m.ServerMessage]:
        msg_id = next(self._ids)
        future: asyncio.Future[list[m.ServerMessage]] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = _Pending(future, terminal)
        try:
            await self._send(cls(id=msg_id, **fields))
            return await future
        finally:
            self._pending.pop(msg_id, None)

    async def _request_unanswered(self, cls: type[_M], **fields: Any) -> None:
        """Send a message the server answers only when refusing it, then a ping as a
        barrier: an error for the message arrives before the pong."""
        msg_id = next(self._ids)
        future: asyncio.Future[list[m.ServerMessage]] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = _Pending(future, frozenset())
        try:
            await self._send(cls(id=msg_id, **fields))
            await self.ping()
            if future.done():
                future.result()  # raises the error
        finally:
            self._pending.pop(msg_id, None)
            if future.done() and not future.cancelled():
                future.exception()  # retrieved: no "never retrieved" warning
            future.cancel()

    def _emit(self, item: Update) -> None:
        self._queue.put_nowait(item)

    def _dispatch(self, msg: m.ServerMessage) -> None:
        self._track(msg)
        if isinstance(msg, m.ByeMsg):
            self._final_reason = msg.reason
        pending = self._pending.get(msg.re) if msg.re is not None else None
        if pending is not None and not pending.future.done():
            if isinstance(msg, m.ErrorMsg):
                pending.future.set_exception(ServerError.from_message(msg))
                return
            pending.replies.append(msg)
            if pending.terminal is None or msg.type in pending.terminal:
                pending.future.set_result(pending.replies)
            return
        if is_update(msg):
            if self._held is not None:
                self._held.append(msg)
            else:
                self._emit(msg)

    async def _read(self, ws: ClientConnection) -> None:
        try:
            while True:
                msg = await self._recv(ws)
                if msg is not None:
                    self._dispatch(msg)
        except ConnectionClosed:
            if ws.close_code == 4001:  # the seat was resumed on another connection
                self._final_reason = "replaced"
        except ClientError as e:
            log.warning("closing: %s", e)
            self._emit(m.ErrorMsg(code="malformed", message=str(e)))
            await ws.close()
        finally:
            self.connected = False

    async def _keepalive(self, ws: ClientConnection) -> None:
        assert self.welcome is not None
        interval = max(0.5, min(30.0, self.welcome.limits.idle_timeout / 3))
        while True:
            await asyncio.sleep(interval)
            try:
                async with asyncio.timeout(interval):
                    await self.ping()
            except TimeoutError:
                log.info("no pong: dropping the connection")
                ws.transport.abort()
                return
            except ConnectionLost:
                return

    async def _restore(self) -> None:
        """After a reconnection: sign in again, take the seat back (as the player
        when no token is kept), or watch the table again; then (1.4) what was missed
        meanwhile comes first, as if watched, and the fresh view after it."""
        await self._sign_back_in()
        if self.table is None:
            return
        since = self.state_version if self.view is not None and not self.view.game_over else None
        self._held = []
        try:
            if self.seat is not None and self.player and not self.saved_table(self.table):
                await self.rejoin(self.table)
            elif self.seat is not None:
                await self.resume(self.table)
            else:
                await self.watch(self.table, invite=self.invite)
            self._emit(Status("resumed", f"table {self.table}"))
            await self._catch_up(since)
        except ServerError as e:
            self._emit(e.reply)
            self.table = self.seat = None
        except ConnectionLost:
            pass
        finally:
            held, self._held = self._held or [], None
            for update in held:
                self._emit(update)

    def shown(self, state_version: int) -> None:
        """The screen has shown our seat's game up to ``state_version``: kept with the
        seat's token on disk, so that a client started again (``resume`` from the token)
        shows the takes made since, paced, as after a reconnection."""
        table, seat = self.table, self.seat
        if self.tokens is None or table is None or seat is None:
            return
        try:
            self.tokens.keep_shown(self.url, table, seat, state_version)
        except OSError as e:
            log.warning("cannot keep the state shown: %s", type(e).__name__)

    async def resume(
        self, table: str | None = None, player: str | None = None, seat: int | None = None
    ) -> Seated:
        """Take back a seat (``TableRequests.resume``). From a token kept on disk (a
        client started again, or back from the lobby) with the last state it showed
        kept beside it, on 1.4: what was missed since that state comes first in the
        update stream (``Missed``, then each state's events), then the fresh view, as
        after a reconnection (``resumed_from`` says from where)."""
        if self.table is not None or self.tokens is None:  # a reconnection: ``_restore``
            return await super().resume(table, player, seat)
        self._held, self.resumed_from = [], None
        try:
            seated = await super().resume(table, player, seat)
            since = self.tokens.shown(self.url, seated.table, seated.seat)
            if await self._catch_up(since):
                self.resumed_from = since
            return seated
        finally:
            held, self._held = self._held or [], None
            for update in held:
                self._emit(update)

    async def _catch_up(self, since: int | None) -> bool:
        """1.4: the states missed since ``since`` into the update stream (a ``Missed``,
        then each state's events), ahead of the held-back fresh view; a held state's
        events the steps already carry are dropped. Whether it caught up."""
        assert self.welcome is not None
        if since is None or tuple(self.welcome.protocol) < (1, 4):
            return False
        try:
            missed = await self.catch_up(since)
        except ServerError as e:  # the game is not on (any more): nothing to tell
            log.info("no catch-up: %s", e.code)
            return False
        mine = [s for s in missed.steps if s.by_computer and self._took(s.events) == self.seat]
        self._emit(Missed(since, len(missed.steps), missed.omitted, len(mine)))
        for step in missed.steps:
            self._emit(
                m.EventsMsg(
                    state_version=step.state_version,
                    events=step.events,
                    by_computer=step.by_computer,
                )
            )
        assert self._held is not None
        self._held = [
            u
            for u in self._held
            if not (isinstance(u, m.EventsMsg) and u.state_version <= missed.state_version)
        ]
        return True

    @staticmethod
    def _took(events: tuple[m.GameEvent, ...]) -> int | None:
        """The seat whose take these events tell."""
        return next((e.seat for e in events if isinstance(e, m.TookEvent)), None)

    async def _supervise(self) -> None:
        first = True
        try:
            while True:
                ws = self._ws
                assert ws is not None
                reader = asyncio.create_task(self._read(ws))
                keepalive = asyncio.create_task(self._keepalive(ws))
                self._emit(Status("connected", self.url))
                if not first:
                    await self._restore()
                await reader
                keepalive.cancel()
                self._fail_pending()
                if self._closing or not self.reconnect or self._final_reason in _FINAL:
                    break
                if not await self._reconnect_loop():
                    break
                first = False
        finally:
            self.connected = False
            self._fail_pending()
            reason = self._final_reason or ("closed" if self._closing else "gave up")
            self._emit(Status("closed", reason))
            self._queue.put_nowait(None)

    async def _reconnect_loop(self) -> bool:
        delay, cap = self.backoff
        attempt = 0
        while not self._closing:
            attempt += 1
            if self.max_attempts is not None and attempt > self.max_attempts:
                return False
            self._emit(Status("reconnecting", "connection lost", attempt))
            await asyncio.sleep(delay * random.uniform(0.8, 1.2))
            delay = min(cap, delay * 2)
            try:
                await self._open()
                self.reconnections += 1
                return True
            except ServerError:
                return False
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake, ClientError) as e:
                log.info("reconnect attempt %d failed: %s", attempt, type(e).__name__)
            except InvalidURI:
                return False
        return False

    def _fail_pending(self) -> None:
        for p in list(self._pending.values()):
            if not p.future.done():
                p.future.set_exception(ConnectionLost("the connection closed"))
        self._pending.clear()


_FINAL = {"replaced", "version_unsupported", "rate_limited"}
"""``bye`` reasons after which reconnecting would not help."""
