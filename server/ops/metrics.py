"""``GET /metrics``: the server's figures in the Prometheus text format.

Theory of operation. Every figure is read when the endpoint is scraped, from the parts
that keep it (``MetricsCollector.collect``): the sessions' protocol versions, the
lobby's tables, the guard's drops, the store's commits, the bot pool's moves, the
counts' refusals and, on a node, the cluster's leases and forwarded intents. What must
be counted at the event is counted by the part itself (``server.figures``), which knows
nothing of Prometheus. Each server has its own ``CollectorRegistry``: several servers in
one process (the tests) never mix their figures, and nothing lands in the library's
global registry. Only counts and durations leave: no name, address, token or card.

Every family is there from the first scrape, its known series at zero (connections of
each protocol version and encoding, errors of each code, refusals of each reason): an
alert on a rate needs the series before its first event. ``build_info`` names the
build's version (``server.version``), so a rolling upgrade shows which node runs what.
A scrape reads counters the parts keep: nothing is computed or read from the system
per scrape beyond the process collector's few ``/proc`` files.

Access (``ServerConfig.metrics``): off on a LAN ``host`` (404), on for ``serve``;
``metrics_loopback`` answers only this machine (and nothing forwarded by a proxy on it),
``metrics_token`` asks for ``Authorization: Bearer TOKEN``.
"""

from __future__ import annotations

import hmac
import math
import platform
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from protocol.messages import PROTOCOL_VERSION

from ..bots.pool import BotPool
from ..core.table import FINISHED, LOBBY, PLAYING
from ..figures import SessionFigures, Timings
from ..lobby.registry import Lobby
from ..net.guard import Guard
from ..net.peers import is_loopback
from ..net.session import Session
from ..net.states import Phase
from ..players.hashing import HashFigures
from ..store import Store
from ..version import version
from .health import Readiness

if TYPE_CHECKING:  # a node's code (and redis) is imported only on a node
    from ..cluster.node import Cluster

__all__ = ["FORWARDING_HEADERS", "PREFIX", "Metrics", "MetricsCollector", "Parts", "forwarded"]

PREFIX = "kupferkessel_"


@dataclass(frozen=True)
class Parts:
    """The parts of one server whose figures are shown (handed by ``Server``)."""

    sessions: Collection[Session]
    lobby: Lobby
    guard: Guard
    store: Store
    bots: BotPool
    sessions_counted: SessionFigures
    started: float  # the server's start, seconds since the epoch
    node: Cluster | None = None  # a node of a cluster: its leases and forwarding
    readiness: Readiness | None = None  # whether the store (and Redis) answer
    hashing: HashFigures | None = None  # the slow hashes of sign-in


def _histogram(name: str, doc: str, t: Timings) -> HistogramMetricFamily:
    buckets = [("+Inf" if math.isinf(b) else repr(float(b)), n) for b, n in t.cumulative()]
    return HistogramMetricFamily(PREFIX + name, doc, buckets=buckets, sum_value=t.total)


def _counter(name: str, doc: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(PREFIX + name, doc, value=value)


class MetricsCollector(Collector):
    """The custom collector: every metric, read from the parts at each scrape."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    def describe(self) -> list[Metric]:
        return []  # registering must not scrape (the parts may not have started)

    def collect(self) -> Iterator[Metric]:
        info = GaugeMetricFamily(
            PREFIX + "build_info",
            "The build this server runs (always 1): its version and Python's",
            labels=["version", "python"],
        )
        info.add_metric([version(), platform.python_version()], 1)
        yield info
        yield from self._connections()
        yield from self._errors()
        yield from self._tables()
        yield from self._store()
        yield from self._bots()
        yield from self._limits()
        if self.parts.readiness is not None:
            yield from self._up(self.parts.readiness)
        if self.parts.node is not None:
            yield from self._node(self.parts.node)

    def _connections(self) -> Iterator[Metric]:
        p = self.parts
        spoken = ["none", *(f"1.{minor}" for minor in range(PROTOCOL_VERSION[1] + 1))]
        by = {(v, e): 0 for v in spoken for e in ("msgpack", "json")}  # all, at zero too
        for s in list(p.sessions):
            version = "none" if s.phase is Phase.CONNECTED else f"1.{s.minor}"
            key = (version, "json" if s.json else "msgpack")
            by[key] = by.get(key, 0) + 1
        conns = GaugeMetricFamily(
            PREFIX + "connections",
            "WebSocket sessions open, by protocol version spoken (none: before hello) and encoding",
            labels=["protocol", "encoding"],
        )
        for (version, encoding), n in sorted(by.items()):
            conns.add_metric([version, encoding], n)
        yield conns
        yield GaugeMetricFamily(
            PREFIX + "tcp_connections",
            "TCP connections open, handshakes included",
            value=p.guard.tcp_open,
        )
        yield GaugeMetricFamily(
            PREFIX + "start_time_seconds", "When the server started (Unix time)", value=p.started
        )
        counted = p.sessions_counted
        yield _counter("takes", "Takes answered (acked)", counted.take_seconds.count)
        yield _histogram(
            "take_ack_seconds",
            "From a take's arrival to its answer: validation, the store's commit, the views",
            counted.take_seconds,
        )

    def _errors(self) -> Iterator[Metric]:
        counted = self.parts.sessions_counted
        errors = CounterMetricFamily(
            PREFIX + "errors",
            "error messages sent to clients, by code (internal: a server bug)",
            labels=["code"],
        )
        for code, n in sorted(counted.errors.counts.items()):
            errors.add_metric([code], n)
        yield errors
        refused = CounterMetricFamily(
            PREFIX + "handshakes_refused",
            "WebSocket handshakes (and HTTP requests) refused, by reason: a banned address,"
            " another site's page (origin), data before the answer (early_data), no room"
            " (server_full), another host's name (host), a header sent twice (header_twice)",
            labels=["reason"],
        )
        for reason, n in counted.handshakes_refused.counts.items():
            refused.add_metric([reason], n)
        yield refused

    def _tables(self) -> Iterator[Metric]:
        lobby = self.parts.lobby
        states = {LOBBY: 0, PLAYING: 0, FINISHED: 0}
        for t in list(lobby.tables.values()):
            states[t.state] = states.get(t.state, 0) + 1
        tables = GaugeMetricFamily(
            PREFIX + "tables", "Tables served here, by state", labels=["state"]
        )
        for state, n in states.items():
            tables.add_metric([state], n)
        yield tables
        yield _counter(
            "games_finished", "Games that ended here (not abandoned)", lobby.games_finished
        )
        yield _counter("tables_abandoned", "Tables closed as abandoned", lobby.tables_abandoned)

    def _store(self) -> Iterator[Metric]:
        store = self.parts.store
        stats = store.stats() or {"commits": 0, "writes": 0, "failed": 0}  # --no-persist: 0
        yield _counter("store_commits", "Transactions the store committed", stats["commits"])
        yield _counter("store_writes", "Writes the store committed", stats["writes"])
        yield _counter(
            "store_failed_writes",
            "Writes refused or failed (a stale owner's, a database error)",
            stats["failed"],
        )
        timings = store.timings()
        if "commit_seconds" in timings:
            yield _histogram(
                "store_commit_seconds",
                "Each commit's transaction, BEGIN to COMMIT",
                timings["commit_seconds"],
            )
        if "writes_per_commit" in timings:
            yield _histogram(
                "store_writes_per_commit",
                "Writes in one commit (group commit)",
                timings["writes_per_commit"],
            )

    def _bots(self) -> Iterator[Metric]:
        bots = self.parts.bots
        yield GaugeMetricFamily(
            PREFIX + "bot_moves_waiting",
            "Bot moves asked for and not yet answered (thinking or queued)",
            value=bots.waiting,
        )
        yield _counter("bot_moves", "Bot moves thought (in workers or a thread)", bots.moves)
        yield _histogram(
            "bot_move_seconds",
            "From a bot move asked to its answer: waiting for a worker, then thinking",
            bots.move_seconds,
        )
        yield GaugeMetricFamily(
            PREFIX + "bot_workers",
            "Processes bots think in (0: a thread of the server)",
            value=bots.workers,
        )
        yield _counter(
            "bot_cpu_seconds",
            "CPU time bots spent thinking, in their workers (or the server's thread)",
            bots.cpu_seconds,
        )
        yield GaugeMetricFamily(
            PREFIX + "bot_workers_resident_memory_bytes",
            "Resident memory of the bot workers together (each as of its last move)",
            value=sum(bots.memory.values()),
        )

    def _limits(self) -> Iterator[Metric]:
        p = self.parts
        quota = CounterMetricFamily(
            PREFIX + "quota_refusals",
            "New tables refused, by the limit that refused them",
            labels=["limit"],
        )
        for kind, n in p.lobby.counts.refused.counts.items():
            quota.add_metric([kind], n)
        yield quota
        limited = CounterMetricFamily(
            PREFIX + "rate_limited",
            "Messages refused by the rate limits (limited, chat) and connections closed"
            " for sustained flooding (closed)",
            labels=["kind"],
        )
        for kind, n in p.sessions_counted.rate_limited.counts.items():
            limited.add_metric([kind], n)
        yield limited
        dropped = CounterMetricFamily(
            PREFIX + "dropped_connections",
            "TCP connections dropped: over the connection limits, incoming bytes over"
            " their rate (flood), unread output over the limit (unread)",
            labels=["reason"],
        )
        dropped.add_metric(["over_limit"], p.guard.tcp_refused)
        dropped.add_metric(["flood"], p.guard.flood_drops)
        dropped.add_metric(["unread"], p.guard.unread_drops)
        yield dropped
        if p.hashing is not None:
            hashes = CounterMetricFamily(
                PREFIX + "signin_hashes",
                "Slow hashes of sign-in: computed (hashed), requests refused by an"
                " address's budget or the full line (refused), requests whose connection"
                " closed while they waited, never hashed (dropped)",
                labels=["outcome"],
            )
            hashes.add_metric(["hashed"], p.hashing.hashed)
            hashes.add_metric(["refused"], p.hashing.refused)
            hashes.add_metric(["dropped"], p.hashing.dropped)
            yield hashes

    def _up(self, readiness: Readiness) -> Iterator[Metric]:
        """Whether the store (``store_up``) and, on a node, Redis (``node_redis_up``)
        answered the last health check (every second), and whether the server is ready."""
        for part, up in readiness.up.items():
            yield GaugeMetricFamily(
                PREFIX + ("node_redis_up" if part == "redis" else f"{part}_up"),
                f"1 while the {part} answered the last health check, else 0",
                value=int(up),
            )
        yield GaugeMetricFamily(
            PREFIX + "ready",
            "1 while /readyz says ready (store and Redis reachable, not draining), else 0",
            value=int(readiness.ready),
        )

    def _node(self, node: Cluster) -> Iterator[Metric]:
        f = node.stats()
        yield GaugeMetricFamily(
            PREFIX + "node_leases", "Table leases this node holds", value=f["leases"]
        )
        yield _counter("node_adoptions", "Tables this node adopted from others", f["adopted"])
        yield _counter("node_handovers", "Tables this node handed over", f["handed_over"])
        yield _counter(
            "node_handovers_received",
            "Tables other nodes handed over as they stopped, as this node heard it (every"
            " node hears each; one of them adopts the table: node_adoptions)",
            f["received"],
        )
        yield _counter(
            "node_forwarded_intents",
            "Intents of this node's sessions forwarded to their tables' owners",
            f["forwarded"],
        )
        yield _counter(
            "node_served_intents", "Intents of other nodes' sessions served here", f["served"]
        )


FORWARDING_HEADERS = frozenset(
    {
        "forwarded",
        "via",
        "x-real-ip",
        "x-client-ip",
        "x-cluster-client-ip",
        "client-ip",
        "true-client-ip",
        "cf-connecting-ip",
        "cf-connecting-ipv6",
        "fastly-client-ip",
        "akamai-client-ip",
        "x-proxyuser-ip",
        "x-appengine-user-ip",
        "x-azure-clientip",
        "x-envoy-external-address",
    }
)
"""Headers a proxy adds for the client it forwards (beside every ``X-Forwarded-*`` and
``X-Original-*`` header): under ``metrics_loopback`` a request carrying any of them came
through a proxy on this machine, so from elsewhere, and is refused."""


def forwarded(headers: Headers) -> bool:
    """Whether a request with these ``headers`` came through a proxy (one of
    ``FORWARDING_HEADERS``, or any ``X-Forwarded-*`` or ``X-Original-*``)."""
    for name in headers:
        low = name.lower()
        if low in FORWARDING_HEADERS or low.startswith(("x-forwarded-", "x-original-")):
            return True
    return False


class Metrics:
    """The endpoint: a registry of this server's figures, and who may read them."""

    def __init__(self, parts: Parts, *, loopback: bool = False, token: str | None = None) -> None:
        self.registry = CollectorRegistry()
        self.registry.register(MetricsCollector(parts))
        ProcessCollector(registry=self.registry)  # CPU, memory, open files of the process
        self.loopback = loopback
        self.token = token

    def refusal(self, request: Request, host: str) -> tuple[HTTPStatus, str] | None:
        """Why this request may not read the metrics (status, text), or None."""
        if self.loopback and (not is_loopback(host) or forwarded(request.headers)):
            return HTTPStatus.FORBIDDEN, "the metrics answer this machine only"
        if self.token is not None:
            given = request.headers.get("Authorization", "")
            want = "Bearer " + self.token
            if not hmac.compare_digest(given.encode(), want.encode()):
                return HTTPStatus.UNAUTHORIZED, "the metrics need their bearer token"
        return None

    def respond(self, request: Request, host: str) -> Response:
        """The answer to ``GET /metrics`` from ``host``."""
        refused = self.refusal(request, host)
        if refused is not None:
            status, text = refused
            extra = [("WWW-Authenticate", "Bearer")] if status is HTTPStatus.UNAUTHORIZED else []
            return _answer(status, (text + "\n").encode(), "text/plain; charset=utf-8", extra)
        return _answer(HTTPStatus.OK, generate_latest(self.registry), CONTENT_TYPE_LATEST)


def _answer(
    status: HTTPStatus, body: bytes, content_type: str, extra: list[tuple[str, str]] | None = None
) -> Response:
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
            ("Connection", "close"),
            *(extra or []),
        ]
    )
    return Response(status.value, status.phrase, headers, body)
