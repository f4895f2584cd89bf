"""The server's configuration: every setting ``kupferkessel serve`` has a flag for.

One frozen record handed to the parts that need it (the server, its sessions), so no
part reaches up to the server to read a setting. The flags that set it, and the config
file, are ``serve``'s (``server.commands``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from protocol import messages as m

from .bots.pool import default_workers
from .lobby.quotas import Quotas
from .players.analyses import AnalysisBounds
from .players.hashing import SignInBounds

__all__ = ["ServerConfig"]


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    name: str = "Kupferkessel server"
    limits: m.Limits = m.DEFAULT_LIMITS
    max_connections: int = 5000  # this process's connections at most
    # on a node of a cluster: the cluster's connections at most (None: max_connections)
    cluster_max_connections: int | None = None
    max_handshakes: int = 100  # TCP connections beyond max_connections (handshakes, refusals)
    handshake_timeout: float = 10.0  # seconds to complete the opening handshake
    backlog: int = 100  # the listen backlog, also what one loop turn may accept
    max_tables: int = 10_000
    quotas: Quotas = field(default_factory=Quotas)  # per peer (IP address)
    trust_forwarded: bool = False  # behind a local reverse proxy: X-Forwarded-For's address
    list_page: int = 100  # tables in a list_tables page when the client sets no limit
    list_page_max: int = 100  # tables in a page at most, whatever limit the client sets
    max_listing_bytes: int = 32 * 1024  # a tables message is never larger
    listing_bytes_per_token: int = 2048  # list_tables costs a rate-limit token per this
    max_output: int = 256 * 1024  # bytes queued for one connection before it is dropped
    write_limit: int = 32768  # bytes in a connection's socket buffer before sends wait
    # the kernel's send buffer of each accepted socket (SO_SNDBUF; None: the kernel's
    # own, which grows up to net.ipv4.tcp_wmem's maximum, 4 MiB by default)
    send_buffer: int | None = None
    ws_max_size: int = 65536  # larger frames close the connection (1009); up to it: too_large
    ws_max_queue: int = 16  # incoming frames buffered per connection (websockets max_queue)
    compression: str | None = None  # measured: compression costs CPU and views are small
    ping_interval: float | None = 20.0
    allow_seeds: bool = True
    rated_allow: frozenset[str] = frozenset()  # 1.2: at rated tables also bots, seeds, casual
    rated_move: float = 60.0  # seconds per move of a rated table created without a clock
    signin: SignInBounds = field(default_factory=SignInBounds)  # what sign-in may cost
    analysis: AnalysisBounds = field(default_factory=AnalysisBounds)  # 1.5: what analyses may
    finished_ttl: float = 600.0  # seconds a finished table stays in memory
    lobby_ttl: float = 1800.0  # seconds an unattended lobby table lives (<= 0: forever)
    abandon_ttl: float = 600.0  # seconds a running game with no person lives (<= 0: forever)
    bot_think: float | None = None  # seconds per move for search bots (None: per level)
    bot_workers: int = field(default_factory=default_workers)  # bot processes (0: a thread)
    tick: float = 0.25  # seconds between checks of clocks and grace periods
    alive_every: float = 1.0  # seconds between notes in the store that clocked games still run
    now: Callable[[], float] = time.time  # the tables' clock (tests inject their own)
    cluster: str | None = None  # redis://... : a node of a cluster (server.cluster)
    lease: float = 3.0  # seconds a node's lease on a table lasts unless renewed
    # pages of other sites whose WebSocket handshakes are accepted (``net.origins``)
    allowed_origins: tuple[str, ...] = ()
    # names a request's Host may give beside the addresses, localhost and ``host``
    # (``net.requests``; "*": any name)
    allowed_hosts: tuple[str, ...] = ()
    web: bool = True  # answer plain HTTP GET/HEAD with the browser client (server.net.webui)
    metrics: bool = False  # answer GET /metrics (server.ops.metrics); ``serve`` turns it on
    metrics_loopback: bool = False  # ... to this machine only
    metrics_token: str | None = None  # ... to requests with this bearer token only
    # the admin endpoint's unix socket (server.ops.admin); None: no admin endpoint
    admin_socket: str | None = None
