"""``kupferkessel serve``: run a dedicated server.

Its flags, the environment variables and the config file that may set them, and the
order in which they win, are in ``server.commands.flags``. The default host is loopback:
listening on every interface is an explicit choice (``--host 0.0.0.0`` or
``--public``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import sqlite3
from collections.abc import Coroutine
from typing import Any

from ..app import ServerConfig, run_server
from ..extras import require, unreachable
from ..lobby.quotas import Quotas
from ..logs import setup_logging
from ..players.analyses import AnalysisBounds
from ..players.hashing import SignInBounds
from ..players.service import RATED_EXTRAS
from ..store import BadDatabase, MemoryStore, SqliteStore, Store, check_database_path, open_store
from .flags import FLAGS, Flag, add_arguments, admin_socket, settle, store_url
from .startup import (
    Reload,
    StopAsked,
    hold_stops,
    log_settings,
    read_token,
    release_stops,
    until_served,
)

__all__ = [
    "FLAGS",
    "Flag",
    "add_arguments",
    "config_from_args",
    "read_token",
    "run",
    "settle",
    "store_from_args",
    "tune_gc",
]

log = logging.getLogger("kupferkessel.server")


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    args = settle(args)
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
        rated_allow=rated_extras(args.rated_allow),
        rated_move=args.rated_move,
        signin=SignInBounds(
            slots=args.hash_slots,
            queue=args.hash_queue,
            per_minute=args.sign_ins_per_minute,
            registrations_per_hour=args.registrations_per_hour,
            devices=args.max_devices,
        ),
        analysis=AnalysisBounds(
            budget=args.analysis_budget,
            workers=args.analysis_workers,
            queue=args.analysis_queue,
            per_hour=args.analyses_per_hour,
            burst=args.analysis_burst,
            hints_per_minute=args.hints_per_minute,
            hint_burst=args.hint_burst,
            hints_at_once=args.hints_at_once,
        ),
        web=not args.no_web,
        allowed_origins=tuple(args.allow_origin),
        allowed_hosts=tuple(args.allow_host),
        cluster=args.cluster,
        lease=args.lease,
        metrics=not args.no_metrics,
        metrics_loopback=args.metrics_loopback,
        metrics_token=read_token(args.metrics_token_file),
        admin_socket=admin_socket(args),
    )


def rated_extras(values: list[str]) -> frozenset[str]:
    """``--rated-allow``'s values; ``ValueError`` for one that is not allowed."""
    unknown = sorted(set(values) - RATED_EXTRAS)
    if unknown:
        raise ValueError(f"--rated-allow: {', '.join(unknown)}: not one of bots, seeds, casual")
    return frozenset(values)


def store_from_args(args: argparse.Namespace) -> Store:
    args = settle(args)
    if args.no_persist:
        if args.cluster:
            raise ValueError("a node of a cluster keeps its games in PostgreSQL: give --store")
        return MemoryStore()
    if args.cluster and not args.lease > 0:
        raise ValueError("--lease must be more than 0 seconds")
    if args.cluster:
        require("redis", "a node of a cluster (--cluster)")
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
    """Serve until SIGTERM or SIGINT. Exit 0 after a clean stop; 2 for a setting, a
    config file or a database that cannot serve (no use retrying: fix it); 1 for what
    may pass (the port taken, the database in use or taken by another server: a
    restart may help), as for a crash (docs/SERVER.md, "Exit codes")."""
    try:
        with until_served():  # the signals, until the server handles them
            return _run(args)
    except StopAsked as e:  # before the server started: nothing was open yet
        log.info("stopped while starting", extra={"signal": str(e)})
        return 0


def _run(args: argparse.Namespace) -> int:
    given = args
    try:
        args = settle(args)
    except ValueError as e:
        setup_logging("info")
        log.error("cannot serve", extra={"error": str(e)})
        return 2
    setup_logging(args.log_level)
    log_settings(args)
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
    # a stop asked before the loop runs it leaves the coroutine unstarted: closed here,
    # it goes quietly (not "coroutine 'run_server' was never awaited" on stderr)
    serving = run_server(config, store, Reload(given, args))
    hold_stops()  # a stop waits until the loop is made whole (``_released``)
    try:
        asyncio.run(_released(serving))
    except (BadDatabase, sqlite3.DatabaseError) as e:  # e.g. a damaged database file
        log.error("cannot serve", extra={"error": f"{store_url(args)}: {e}"})
        return 2
    except Exception as e:
        if not unreachable(e):
            raise  # a crash: its traceback, exit 1
        # the port cannot be bound, the database or Redis cannot be reached: maybe later
        log.error("cannot serve", extra={"error": " ".join(str(e).split())})
        return 1
    finally:
        serving.close()  # nothing, once it has run
    return 0


async def _released(serving: Coroutine[Any, Any, None]) -> None:
    """``serving``, once a stop held while the event loop was made has come through (as
    ``StopAsked``: the loop is then closed whole, and ``serving`` never started)."""
    release_stops()
    await serving
