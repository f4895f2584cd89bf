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
from collections.abc import AsyncIterator, Sequence
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
from .errors import BadToken, ClientError, ConnectionLost, ServerError
from .players import PlayerRequests
from .results import Seated, Status, TableCreated, Update, is_update

__all__ = ["CLIENT_VERSION", "Client"]

log = logging.getLogger("kupferkessel.client")

CLIENT_VERSION = "0.1.0"

_M = TypeVar("_M", bound=BaseModel)


@dataclass
class _Pending:
    future: asyncio.Future[list[m.ServerMessage]]
    terminal: frozenset[str] | None  # reply types that complete it; None: the first reply
    replies: list[m.ServerMessage] = field(default_factory=list)


class Client(PlayerRequests):
    """An async client of one server (1.2's players: ``PlayerRequests``).

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

        self.welcome: m.WelcomeMsg | None = None
        self.table: str | None = None  # the table we sit at or watch
        self.seat: int | None = None  # our seat, None when watching or in the lobby
        self.invite: str | None = None  # the invite code of the table we are at, if any
        self.view: m.GameView | None = None  # the latest view
        self.state_version = 0  # the state version of the latest view
        self.presence: m.PresenceMsg | None = None
        self.connected = False
        self.reconnections = 0  # how many times the connection was re-established

        self._player = name  # the player name of our seat (saved with its token)
        self.__token: str | None = None  # name-mangled: never in a repr or a traceback
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._queue: asyncio.Queue[Update | None] = asyncio.Queue()
        self._supervisor: asyncio.Task[None] | None = None
        self._closing = False
        self._final_reason: str | None = None

    def __repr__(self) -> str:
        return f"<Client {self.url} table={self.table} seat={self.seat}>"

    # ------------------------------------------------------------------ properties
    @property
    def waiting(self) -> int:
        """Updates arrived that ``updates()`` has not yet yielded (how far behind)."""
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

    # ------------------------------------------------------------------ requests
    async def list_tables(self) -> tuple[m.TableSummary, ...]:
        (reply,) = await self._request(m.ListTablesMsg)
        assert isinstance(reply, m.TablesMsg)
        return reply.tables

    async def create_table(
        self,
        name: str,
        options: m.TableOptions | None = None,
        *,
        private: bool = False,
        bots: Sequence[tuple[int, str]] = (),
        player: str | None = None,
        seat: int | None = None,
        timing: m.Timing | None = None,
        rated: bool = False,
    ) -> TableCreated:
        """Create a table with ``options``; ``bots`` lists (seat, level) pairs for
        server-side bots. With ``player`` you sit down too (``seat`` or the first free).
        ``timing`` (1.1): a clock per move and the grace period for absent players;
        ``rated`` (1.2, signed in): the game updates its players' ratings."""
        if player is not None:
            self._player = player
        replies = await self._request(
            m.CreateTableMsg,
            terminal=frozenset({"joined"}) if player is not None else None,
            name=name,
            private=private,
            options=options or m.TableOptions(),
            bots=tuple(m.BotSeat(seat=s, level=lv) for s, lv in bots),
            player=player,
            seat=seat,
            **({"timing": timing} if timing is not None else {}),
            **({"rated": True} if rated else {}),
        )
        created = next(r for r in replies if isinstance(r, m.TableCreatedMsg))
        if created.invite is not None:
            self.invite = created.invite
        joined = next((r for r in replies if isinstance(r, m.JoinedMsg)), None)
        seated = Seated(joined.table, joined.seat) if joined is not None else None
        return TableCreated(created.table, created.invite, seated)

    async def join(
        self,
        table: str,
        player: str | None = None,
        *,
        invite: str | None = None,
        seat: int | None = None,
        seeded: bool = False,
    ) -> Seated:
        """Sit down at ``table`` (``seat``, or the first free one). A seeded table (its
        creator chose the deal, so may know every card: ``TableSummary.seeded``, listed
        to 1.1 clients) refuses you with ``NotAllowed`` unless you say ``seeded=True``:
        you sit down knowing it."""
        self._player = player or self.name
        (reply,) = await self._request(
            m.JoinMsg, table=table, player=self._player, invite=invite, seat=seat, seeded=seeded
        )
        assert isinstance(reply, m.JoinedMsg)
        self.invite = invite
        return Seated(reply.table, reply.seat)

    async def watch(self, table: str, *, invite: str | None = None) -> str:
        """Watch ``table`` as a spectator; views and events follow."""
        (reply,) = await self._request(m.WatchMsg, table=table, invite=invite)
        assert isinstance(reply, m.WatchingMsg)
        self.invite = invite
        return reply.table

    def saved_table(self, table: str, player: str | None = None) -> bool:
        """Whether a seat token for ``table`` on this server is kept (for ``player``,
        if given)."""
        if self.table == table and self.__token is not None:
            return True
        return self.tokens is not None and self.tokens.token(self.url, table, player) is not None

    def saved_seats(self, table: str, player: str | None = None) -> list[int]:
        """The seats at ``table`` whose tokens are kept on disk (for ``player``)."""
        if self.tokens is None:
            return []
        return [
            s.seat for s in self.tokens.seats(self.url, table) if player is None or s.name == player
        ]

    async def resume(
        self, table: str | None = None, player: str | None = None, seat: int | None = None
    ) -> Seated:
        """Take back the seat at ``table`` (default: the current one) with its kept
        token (the one saved for ``player`` and ``seat``, if given). Raises ``BadToken``
        (and forgets the token) if the server refuses it."""
        table = table or self.table
        token = self.__token if table == self.table and seat in (None, self.seat) else None
        if token is None and table is not None and self.tokens is not None:
            token = self.tokens.token(self.url, table, player, seat)
        if table is None or token is None:
            raise BadToken("bad_token", f"no seat token kept for table {table!r}")
        try:
            (reply,) = await self._request(m.ResumeMsg, token=token)
        except BadToken:
            if self.tokens is not None:
                self.tokens.forget_token(self.url, table, token)
            if self.table == table:
                self.__token = None
            raise
        assert isinstance(reply, m.ResumedMsg)
        self.__token = token
        return Seated(reply.table, reply.seat)

    async def leave(self) -> None:
        """Leave the table (a seat in a running game stays yours; see ``resign``)."""
        await self._request(m.LeaveMsg)

    async def ready(self, ready: bool = True) -> None:
        await self._request_unanswered(m.ReadyMsg, ready=ready)

    async def take(
        self,
        card: str,
        *,
        special: bool = True,
        targets: Sequence[int] | None = None,
        keep: bool = True,
        state_version: int | None = None,
    ) -> int:
        """Take ``card`` (decided on the latest view unless ``state_version`` is given);
        returns the new state version. ``special`` uses the card's symbol, ``targets``
        names the seats an explosion hits (default: every other), ``keep`` keeps the
        game-ending card."""
        (reply,) = await self._request(
            m.TakeMsg,
            state_version=self.state_version if state_version is None else state_version,
            card=card,
            special=special,
            targets=None if targets is None else tuple(targets),
            keep=keep,
        )
        assert isinstance(reply, m.AckMsg)
        return reply.state_version

    async def resign(self) -> None:
        await self._request(m.ResignMsg)

    async def claim(self) -> None:
        """1.1: end a two-player game and take the win while the opponent is absent."""
        await self._request(m.ClaimMsg)

    async def back(self) -> None:
        """1.1: take the seat back from the computer player that plays it (after your
        time ran out several moves in a row)."""
        await self._request(m.BackMsg)

    async def rematch(self, rematch: bool = True) -> None:
        """1.1: after the end, ask for another game with the same people (False:
        withdraw). When everyone has asked, ``rematched`` arrives in ``updates()``."""
        await self._request_unanswered(m.RematchMsg, rematch=rematch)

    async def chat(self, text: str) -> None:
        await self._request_unanswered(m.ChatMsg, text=text)

    async def ping(self) -> None:
        await self._request(m.PingMsg)

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

    def _keep_token(self, joined: m.JoinedMsg) -> None:
        self.__token = joined.token
        if self.tokens is not None:
            try:
                self.tokens.save(self.url, joined.table, joined.seat, joined.token, self._player)
            except OSError as e:
                log.warning("cannot save the seat token: %s", type(e).__name__)

    def _track(self, msg: m.ServerMessage) -> None:
        """Keep the client's picture (table, seat, latest view) up to date."""
        if isinstance(msg, m.JoinedMsg):
            self.table, self.seat = msg.table, msg.seat
            self._keep_token(msg)
        elif isinstance(msg, m.ResumedMsg):
            self.table, self.seat = msg.table, msg.seat
        elif isinstance(msg, m.WatchingMsg):
            self.table, self.seat, self.__token = msg.table, None, None
        elif isinstance(msg, m.LeftMsg):
            waiting = self.view is None and (
                self.presence is None or self.presence.state == "lobby"
            )
            if waiting and self.table is not None and self.seat is not None:
                self.__token = None  # left before the game: the seat is free, its token void
                if self.tokens is not None:
                    with contextlib.suppress(OSError):
                        self.tokens.forget(self.url, self.table, self.seat)
            self.table, self.seat, self.view, self.presence = None, None, None, None
        elif isinstance(msg, m.ViewMsg):
            self.view, self.state_version = msg.view, msg.state_version
            table, seat = self.table, self.seat
            if msg.view.game_over and self.tokens and table is not None and seat is not None:
                with contextlib.suppress(OSError):
                    self.tokens.forget(self.url, table, seat)
        elif isinstance(msg, m.PresenceMsg):
            self.presence = msg
        elif isinstance(msg, m.ByeMsg):
            self._final_reason = msg.reason
        elif isinstance(msg, m.RematchedMsg):  # the same seat token, at the new table
            self.table, self.seat, self.view, self.state_version = msg.table, msg.seat, None, 0
            token = self.__token
            if token is not None and msg.seat is not None and self.tokens is not None:
                try:
                    self.tokens.save(self.url, msg.table, msg.seat, token, self._player)
                except OSError as e:
                    log.warning("cannot save the seat token: %s", type(e).__name__)

    def _dispatch(self, msg: m.ServerMessage) -> None:
        self._track(msg)
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
        when no token is kept), or watch the table again."""
        await self._sign_back_in()
        if self.table is None:
            return
        try:
            if self.seat is not None and self.player and not self.saved_table(self.table):
                await self.rejoin(self.table)
            elif self.seat is not None:
                await self.resume(self.table)
            else:
                await self.watch(self.table, invite=self.invite)
            self._emit(Status("resumed", f"table {self.table}"))
        except ServerError as e:
            self._emit(m.ErrorMsg(code=e.code, message=e.message, detail=e.detail))
            self.table = self.seat = None
        except ConnectionLost:
            pass

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
