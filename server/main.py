"""``kupferkessel serve``: run a dedicated server.

Flags win over environment variables (``KK_HOST``, ``KK_PORT``, ``KK_STORE``, ``KK_DB``,
``KK_NAME``, ``KK_FINISHED_TTL``, ``KK_LOBBY_TTL``), which win over the defaults. The
default host is loopback: listening on every interface is an explicit choice
(``--host 0.0.0.0`` or ``--public``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import sqlite3
from pathlib import Path

import platformdirs

from .app import ServerConfig, run_server
from .bots.pool import default_workers
from .lobby.quotas import Quotas
from .logs import setup_logging
from .store import BadDatabase, MemoryStore, SqliteStore, Store, check_database_path, open_store

__all__ = [
    "add_arguments",
    "add_store_argument",
    "default_db_path",
    "run",
    "store_url",
    "tune_gc",
]

log = logging.getLogger("kupferkessel.server")


def default_db_path() -> Path:
    return Path(platformdirs.user_data_dir("kupferkessel")) / "server.db"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--host",
        default=os.environ.get("KK_HOST", "127.0.0.1"),
        help="address to listen on (default 127.0.0.1, env KK_HOST)",
    )
    p.add_argument(
        "--public", action="store_true", help="listen on every interface (same as --host 0.0.0.0)"
    )
    p.add_argument(
        "--port",
        type=int,
        default=os.environ.get("KK_PORT", "8765"),  # argparse converts (and reports) it
        help="port (default 8765, env KK_PORT; 0 picks a free one)",
    )
    p.add_argument(
        "--name",
        default=os.environ.get("KK_NAME", "Kupferkessel server"),
        help="server name shown to clients",
    )
    add_store_argument(p)
    p.add_argument(
        "--no-persist",
        action="store_true",
        help="keep nothing on disk: games are lost when the server stops",
    )
    p.add_argument("--max-connections", type=int, default=5000)
    p.add_argument(
        "--max-handshakes",
        type=int,
        default=100,
        help="TCP connections beyond --max-connections (in their handshake, or being"
        " refused); past both the oldest unfinished handshake is dropped (default 100)",
    )
    p.add_argument("--max-tables", type=int, default=10_000)
    p.add_argument(
        "--behind-proxy",
        action="store_true",
        help="a reverse proxy on this machine forwards the clients: count the per-address"
        " quotas by the last address of X-Forwarded-For (only from a loopback peer)",
    )
    q = Quotas()
    for flag, default, what in (
        ("--peer-lobby-tables", q.lobby_tables, "tables waiting in the lobby"),
        ("--peer-unattended-games", q.unattended_games, "running games nobody is connected to"),
        ("--peer-bot-games", q.bot_games, "games of bots only"),
    ):
        p.add_argument(
            flag,
            type=int,
            default=default,
            metavar="N",
            help=f"per client address: {what} it made, at most (default {default}; 0: no limit)",
        )
    p.add_argument(
        "--bot-think",
        type=float,
        default=None,
        help="seconds per move for server-side searching bots, instead of their levels' "
        "iteration budgets (default: the budgets, so a level's strength does not depend on load)",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=default_workers(),
        metavar="N",
        help="processes server-side bots think in: at most N cores think for bots, never the"
        f" event loop's (default {default_workers()} here: the cores but one, 1 to 4;"
        " 0 thinks in a thread)",
    )
    _seconds(
        p,
        "--finished-ttl",
        "KK_FINISHED_TTL",
        600,
        "a finished table leaves memory this long after its game ended; its record stays"
        " in the database",
    )
    _seconds(
        p,
        "--lobby-ttl",
        "KK_LOBBY_TTL",
        1800,
        "a table nobody has sat at or watched for this long before its game started is"
        " closed as abandoned (0 keeps it forever)",
    )
    _seconds(
        p,
        "--abandon-ttl",
        "KK_ABANDON_TTL",
        600,
        "a running game no person has been connected to (or watched) for this long ends"
        " as abandoned and leaves memory (0 keeps it forever)",
    )
    p.add_argument(
        "--no-seeds", action="store_true", help="refuse seeds chosen by clients in create_table"
    )
    p.add_argument(
        "--no-web", action="store_true", help="serve no browser client on GET / (protocol only)"
    )
    p.add_argument(
        "--allow-origin",
        metavar="ORIGIN",
        action="append",
        default=[],
        help="accept WebSocket handshakes from pages of ORIGIN (https://example.org) too;"
        " by default only the server's own page and programs (no Origin) may connect;"
        " repeatable",
    )
    p.add_argument(
        "--cluster",
        metavar="URL",
        default=os.environ.get("KK_CLUSTER"),
        help="redis://host:port/db: run as a node of a cluster sharing this Redis and a"
        " PostgreSQL --store (env KK_CLUSTER; docs/OPERATIONS.md)",
    )
    _seconds(
        p,
        "--lease",
        "KK_LEASE",
        3,
        "with --cluster: how long a node's hold on a table lasts unless renewed; a dead"
        " node's tables are served again after about this long",
    )
    p.add_argument(
        "--no-metrics", action="store_true", help="answer no GET /metrics (Prometheus figures)"
    )
    p.add_argument(
        "--metrics-loopback",
        action="store_true",
        help="answer GET /metrics to this machine only (nothing forwarded by a proxy on it)",
    )
    p.add_argument(
        "--metrics-token-file",
        metavar="PATH",
        default=None,
        help="answer GET /metrics only with the bearer token written in this file"
        " (Authorization: Bearer TOKEN)",
    )
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])


def add_store_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--store",
        metavar="URL",
        default=os.environ.get("KK_STORE"),
        help="where games are stored: a SQLite database file, or postgresql://user@host/db"
        f" (default {default_db_path()}, env KK_STORE)",
    )
    p.add_argument(
        "--db",
        metavar="PATH",
        default=os.environ.get("KK_DB"),
        help="a SQLite database file (the same as --store PATH; env KK_DB)",
    )


def store_url(args: argparse.Namespace) -> str:
    """The store the flags name: --store, else --db, else the default SQLite file."""
    return str(args.store or args.db or default_db_path())


def _seconds(p: argparse.ArgumentParser, flag: str, env: str, default: int, what: str) -> None:
    p.add_argument(
        flag,
        type=float,
        default=os.environ.get(env, str(default)),  # argparse converts (and reports) it
        metavar="SECONDS",
        help=f"{what} (default {default}, env {env})",
    )


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(
        host="0.0.0.0" if args.public else args.host,
        port=args.port,
        name=args.name,
        max_connections=args.max_connections,  # lowered to fit the open files (per node)
        cluster_max_connections=args.max_connections,
        max_handshakes=args.max_handshakes,
        max_tables=args.max_tables,
        trust_forwarded=args.behind_proxy,
        quotas=Quotas(
            lobby_tables=args.peer_lobby_tables,
            unattended_games=args.peer_unattended_games,
            bot_games=args.peer_bot_games,
        ),
        bot_think=args.bot_think,
        bot_workers=args.bot_workers,
        lobby_ttl=args.lobby_ttl,
        abandon_ttl=args.abandon_ttl,
        finished_ttl=args.finished_ttl,
        allow_seeds=not args.no_seeds,
        web=not args.no_web,
        allowed_origins=tuple(args.allow_origin),
        cluster=args.cluster,
        lease=args.lease,
        metrics=not args.no_metrics,
        metrics_loopback=args.metrics_loopback,
        metrics_token=read_token(args.metrics_token_file),
    )


def read_token(path: str | None) -> str | None:
    """The token written in the file ``path`` (its first line), or None for no file;
    ``ValueError`` if it cannot be read or is empty."""
    if path is None:
        return None
    try:
        token = Path(path).read_text(encoding="utf-8").strip()
    except OSError as e:
        raise ValueError(f"the token file cannot be read: {e}") from e
    if not token:
        raise ValueError(f"the token file {path} is empty")
    return token


def store_from_args(args: argparse.Namespace) -> Store:
    if args.no_persist:
        if args.cluster:
            raise ValueError("a node of a cluster keeps its games in PostgreSQL: give --store")
        return MemoryStore()
    if args.cluster and not args.lease > 0:
        raise ValueError("--lease must be more than 0 seconds")
    return open_store(store_url(args), exclusive=not args.cluster)


def tune_gc() -> None:
    """Fewer, later cyclic collections: with thousands of connections and games live,
    the default thresholds make full collections that stall every table for tens of ms
    (measured: paced p99 58 ms -> 15 ms at 1,000 tables, docs/OPERATIONS.md). What is
    alive at start-up (modules, the card set) is frozen out of the collector."""
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)


FD_RESERVE = 64
"""File descriptors kept out of the connection budget for what the process holds
besides connections: standard streams, the listening sockets, the event loop's own,
the database and its journal, the bot worker processes' pipes. Measured at about 20
(``tests/server/test_open_files.py`` holds a running server with a store and bot
workers under half of this)."""

ACCEPT_TURNS = 3
"""Event-loop turns an accepted socket holds its descriptor before a refusal of ours can
close it: asyncio accepts up to ``backlog`` sockets in one turn, makes their transports
the next, calls ``connection_made`` (where a connection over the limits is refused) in
the one after, and the socket is closed at the start of the fourth. So up to
``ACCEPT_TURNS * backlog`` sockets are open beyond what the server counts."""


def fit_open_files(config: ServerConfig) -> dict[str, int | bool]:
    """Make the connection limits fit the process's open-file limit (``RLIMIT_NOFILE``).

    The process needs ``max_connections + max_handshakes`` descriptors for connections,
    ``ACCEPT_TURNS * backlog`` for sockets accepted but not yet refused, and
    ``FD_RESERVE`` for the rest. The soft limit is raised towards that, as far as the
    hard limit allows; if it still falls short, the limits are lowered to fit (the
    accept backlog to an eighth of what is left after ``FD_RESERVE``,
    ``max_handshakes`` to a tenth of the connection budget at most), so the server
    refuses connections politely instead of failing ``accept()``. Returns the figures
    for the start-up log line. ``ValueError`` if the limit leaves no room."""
    try:
        import resource
    except ImportError:  # not POSIX: nothing to fit
        return {}
    infinity = resource.RLIM_INFINITY
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = (
        config.max_connections + config.max_handshakes + FD_RESERVE + ACCEPT_TURNS * config.backlog
    )
    if soft != infinity and soft < want:
        new = want if hard == infinity else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
        except (ValueError, OSError):  # not allowed here: work within the soft limit
            pass
    lowered = False
    if soft != infinity and soft < want:
        config.backlog = min(config.backlog, max(1, (soft - FD_RESERVE) // 8))
        budget = soft - FD_RESERVE - ACCEPT_TURNS * config.backlog
        handshakes = min(config.max_handshakes, max(1, budget // 10))
        if budget - handshakes < 1:
            raise ValueError(
                f"the open-file limit ({soft}) leaves no room for connections;"
                f" raise it (ulimit -n) above {FD_RESERVE + ACCEPT_TURNS + 2}"
            )
        config.max_connections = min(config.max_connections, budget - handshakes)
        config.max_handshakes = handshakes
        lowered = True
    return {
        "open_files": -1 if soft == infinity else soft,
        "open_files_hard": -1 if hard == infinity else hard,
        "max_connections": config.max_connections,
        "max_handshakes": config.max_handshakes,
        "backlog": config.backlog,
        "lowered": lowered,
    }


def run(args: argparse.Namespace) -> int:
    setup_logging(args.log_level)
    try:
        config = config_from_args(args)
    except ValueError as e:
        log.error("cannot serve", extra={"error": str(e)})
        return 2
    try:
        fds = fit_open_files(config)
    except ValueError as e:
        log.error("cannot serve", extra={"error": str(e)})
        return 2
    if fds.get("lowered"):
        log.warning("connection limits lowered to fit the open-file limit", extra=fds)
    elif fds:
        log.info("open-file limit", extra=fds)
    try:
        store = store_from_args(args)
    except ValueError as e:
        log.error("cannot serve", extra={"error": str(e)})
        return 2
    try:
        if isinstance(store, SqliteStore):
            check_database_path(store.path)
    except BadDatabase as e:
        log.error("cannot serve", extra={"error": str(e)})
        return 2
    tune_gc()
    try:
        asyncio.run(run_server(config, store))
    except (BadDatabase, sqlite3.DatabaseError) as e:  # e.g. a damaged database file
        log.error("cannot serve", extra={"error": f"{store_url(args)}: {e}"})
        return 2
    except OSError as e:
        log.error("cannot serve", extra={"error": str(e)})
        return 1
    return 0
