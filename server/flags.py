"""The flags of ``kupferkessel serve``, as data, and how they settle.

Every flag is a row of ``FLAGS``. Flags win over environment variables (``KK_HOST``,
``KK_PORT``, ``KK_STORE``, ``KK_DB``, ``KK_NAME``, ``KK_FINISHED_TTL``, ...), which win
over the config file (``--config FILE``, TOML, keyed by the flags' names), which wins
over the defaults (``settle``). The commands that act on a server's store or admin
socket (``admin``, ``export``, ``ratings``) find them with the same config file and
store flags (``add_served_arguments``, ``served``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from .bots.pool import default_workers
from .config import ConfigError, read_config_file
from .lobby.quotas import Quotas

__all__ = [
    "FLAGS",
    "UNIX_PATH_MAX",
    "Flag",
    "add_arguments",
    "add_served_arguments",
    "admin_socket",
    "default_db_path",
    "served",
    "served_store",
    "settle",
    "store_url",
]


def default_db_path() -> Path:
    return Path(platformdirs.user_data_dir("kupferkessel")) / "server.db"


@dataclass(frozen=True)
class Flag:
    """One flag of ``serve``: its name (also its key in a config file), the kind of its
    value, its default, the environment variable that may set it, and its help."""

    name: str
    kind: str  # "bool" (a switch), "int", "float", "str", "list" (repeatable str)
    default: Any
    help: str
    env: str | None = None
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    path: bool = False  # a file's path: in a config file, relative to the file's folder
    at_least: float | None = None  # a number's smallest value (from any source)
    at_most: float | None = None  # a number's largest value

    @property
    def dest(self) -> str:
        return self.name.replace("-", "_")


def _seconds(name: str, env: str | None, default: float, what: str) -> Flag:
    shown = f"{default:g}"
    extra = f", env {env}" if env else ""
    help = f"{what} (default {shown}{extra})"
    return Flag(name, "float", default, help, env, "SECONDS", at_least=0)


_Q = Quotas()
STORE_FLAGS = (
    Flag(
        "store",
        "str",
        None,
        "where games are stored: a SQLite database file, or postgresql://user@host/db"
        f" (default {default_db_path()}, env KK_STORE)",
        "KK_STORE",
        "URL",
        path=True,
    ),
    Flag(
        "db",
        "str",
        None,
        "a SQLite database file (the same as --store PATH; env KK_DB)",
        "KK_DB",
        "PATH",
        path=True,
    ),
)
FLAGS: tuple[Flag, ...] = (
    Flag(
        "host",
        "str",
        "127.0.0.1",
        "address to listen on (default 127.0.0.1, env KK_HOST)",
        "KK_HOST",
    ),
    Flag("public", "bool", False, "listen on every interface (same as --host 0.0.0.0)"),
    Flag(
        "port",
        "int",
        8765,
        "port (default 8765, env KK_PORT; 0 picks a free one)",
        "KK_PORT",
        at_least=0,
        at_most=65535,
    ),
    Flag(
        "name",
        "str",
        "Kupferkessel server",
        "server name shown to clients (default Kupferkessel server, env KK_NAME)",
        "KK_NAME",
    ),
    *STORE_FLAGS,
    Flag("no-persist", "bool", False, "keep nothing on disk: games are lost when the server stops"),
    Flag(
        "max-connections",
        "int",
        5000,
        "open WebSocket connections at most (default 5000)",
        metavar="N",
        at_least=1,
    ),
    Flag(
        "max-handshakes",
        "int",
        100,
        "TCP connections beyond --max-connections (in their handshake, or being"
        " refused); past both the oldest unfinished handshake is dropped (default 100)",
        metavar="N",
        at_least=0,
    ),
    Flag(
        "max-tables",
        "int",
        10_000,
        "tables not yet finished at most (default 10000)",
        metavar="N",
        at_least=0,
    ),
    Flag(
        "behind-proxy",
        "bool",
        False,
        "a reverse proxy on this machine forwards the clients: count the per-address"
        " quotas by the last address of X-Forwarded-For (only from a loopback peer)",
    ),
    *(
        Flag(
            name,
            "int",
            default,
            f"per client address: {what} it made, at most (default {default}; 0: no limit)",
            metavar="N",
            at_least=0,
        )
        for name, default, what in (
            ("peer-lobby-tables", _Q.lobby_tables, "tables waiting in the lobby"),
            ("peer-unattended-games", _Q.unattended_games, "running games nobody is connected to"),
            ("peer-bot-games", _Q.bot_games, "games of bots only"),
        )
    ),
    Flag(
        "bot-think",
        "float",
        None,
        "seconds per move for server-side searching bots, instead of their levels' "
        "iteration budgets (default: the budgets, so a level's strength does not depend on load)",
        metavar="SECONDS",
        at_least=0.01,
    ),
    Flag(
        "bot-workers",
        "int",
        default_workers(),
        "processes server-side bots think in: at most N cores think for bots, never the"
        f" event loop's (default {default_workers()} here: the cores but one, 1 to 4;"
        " 0 thinks in a thread)",
        metavar="N",
        at_least=0,
    ),
    _seconds(
        "finished-ttl",
        "KK_FINISHED_TTL",
        600,
        "a finished table leaves memory this long after its game ended; its record stays"
        " in the database",
    ),
    _seconds(
        "lobby-ttl",
        "KK_LOBBY_TTL",
        1800,
        "a table nobody has sat at or watched for this long before its game started is"
        " closed as abandoned (0 keeps it forever)",
    ),
    _seconds(
        "abandon-ttl",
        "KK_ABANDON_TTL",
        600,
        "a running game no person has been connected to (or watched) for this long ends"
        " as abandoned and leaves memory (0 keeps it forever)",
    ),
    Flag("no-seeds", "bool", False, "refuse seeds chosen by clients in create_table"),
    Flag(
        "rated-allow",
        "list",
        [],
        "at rated tables allow WHAT too: bots, seeds (chosen by the creator) or casual"
        " (memory); repeatable; none by default (docs/SERVER.md)",
        metavar="WHAT",
    ),
    Flag(
        "rated-move",
        "float",
        60,
        "seconds per move of a rated table created without a move time: rated games"
        " always run on a clock, so a player cannot stall one (default 60)",
        metavar="SECONDS",
        at_least=1,
        at_most=86400,
    ),
    Flag("no-web", "bool", False, "serve no browser client on GET / (protocol only)"),
    Flag(
        "allow-origin",
        "list",
        [],
        "accept WebSocket handshakes from pages of ORIGIN (https://example.org) too;"
        " by default only the server's own page and programs (no Origin) may connect;"
        " repeatable",
        metavar="ORIGIN",
    ),
    Flag(
        "allow-host",
        "list",
        [],
        "answer requests naming NAME as their Host too (kk.example.org; * for any):"
        " by default only the server's IP addresses, localhost and the --host it listens"
        " on, so no other site's page reaches it by DNS rebinding (programs' WebSocket"
        " handshakes, without Origin, are not checked); repeatable (env KK_ALLOW_HOST,"
        " names separated by commas)",
        "KK_ALLOW_HOST",
        metavar="NAME",
    ),
    Flag(
        "cluster",
        "str",
        None,
        "redis://host:port/db: run as a node of a cluster sharing this Redis and a"
        " PostgreSQL --store (env KK_CLUSTER; docs/OPERATIONS.md)",
        "KK_CLUSTER",
        "URL",
    ),
    _seconds(
        "lease",
        "KK_LEASE",
        3,
        "with --cluster: how long a node's hold on a table lasts unless renewed; a dead"
        " node's tables are served again after about this long",
    ),
    Flag("no-metrics", "bool", False, "answer no GET /metrics (Prometheus figures)"),
    Flag(
        "metrics-loopback",
        "bool",
        False,
        "answer GET /metrics to this machine only (nothing forwarded by a proxy on it)",
    ),
    Flag(
        "metrics-token-file",
        "str",
        None,
        "answer GET /metrics only with the bearer token written in this file"
        " (Authorization: Bearer TOKEN)",
        metavar="PATH",
        path=True,
    ),
    Flag(
        "admin-socket",
        "str",
        None,
        "the unix socket `kupferkessel admin` talks to (mode 0600; default: admin.sock"
        " beside a SQLite store; none with PostgreSQL or --no-persist unless given)",
        metavar="PATH",
        path=True,
    ),
    Flag("no-admin", "bool", False, "open no admin socket"),
    Flag(
        "log-level",
        "str",
        "info",
        "how much to log (default info)",
        choices=("debug", "info", "warning", "error"),
    ),
)
"""Every flag of ``serve``, as data: the parser, the config file and the docs follow it."""

_TYPES: dict[str, Callable[[str], Any]] = {"int": int, "float": float, "str": str, "list": str}


def _add(p: argparse.ArgumentParser, flag: Flag) -> None:
    """Add ``flag`` to ``p``. Its default is left out (None, or its environment
    variable's value, which argparse converts and reports): ``settle`` tells a flag
    given from one left to the config file or the default."""
    if flag.kind == "bool":
        p.add_argument("--" + flag.name, action="store_true", default=None, help=flag.help)
        return
    env = flag.env if flag.kind != "list" else None  # a list's: ``settle`` reads it
    p.add_argument(
        "--" + flag.name,
        type=_TYPES[flag.kind],
        default=os.environ.get(env) if env else None,
        action="append" if flag.kind == "list" else "store",
        metavar=flag.metavar,
        choices=flag.choices,
        help=flag.help,
    )


def _add_config(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--config", metavar="FILE", default=os.environ.get("KK_CONFIG"), help=help)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``serve``'s flags: ``--config`` and every row of ``FLAGS``."""
    _add_config(
        p,
        "a TOML file setting any of these flags by name (port = 9000); flags and"
        " environment variables win over it (env KK_CONFIG; docs/SERVER.md)",
    )
    for flag in FLAGS:
        _add(p, flag)


def add_served_arguments(p: argparse.ArgumentParser) -> None:
    """The flags by which a command that acts on a server's store or admin socket
    (``admin``, ``export``, ``ratings``) finds them as ``serve`` does: ``--config``
    (env ``KK_CONFIG``), ``--store``, ``--db``; read them back with ``served``."""
    _add_config(
        p, "the config file the server runs with: its store and admin socket (env KK_CONFIG)"
    )
    for flag in STORE_FLAGS:
        _add(p, flag)


def settle(args: argparse.Namespace) -> argparse.Namespace:
    """The settings the command line names: each flag from the command line, else its
    environment variable, else the config file (``--config``), else its default.
    ``ConfigError`` for a config file that cannot be read, an unknown key or a bad value."""
    if getattr(args, "settled", False):
        return args
    given = getattr(args, "config", None)
    known = {f.name: (f.kind, f.choices) for f in FLAGS}
    from_file = read_config_file(Path(given), known) if given else {}
    out = argparse.Namespace(**vars(args))
    for flag in FLAGS:
        if not hasattr(args, flag.dest):
            continue  # not a flag of this command
        listed = os.environ.get(flag.env) if flag.kind == "list" and flag.env else None
        if getattr(args, flag.dest) is None and listed:  # a list's variable: commas between
            setattr(out, flag.dest, [v.strip() for v in listed.split(",") if v.strip()])
            continue
        if getattr(args, flag.dest) is not None:  # given (or its environment variable)
            env = f" (or {flag.env})" if flag.env else ""
            _check_range(flag, getattr(args, flag.dest), f"--{flag.name}{env}")
            continue
        value = from_file.get(flag.name, flag.default)
        if flag.name in from_file:
            _check_range(flag, value, f"{given}: {flag.name!r}", ConfigError)
        if flag.path and flag.name in from_file and given and "://" not in value:
            value = str((Path(given).parent / value).resolve())
        setattr(out, flag.dest, list(value) if flag.kind == "list" else value)
    out.settled = True
    return out


def _check_range(flag: Flag, value: Any, where: str, error: type[ValueError] = ValueError) -> None:
    """``error`` naming ``where`` if the number ``value`` is outside ``flag``'s range
    (a port over 65535, a negative count or time): refused at start, not misread later."""
    if flag.kind not in ("int", "float") or value is None:
        return
    low, high = flag.at_least, flag.at_most
    if (low is not None and value < low) or (high is not None and value > high):
        wanted = f"from {low:g} to {high:g}" if high is not None else f"at least {low:g}"
        raise error(f"{where} must be {wanted}, not {value!r}")


def store_url(args: argparse.Namespace) -> str:
    """The store the flags name: --store, else --db, else the default SQLite file."""
    return str(args.store or args.db or default_db_path())


def served(args: argparse.Namespace) -> argparse.Namespace:
    """The settings ``serve`` runs with, from the flags ``add_served_arguments`` added
    alone (its config file and store): what ``admin``, ``export`` and ``ratings`` need
    to find its store and admin socket. ``ConfigError`` as for ``settle``."""
    serve = argparse.Namespace(**{f.dest: None for f in FLAGS})
    serve.config, serve.store, serve.db = args.config, args.store, args.db
    return settle(serve)


def served_store(args: argparse.Namespace) -> str:
    """The store ``serve`` keeps its games in, as ``served`` finds it."""
    return store_url(served(args))


UNIX_PATH_MAX = 104
"""Bytes a unix socket's path may have everywhere (Linux allows 107, macOS 103)."""


def admin_socket(args: argparse.Namespace) -> str | None:
    """The admin socket the settings name: ``--admin-socket``, else ``admin.sock``
    beside a SQLite store (one server per database, so one per socket), else none (a
    PostgreSQL store may serve several nodes on one machine: each names its own)."""
    args = settle(args)
    if args.no_admin:
        return None
    if args.admin_socket:
        return str(args.admin_socket)
    if args.no_persist or store_url(args).startswith(("postgresql://", "postgres://")):
        return None
    path = Path(store_url(args)).resolve().parent / "admin.sock"
    return str(path) if len(os.fsencode(path)) < UNIX_PATH_MAX else None
