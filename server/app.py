"""The server process: WebSocket endpoint, health check, limits and a clean shutdown.

``Server`` ties the lobby, the store and the connections together. It speaks protocol
v1 only (the ``kupferkessel.v1`` subprotocol is required at the handshake), answers
``/livez``, ``/readyz`` and ``/healthz`` on the same port (``ops.health``), refuses
connections beyond ``max_connections``, and on ``stop()`` stops accepting, closes every
client with code 1001 and flushes the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from protocol import messages as m
from protocol.codec import encode
from protocol.convert import catalogue

from .aio import patiently, to_the_end
from .bots.analyst import Analyst
from .bots.pool import shared_pool
from .bots.seats import BOT_LEVELS, BotPlayer, ComputerPlayers
from .config import ServerConfig
from .figures import SessionFigures
from .lobby.directory import Directory
from .lobby.quotas import Counts
from .lobby.registry import Lobby
from .net import webui
from .net.guard import CountedConnection, Guard
from .net.origins import origin_refusal
from .net.peers import client_address, peer_of
from .net.requests import duplicate_refusal, host_refusal
from .net.session import Session
from .net.transport import CLOSE_GOING_AWAY, CLOSE_TRY_AGAIN
from .ops.admin import Admin, listing
from .ops.health import PATHS as HEALTH_PATHS
from .ops.health import Check, Readiness
from .ops.health import respond as health_response
from .ops.metrics import Metrics, Parts
from .ops.moderation import Moderation, until_text
from .players.account import Account
from .players.service import Players
from .store import MemoryStore, Store, StoreUnavailable
from .version import version

if TYPE_CHECKING:
    from .cluster.node import Cluster

__all__ = ["Server", "ServerConfig", "run_server"]

log = logging.getLogger("kupferkessel.server")

SERVER_VERSION = version()  # the build's (server.version): welcome, Server header, metrics


class Server:
    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.store = store or MemoryStore()
        self.bots = shared_pool(config.bot_workers)
        # 1.5: analyses and hints, in processes below the bots' moves
        self.analyst = Analyst(
            config.analysis.workers,
            hint_budget=config.analysis.budget,
            hints_at_once=config.analysis.hints_at_once,
        )
        # a node of a cluster (``config.cluster``) is the lobby's directory and counts
        # the cluster's tables and connections; one process has neither
        self.cluster: Cluster | None = None
        directory: Directory | None = None
        counts: Counts | None = None
        if config.cluster is not None:
            from .cluster.node import Cluster  # redis and the node's code: only on a node

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
            computers=ComputerPlayers(self.bots, config.bot_think, self.analyst),
        )
        self.sessions: set[Session] = set()
        self.players = Players(  # 1.2
            self.store,
            rated_allow=config.rated_allow,
            rated_move=config.rated_move,
            bounds=config.signin,
            analyst=self.analyst,
            analysis=config.analysis,
        )
        self.welcome = m.WelcomeMsg(
            protocol=m.PROTOCOL_VERSION,
            server=config.name,
            server_version=SERVER_VERSION,
            limits=config.limits,
            catalogue=catalogue(),
            bot_levels=BOT_LEVELS,
        )
        self._ws: WsServer | None = None
        self.guard = Guard(config)  # the TCP connections, before and beside their sessions
        self._sweeper: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._alive_notes: asyncio.Task[None] | None = None
        self.started = time.time()
        self.stopped = asyncio.Event()
        self.figures = SessionFigures()  # what the sessions count together
        self.moderation = Moderation(self.store, config.now)  # the operator's mutes and bans
        self.admin: Admin | None = None
        if config.admin_socket:
            self.admin = Admin(
                Path(config.admin_socket),
                self.lobby,
                self.sessions,
                self.moderation,
                None if self.cluster is None else self.cluster.operator,
            )
        if self.cluster is not None:  # a sanction made at another node takes effect at once
            self.cluster.operator.enforcing = self.enforce_here
        # ready (``/readyz``): the store answers, and on a node Redis; not draining
        checks: dict[str, Check] = {"store": self.store.reachable}
        if self.cluster is not None:
            checks["redis"] = self.cluster.reachable
        self.readiness = Readiness(checks, self._lost)
        self._ready_watch: asyncio.Task[None] | None = None
        self.fatal: BaseException | None = None  # why the server stopped by itself
        self.must_stop = asyncio.Event()
        self.metrics: Metrics | None = None
        if config.metrics:
            parts = Parts(
                self.sessions,
                self.lobby,
                self.guard,
                self.store,
                self.bots,
                self.figures,
                self.started,
                self.cluster,
                self.readiness,
                self.players.hasher.figures,
            )
            self.metrics = Metrics(
                parts, loopback=config.metrics_loopback, token=config.metrics_token
            )

    # the guard's counts, as ``/healthz`` and the tests read them
    @property
    def tcp_open(self) -> int:
        return self.guard.tcp_open

    @property
    def unread_drops(self) -> int:
        return self.guard.unread_drops

    @property
    def flood_drops(self) -> int:
        return self.guard.flood_drops

    @property
    def port(self) -> int:
        """The port actually bound (useful with port 0)."""
        assert self._ws is not None
        sock = next(iter(self._ws.sockets))
        port: int = sock.getsockname()[1]
        return port

    async def start(self) -> None:
        """Open the store, restore the tables (a node: join the cluster) and listen. A
        start that fails or is cancelled (``run_server``: a SIGTERM while it waits for
        the database or Redis) closes what it had opened before the exception goes on."""
        async with contextlib.AsyncExitStack() as opened:
            opened.push_async_callback(self._close_store)
            self.bots.warm()
            # the store opens in a thread, which a cancellation would not stop: the start
            # waits for it, so that what the thread opened is closed too
            await patiently(
                "the store", lambda: to_the_end(self.store.start()), (StoreUnavailable,)
            )
            await self.players.start()  # names keyed by the rules of this version
            await asyncio.to_thread(self.moderation.load)
            if self.cluster is not None:
                # a node restores no table at start: it adopts those nobody serves
                self.store.server_id = self.cluster.node  # whose alive notes a clocked game follows
                try:
                    await self.cluster.start(
                        self.lobby, lambda action: listing(action, self.lobby, self.sessions)
                    )
                except BaseException:  # cancelled while Redis is away, say
                    await self.cluster.disconnect()
                    raise
                opened.push_async_callback(self.cluster.stop)
            opened.push_async_callback(self._stop_computers)
            if self.cluster is None:
                restored = await self.lobby.restore()
                if restored:
                    log.info("restored tables", extra={"count": restored})
            self._ws = await serve(
                self._handle,
                self.config.host,
                self.config.port,
                subprotocols=[m.SUBPROTOCOL, m.JSON_SUBPROTOCOL],  # type: ignore[list-item]
                process_request=self._http,
                max_size=self.config.ws_max_size,
                max_queue=self.config.ws_max_queue,
                compression=self.config.compression,
                ping_interval=self.config.ping_interval,
                write_limit=self.config.write_limit,
                server_header=f"kupferkessel/{SERVER_VERSION}",
                create_connection=self.guard.connection_class(),
                open_timeout=self.config.handshake_timeout,
                backlog=self.config.backlog,
            )
            opened.pop_all()  # listening: ``stop`` closes it all from now on
        self._sweeper = asyncio.create_task(self._sweep())
        self._watcher = asyncio.create_task(self._idle_watch())
        self._ticker = asyncio.create_task(self._tick())
        self._alive_notes = asyncio.create_task(self._note_alive_often())
        self._ready_watch = asyncio.create_task(self.readiness.watch())
        if self.admin is not None:
            try:
                await self.admin.start()
            except BaseException:  # its socket taken, or the start cancelled
                await self.stop()
                raise
        # at any log level (server.commands.startup.START): where it listens is what a start says
        logging.getLogger("kupferkessel.start").info(
            "listening", extra={"host": self.config.host, "port": self.port}
        )

    async def stop(self) -> None:
        """Stop accepting, close every client with 1001, flush and close the store."""
        if self._ws is None:
            return
        log.info("shutting down", extra={"connections": len(self.sessions)})
        self.readiness.draining = True  # /readyz says 503 from now on
        self._ws.close(close_connections=False)
        if self.admin is not None:
            await self.admin.stop()
        if self._alive_notes is not None:
            self._alive_notes.cancel()
        await self._note_alive()  # the clocked moves stop here: at the next start, they go on
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
        if self._ready_watch is not None:
            self._ready_watch.cancel()
        await self._stop_computers()
        if self.cluster is not None:
            await self.cluster.stop()
        await self._close_store()
        self._ws = None
        self.stopped.set()

    async def _stop_computers(self) -> None:
        """Stop the computer players: the bots seated and the stand-ins."""
        await asyncio.gather(
            *(
                seat.occupant.stop()
                for table in self.lobby.tables.values()
                for seat in table.seats
                if isinstance(seat.occupant, BotPlayer)
            ),
            *(
                stand_in.stop()
                for table in self.lobby.tables.values()
                for stand_in in table.lineup.stand_ins.values()
            ),
        )

    async def _close_store(self) -> None:
        """Flush and close the store; the sign-in hashing's threads and the analyses'
        workers go once done."""
        await self.store.close()
        self.players.hasher.close()
        self.players.analyses.analyst.shutdown()

    async def _tick(self) -> None:
        """Run the tables' clocks and grace periods (``Lobby.tick``) a few times a second."""
        while True:
            await asyncio.sleep(self.config.tick)
            try:
                await self.lobby.tick()
            except Exception:  # a failed round must not end the ticking
                log.exception("tick failed")

    async def _note_alive_often(self) -> None:
        """Note in the store every ``alive_every`` seconds that the clocked games still
        run (``_note_alive``): after a crash, a move resumes with the time it had used
        by the last note, so a crash gives back at most ``alive_every`` seconds of a
        move and charges its downtime to nobody."""
        while True:
            await asyncio.sleep(self.config.alive_every)
            await self._note_alive()

    async def _note_alive(self) -> None:
        """Note the time in the store (``Store.note_alive``) if a clocked game runs."""
        if not self.lobby.clocks_running():
            return
        try:
            await self.store.note_alive(self.config.now())
        except StoreUnavailable as e:  # an outage (the writer said so): the next note
            log.warning("alive note failed", extra={"error": str(e)})
        except Exception:  # a failed note must not end the notes (nor a shutdown)
            log.exception("alive note failed")

    async def _sweep(self) -> None:
        every = min(60.0, max(1.0, self.config.finished_ttl / 4))
        for ttl in (self.config.lobby_ttl, self.config.abandon_ttl):
            if ttl > 0:
                every = min(every, max(1.0, ttl / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.lobby.sweep_all()
                # the sanctions other nodes stored (a ban closes whom it concerns here)
                for fresh in await asyncio.to_thread(self.moderation.load):
                    self.moderation.enforce(fresh, self.sessions)
            except StoreUnavailable as e:  # an outage: the next round
                log.warning("sweep failed", extra={"error": str(e)})
            except Exception:  # a failed round must not end the sweeping
                log.exception("sweep failed")

    async def enforce_here(self, sanction_id: str) -> int:
        """Another node made (or lifted) sanction ``sanction_id``: read the sanctions
        again, and a ban closes the connections here it concerns; how many."""
        await asyncio.to_thread(self.moderation.load)
        s = self.moderation.by_id(sanction_id)
        return 0 if s is None else self.moderation.enforce(s, self.sessions)

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

    def _lost(self, e: BaseException) -> None:
        """The stand-alone server's database was taken by another server while it was
        out of reach: this one stops (``run_server`` raises ``e``), writing nothing."""
        self.fatal = e
        self.must_stop.set()

    def local_health(self) -> dict[str, int | float | str]:
        """This process's counts for ``/healthz`` (on a node: this node's)."""
        counts: dict[str, int | float | str] = {"status": "ok"}
        counts.update(self.lobby.health_counts())
        counts["connections"] = len(self.sessions)
        counts["bot_moves_waiting"] = self.bots.waiting
        counts["tcp_open"] = self.guard.tcp_open
        counts["tcp_refused"] = self.guard.tcp_refused
        counts["unread_drops"] = self.guard.unread_drops
        counts["flood_drops"] = self.guard.flood_drops
        counts["uptime"] = round(time.time() - self.started, 1)
        counts.update({f"store_{k}": v for k, v in self.store.stats().items()})
        return counts

    def health(self) -> dict[str, int | float | str]:
        """``/healthz``: this process's counts; on a node also the cluster's
        (``cluster_*``: the sums over the living nodes, as of their last report)."""
        counts = self.local_health()
        if self.cluster is not None:
            counts.update(self.cluster.health())
        return counts

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """The request is in: one that gives a header read as one value twice is
        refused (``400``), one naming a host this server does not answer to too (``421``,
        ``net.requests``); ``/healthz`` is answered (whatever followed its headers:
        the connection closes after the answer, so pipelined requests are not); a
        WebSocket handshake whose client sent anything after the headers (data or the
        end of its stream) before the answer is refused with ``400``."""
        early = False
        if isinstance(connection, CountedConnection):
            self.guard.tcp_request(connection)
            connection.quota_address = client_address(
                connection, connection.peer, self.config.trust_forwarded
            )
            early = connection.early > 0 or connection.early_eof
            if connection.early_eof:  # the answer is written before the loop's next turn
                asyncio.get_running_loop().call_soon(connection.end_held)
        duplicate = duplicate_refusal(request.headers)
        if duplicate is not None:
            log.info("request refused: a header twice", extra={"peer": peer_of(connection)})
            self.figures.handshakes_refused.add("header_twice")
            return connection.respond(HTTPStatus.BAD_REQUEST, duplicate + "\n")
        wrong_host = host_refusal(request.headers, self.config.allowed_hosts, self.config.host)
        if wrong_host is not None:
            log.warning(
                "request refused: another host's name",
                extra={"peer": peer_of(connection), "host": request.headers["Host"][:100]},
            )
            self.figures.handshakes_refused.add("host")
            return connection.respond(HTTPStatus.MISDIRECTED_REQUEST, wrong_host + "\n")
        path = request.path.split("?")[0]
        if path == "/metrics":
            if self.metrics is None:
                return connection.respond(HTTPStatus.NOT_FOUND, "The metrics are off here.\n")
            return self.metrics.respond(request, peer_of(connection).rsplit(":", 1)[0])
        if path in HEALTH_PATHS:
            return health_response(path, self.readiness, self.health)
        address = client_address(connection, peer_of(connection), self.config.trust_forwarded)
        ban = self.moderation.banned_address(address)
        if ban is not None:
            log.info("handshake refused: banned", extra={"sanction": ban.id, "address": address})
            self.figures.handshakes_refused.add("banned")
            return connection.respond(
                HTTPStatus.FORBIDDEN,
                f"banned: the operator banned this address {until_text(ban)}\n",
            )
        if self.config.web and request.headers.get("Upgrade", "").lower() != "websocket":
            return webui.respond(request)  # the page and its files, never a handshake
        refusal = origin_refusal(request.headers, self.config.allowed_origins)
        if refusal is not None:
            log.warning(
                "handshake refused: another site's page",
                extra={"reason": refusal, "address": address},
            )
            self.figures.handshakes_refused.add("origin")
            return connection.respond(HTTPStatus.FORBIDDEN, refusal + "\n")
        if early:
            self.figures.handshakes_refused.add("early_data")
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
            self.figures.handshakes_refused.add("server_full")
            with contextlib.suppress(Exception):  # bye first, as for every close of ours
                await ws.send(encode(m.ByeMsg(reason="server_full", message=full), seq=1))
            await ws.close(CLOSE_TRY_AGAIN, full)
            return
        session = Session(
            ws,
            self.config,
            self.lobby,
            self.welcome,
            self.figures,
            self.moderation,
            Account(self.players),
        )
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


async def run_server(
    config: ServerConfig,
    store: Store | None = None,
    reload: Callable[[Server], None] | None = None,
) -> None:
    """Serve until SIGTERM or SIGINT, then shut down cleanly; a server that must stop by
    itself (its database taken by another server) stops too and raises why. ``SIGHUP``
    calls ``reload`` (``server.commands.startup.Reload``) if given, once started.

    The signals are handled from before the start on: one that comes while the server
    starts (waiting for its database or Redis, or just before it says "listening")
    cancels the start, which closes what it had opened, and returns as cleanly."""
    server = Server(config, store)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, server.must_stop.set)
    if not await _started(server):
        log.info("stopped while starting")
        return
    if reload is not None and hasattr(signal, "SIGHUP"):
        loop.add_signal_handler(signal.SIGHUP, reload, server)
    await server.must_stop.wait()
    await server.stop()
    if server.fatal is not None:
        raise server.fatal


async def _started(server: Server) -> bool:
    """Start ``server`` unless it is told to stop first (``must_stop``): then cancel its
    start, which closes what it had opened. Whether it started; a failed start raises
    why. A start that ends as the stop comes has started: ``stop`` follows."""
    start = asyncio.create_task(server.start())
    asked = asyncio.create_task(server.must_stop.wait())
    try:
        await asyncio.wait((start, asked), return_when=asyncio.FIRST_COMPLETED)
    finally:
        asked.cancel()
        start.cancel()  # nothing if it is done
        await asyncio.wait((start,))  # its closing of what it had opened
    if start.cancelled():
        return False
    start.result()
    return True
