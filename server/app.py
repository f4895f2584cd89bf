"""The server process: WebSocket endpoint, health check, limits and a clean shutdown.

``Server`` ties the lobby, the store and the connections together. It speaks protocol
v1 only (the ``kupferkessel.v1`` subprotocol is required at the handshake), answers
``GET /healthz`` on the same port with JSON counts, refuses connections beyond
``max_connections``, and on ``stop()`` stops accepting, closes every client with code
1001 and flushes the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import time
from collections import OrderedDict
from http import HTTPStatus

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response
from websockets.protocol import State

from protocol import messages as m
from protocol.codec import encode
from protocol.convert import catalogue

from . import webui
from .bots.pool import shared_pool
from .bots.seats import BOT_LEVELS, BotSeat, ComputerPlayers
from .cluster.node import Cluster
from .config import ServerConfig
from .lobby.directory import Directory
from .lobby.quotas import Counts
from .lobby.registry import Lobby
from .logs import peer_fields
from .net.ratelimit import TokenBucket
from .net.session import CLOSE_GOING_AWAY, CLOSE_TRY_AGAIN, Session, client_address
from .store import MemoryStore, Store

__all__ = ["Server", "ServerConfig", "run_server"]

log = logging.getLogger("kupferkessel.server")

SERVER_VERSION = "0.1.0"
INFLOW_HOSTS = 65_536
"""Addresses whose incoming byte allowance is remembered (``Server.inflow``)."""


class Server:
    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.store = store or MemoryStore()
        self.bots = shared_pool(config.bot_workers)
        # a node of a cluster (``config.cluster``) is the lobby's directory and counts
        # the cluster's tables and connections; one process has neither
        self.cluster: Cluster | None = None
        directory: Directory | None = None
        counts: Counts | None = None
        if config.cluster is not None:
            self.cluster = Cluster(
                config.cluster,
                self.store,
                lease=config.lease,
                max_connections=config.cluster_max_connections or config.max_connections,
                health=self.local_health,
            )
            directory, counts = self.cluster, self.cluster.counts
        self.lobby = Lobby(
            self.store,
            max_tables=config.max_tables,
            finished_ttl=config.finished_ttl,
            lobby_ttl=config.lobby_ttl,
            abandon_ttl=config.abandon_ttl,
            bot_levels=BOT_LEVELS,
            now=config.now,
            quotas=config.quotas,
            directory=directory,
            counts=counts,
            players=ComputerPlayers(self.bots, config.bot_think),
        )
        self.sessions: set[Session] = set()
        self.welcome = m.WelcomeMsg(
            protocol=m.PROTOCOL_VERSION,
            server=config.name,
            server_version=SERVER_VERSION,
            limits=config.limits,
            catalogue=catalogue(),
            bot_levels=BOT_LEVELS,
        )
        self._ws: WsServer | None = None
        self.tcp_open = 0  # TCP connections accepted and not yet lost (handshakes included)
        self.tcp_refused = 0  # connections dropped: over max_connections + max_handshakes
        self.unread_drops = 0  # connections dropped: unread output over max_output
        self.flood_drops = 0  # connections dropped: incoming bytes over their rate
        self._inflow: OrderedDict[str, TokenBucket] = OrderedDict()  # see inflow()
        # connections whose HTTP request has not arrived yet, oldest first
        self._waiting: dict[_Counted, None] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._beater: asyncio.Task[None] | None = None
        self.started = time.time()
        self.stopped = asyncio.Event()

    @property
    def port(self) -> int:
        """The port actually bound (useful with port 0)."""
        assert self._ws is not None
        sock = next(iter(self._ws.sockets))
        port: int = sock.getsockname()[1]
        return port

    async def start(self) -> None:
        self.bots.warm()
        await self.store.start()
        if self.cluster is not None:
            # a node restores no table at start: it adopts those nobody serves
            self.store.server_id = self.cluster.node  # whose beat a clocked game follows
            await self.cluster.start(self.lobby)
        else:
            restored = await self.lobby.restore()
            if restored:
                log.info("restored tables", extra={"count": restored})
        self._ws = await serve(
            self._handle,
            self.config.host,
            self.config.port,
            subprotocols=[m.SUBPROTOCOL],  # type: ignore[list-item]
            process_request=self._http,
            max_size=self.config.ws_max_size,
            max_queue=self.config.ws_max_queue,
            compression=self.config.compression,
            ping_interval=self.config.ping_interval,
            write_limit=self.config.write_limit,
            server_header=f"kupferkessel/{SERVER_VERSION}",
            create_connection=_counted(self),
            open_timeout=self.config.handshake_timeout,
            backlog=self.config.backlog,
        )
        self._sweeper = asyncio.create_task(self._sweep())
        self._watcher = asyncio.create_task(self._idle_watch())
        self._ticker = asyncio.create_task(self._tick())
        self._beater = asyncio.create_task(self._beat())
        log.info("listening", extra={"host": self.config.host, "port": self.port})

    async def stop(self) -> None:
        """Stop accepting, close every client with 1001, flush and close the store."""
        if self._ws is None:
            return
        log.info("shutting down", extra={"connections": len(self.sessions)})
        self._ws.close(close_connections=False)
        if self._beater is not None:
            self._beater.cancel()
        await self._beat_once()  # the clocked moves stop here: at the next start, they go on
        if self.cluster is not None:
            await self.cluster.handover()  # before our clients go: they reconnect elsewhere
        for s in list(self.sessions):
            s.close(CLOSE_GOING_AWAY, "shutdown: the server is going away")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ws.wait_closed(), 5)
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._watcher is not None:
            self._watcher.cancel()
        if self._ticker is not None:
            self._ticker.cancel()
        await asyncio.gather(
            *(
                seat.occupant.stop()
                for table in self.lobby.tables.values()
                for seat in table.seats
                if isinstance(seat.occupant, BotSeat)
            ),
            *(
                stand_in.stop()
                for table in self.lobby.tables.values()
                for stand_in in table.stand_ins.values()
            ),
        )
        if self.cluster is not None:
            await self.cluster.stop()
        await self.store.close()
        self._ws = None
        self.stopped.set()

    async def _tick(self) -> None:
        """Run the tables' clocks and grace periods (``Lobby.tick``) a few times a second."""
        while True:
            await asyncio.sleep(self.config.tick)
            try:
                await self.lobby.tick()
            except Exception:  # a failed round must not end the ticking
                log.exception("tick failed")

    async def _beat(self) -> None:
        """Note in the store every ``beat`` seconds that the clocked games still run
        (``Store.beat``): after a crash, a move resumes with the time it had used by
        the last note, so a crash gives back at most ``beat`` seconds of a move and
        charges its downtime to nobody."""
        while True:
            await asyncio.sleep(self.config.beat)
            await self._beat_once()

    async def _beat_once(self) -> None:
        if not self.lobby.clocks_running():
            return
        try:
            await self.store.beat(self.config.now())
        except Exception:  # a failed note must not end the beating (nor a shutdown)
            log.exception("beat failed")

    async def _sweep(self) -> None:
        every = min(60.0, max(1.0, self.config.finished_ttl / 4))
        for ttl in (self.config.lobby_ttl, self.config.abandon_ttl):
            if ttl > 0:
                every = min(every, max(1.0, ttl / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.lobby.sweep_all()
            except Exception:  # a failed round must not end the sweeping
                log.exception("sweep failed")

    async def _idle_watch(self) -> None:
        """Close connections silent for ``limits.idle_timeout`` seconds (ping counts).
        One task for all connections, checking a few times per timeout: cheaper than a
        timer around every frame received."""
        idle = self.config.limits.idle_timeout
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(max(0.2, min(5.0, idle / 4)))
            now = loop.time()
            for s in list(self.sessions):
                if now - s.last_seen > idle:
                    s.close(1000, f"idle: no message for {idle} s (send ping to stay)")

    def tcp_opened(self, connection: _Counted) -> bool:
        """Count a new TCP connection. Every connection holds a file descriptor from its
        accept on, long before its handshake ends, so connections are bounded here, not
        only once they are sessions: past ``max_connections`` plus ``max_handshakes``
        the connection that has waited longest for its request to arrive is dropped
        to make room (slow or silent handshakes cannot lock everyone out, ``/healthz``
        included); with none waiting, the new one is dropped."""
        if self.tcp_open >= self.config.max_connections + self.config.max_handshakes:
            self.tcp_refused += 1
            if not self._waiting:
                return False
            oldest = next(iter(self._waiting))
            oldest.drop()
        self.tcp_open += 1
        self._waiting[connection] = None
        return True

    def inflow(self, host: str) -> TokenBucket:
        """The incoming byte allowance of address ``host``, shared by its connections
        (the ``INFLOW_HOSTS`` most recently seen addresses are remembered)."""
        bucket = self._inflow.get(host)
        if bucket is None:
            limits = self.config.limits
            rate = limits.max_frame * limits.rate_messages / limits.rate_window
            bucket = self._inflow[host] = TokenBucket(rate, 2 * rate + self.config.ws_max_size)
            if len(self._inflow) > INFLOW_HOSTS:
                self._inflow.popitem(last=False)
        else:
            self._inflow.move_to_end(host)
        return bucket

    def tcp_request(self, connection: _Counted) -> None:
        """``connection``'s HTTP request arrived: it no longer waits."""
        self._waiting.pop(connection, None)

    def tcp_closed(self, connection: _Counted) -> None:
        self._waiting.pop(connection, None)
        self.tcp_open -= 1

    def local_health(self) -> dict[str, int | float | str]:
        """This process's figures (on a node: this node's)."""
        counts: dict[str, int | float | str] = {"status": "ok"}
        counts.update(self.lobby.figures())
        counts["connections"] = len(self.sessions)
        counts["bot_moves_waiting"] = self.bots.waiting
        counts["tcp_open"] = self.tcp_open
        counts["tcp_refused"] = self.tcp_refused
        counts["unread_drops"] = self.unread_drops
        counts["flood_drops"] = self.flood_drops
        counts["uptime"] = round(time.time() - self.started, 1)
        counts.update({f"store_{k}": v for k, v in self.store.stats().items()})
        return counts

    def health(self) -> dict[str, int | float | str]:
        """``/healthz``: this process's figures; on a node also the cluster's
        (``cluster_*``: the sums over the living nodes, as of their last report)."""
        counts = self.local_health()
        if self.cluster is not None:
            counts.update(self.cluster.health())
        return counts

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """The request is in: ``/healthz`` is answered (whatever followed its headers:
        the connection closes after the answer, so pipelined requests are not); a
        WebSocket handshake whose client sent anything after the headers (data or the
        end of its stream) before the answer is refused with ``400``."""
        early = False
        if isinstance(connection, _Counted):
            self.tcp_request(connection)
            connection.quota_address = client_address(
                connection, connection.peer, self.config.trust_forwarded
            )
            early = connection.early > 0 or connection.early_eof
            if connection.early_eof:  # the answer is written before the loop's next turn
                asyncio.get_running_loop().call_soon(connection.end_held)
        if request.path.split("?")[0] == "/healthz":
            body = json.dumps(self.health()).encode()
            headers = Headers(
                [
                    ("Content-Type", "application/json"),
                    ("Content-Length", str(len(body))),
                    ("Connection", "close"),
                ]
            )
            return Response(HTTPStatus.OK, "OK", headers, body)
        if self.config.web and request.headers.get("Upgrade", "").lower() != "websocket":
            return webui.respond(request)  # the page and its files, never a handshake
        if early:
            return connection.respond(
                HTTPStatus.BAD_REQUEST,
                "Data after the request headers: a WebSocket client waits for the "
                "handshake's answer before it sends.\n",
            )
        return None

    async def _handle(self, ws: ServerConnection) -> None:
        limits = self.lobby.counts
        if len(self.sessions) >= self.config.max_connections or not await limits.admit():
            full = "server_full: too many connections"
            with contextlib.suppress(Exception):  # bye first, as for every close of ours
                await ws.send(encode(m.ByeMsg(reason="server_full", message=full), seq=1))
            await ws.close(CLOSE_TRY_AGAIN, full)
            return
        session = Session(ws, self.config, self.lobby, self.welcome)
        self.sessions.add(session)
        log.info("connect", extra=session.log_extra)
        try:
            await session.run()
        finally:
            self.sessions.discard(session)
            limits.left()
            log.info(
                "disconnect",
                extra={**session.log_extra, "code": ws.close_code, "reason": ws.close_reason},
            )


class _Counted(ServerConnection):
    """The connection ``serve`` makes for each accepted socket (its documented
    ``create_connection`` hook, see ``_counted``): counted in its server, which may
    refuse it at once (before any byte is read) or drop it later to make room."""

    owner: Server
    _counted = False
    _socket: asyncio.BaseTransport | None = None
    _incoming: TokenBucket | None = None
    peer = "?"  # "host:port"
    quota_address = "?"  # the client address quotas and the log's limit count by
    early = -1  # bytes received after the request's head during the handshake (-1: no head yet)
    early_eof = False  # the client ended its stream after the request's head, before the answer
    _head_tail = b""  # the last bytes of an incomplete request head (its end may span reads)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._socket = transport  # as asyncio hands it to every protocol
        self.peer = _peer_of(transport)
        self.quota_address = self.peer.rsplit(":", 1)[0]  # until the request says more
        self._incoming = self.owner.inflow(self.peer.rsplit(":", 1)[0])
        if self._incoming.available() < self.owner.config.ws_max_size:
            # the address has spent its incoming allowance: no handshake for it
            # until it has refilled (a flood that reconnects gains nothing)
            self.owner.flood_drops += 1
            self._abort()
            return
        self._counted = self.owner.tcp_opened(self)
        if not self._counted:
            self._abort()

    def _abort(self) -> None:
        if isinstance(self._socket, asyncio.Transport):
            self._socket.abort()  # at once, unsent data dropped
        elif self._socket is not None:
            self._socket.close()

    def data_received(self, data: bytes) -> None:
        """Incoming bytes are rate-limited before the library parses them: the rate
        limit counts messages, but the library answers control frames (pings) itself,
        so a ping flood would cost CPU without limit. An address whose connections send
        more than ``limits.max_frame * limits.rate_messages`` bytes a second together
        (bursts of twice that plus one WebSocket frame; ``Server.inflow``) has the
        connection that went over dropped: reconnecting buys no new allowance.

        And the library writes its pongs to the socket whatever the reader does: a
        client flooding pings and never reading would make that buffer grow without
        end. Past ``max_output`` unread bytes, whatever filled them, the connection is
        dropped at once."""
        if self._incoming is None:
            self._incoming = self.owner.inflow(self.peer.rsplit(":", 1)[0])
        if not self._incoming.take(len(data)):
            self.owner.flood_drops += 1
            log.warning(
                "incoming bytes over the limit, dropping",
                extra=peer_fields(self.peer, self.quota_address),
            )
            self.drop()
            return
        if self.state is State.CONNECTING:
            data = self._head_only(data)
            if not data:
                return
        super().data_received(data)
        sock = self._socket
        if (
            isinstance(sock, asyncio.WriteTransport)
            and sock.get_write_buffer_size() > self.owner.config.max_output
            and not sock.is_closing()
        ):
            self.owner.unread_drops += 1
            log.warning(
                "unread output over the limit, dropping",
                extra=peer_fields(self.peer, self.quota_address),
            )
            self.drop()

    def _head_only(self, data: bytes) -> bytes:
        """During the opening handshake, the part of ``data`` that belongs to the HTTP
        request's head (up to its blank line); what follows is counted in ``early``
        and dropped. The library would parse it as WebSocket frames before its answer
        is sent, fail, and end the stream so that no answer goes out at all (an
        assertion in its handshake): ``/healthz`` with a body or a pipelined request
        got nothing. A WebSocket client sends nothing before the answer (RFC 6455,
        4.1), so nothing a client may send is lost."""
        if self.early >= 0:
            self.early += len(data)
            return b""
        seen = self._head_tail + data
        end = seen.find(b"\r\n\r\n")
        if end < 0:
            self._head_tail = seen[-3:]
            return data
        cut = end + 4 - len(self._head_tail)
        self.early = len(data) - cut
        self._head_tail = b""
        return data[:cut]

    def eof_received(self) -> bool | None:  # type: ignore[override]
        """The client ended its stream after its request's head, before the answer (a
        health check through ``nc -N``): the end is held, the transport stays open for
        the answer, and ``end_held`` closes it once the answer is written. The library
        would fail the connection at once, before any answer. (A request the library
        could not parse is not held: no answer is coming.)"""
        if self.state is State.CONNECTING and self.request is not None and self.response is None:
            self.early_eof = True
            return True  # asyncio: keep the transport open, the protocol closes it
        super().eof_received()
        return None

    def end_held(self) -> None:
        """The answer is out: close as asyncio would have on the held end of stream."""
        if self._socket is not None:
            self._socket.close()  # unsent data is sent first

    def drop(self) -> None:
        """Abort now and stop counting (``connection_lost`` comes later)."""
        if self._counted:
            self._counted = False
            self.owner.tcp_closed(self)
        self._abort()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self._counted:
            self._counted = False
            self.owner.tcp_closed(self)


def _peer_of(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return f"{peer[0]}:{peer[1]}" if peer else "?"


def _counted(owner: Server) -> type[ServerConnection]:
    """``_Counted`` bound to ``owner``."""
    return type("CountedConnection", (_Counted,), {"owner": owner})


async def run_server(config: ServerConfig, store: Store | None = None) -> None:
    """Serve until SIGTERM or SIGINT, then shut down cleanly."""
    server = Server(config, store)
    await server.start()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()
