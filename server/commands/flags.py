"""The flags of ``kupferkessel serve``, as data, and how they settle.

Every flag is a row of ``FLAGS``, and every flag has an environment variable (``KK_``
and its name: ``KK_PORT``, ``KK_NO_WEB``, ``KK_ALLOW_ORIGIN``). For every setting, the
flag wins over the environment variable, which wins over the config file (``--config
FILE``, TOML, keyed by the flags' names), which wins over the default (``settle``).
Settings that name the same thing (``--store`` and ``--db``; ``--host`` and ``--public``;
``--no-persist`` and a store) follow the same order; given from the same source with
different meanings they are a ``ConfigError``, never a silent choice. The commands that
act on a server's store or admin socket (``admin``, ``export``, ``ratings``) find them
with the same config file and store flags (``add_served_arguments``, ``served``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots.pool import default_workers
from ..lobby.quotas import Quotas
from ..players.analyses import AnalysisBounds
from ..players.hashing import SignInBounds
from ..store import default_db_path
from .configfile import ConfigError, read_config_file

__all__ = [
    "FLAGS",
    "UNIX_PATH_MAX",
    "Flag",
    "add_arguments",
    "add_served_arguments",
    "admin_socket",
    "served",
    "served_store",
    "settle",
    "store_url",
]


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

    def __post_init__(self) -> None:
        if self.env is None:  # every flag has its variable: KK_ and its name
            object.__setattr__(self, "env", "KK_" + self.name.upper().replace("-", "_"))

    @property
    def dest(self) -> str:
        return self.name.replace("-", "_")


def _seconds(name: str, env: str | None, default: float, what: str) -> Flag:
    shown = f"{default:g}"
    extra = f", env {env}" if env else ""
    help = f"{what} (default {shown}{extra})"
    return Flag(name, "float", default, help, env, "SECONDS", at_least=0)


_Q = Quotas()
_S = SignInBounds()
_A = AnalysisBounds()
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
    *(
        Flag(name, "int", default, f"{what} (default {default})", metavar="N", at_least=1)
        for name, default, what in (
            ("hash-slots", _S.slots, "slow hashes of sign-in computed at once"),
            ("hash-queue", _S.queue, "sign-ins waiting for a hash at most; more: rate_limited"),
            ("sign-ins-per-minute", int(_S.per_minute), "per client address: slow hashes"),
            ("registrations-per-hour", int(_S.registrations_per_hour), "per address: register"),
            ("max-devices", _S.devices, "devices (secrets) one player keeps at most"),
            ("analysis-budget", _A.budget, "1.5: sampled deals each decision is analysed over"),
            (
                "analysis-queue",
                _A.queue,
                "analyses waiting for a worker at most; more: rate_limited",
            ),
            ("analyses-per-hour", int(_A.per_hour), "per client address and per player: analyses"),
            ("analysis-burst", _A.burst, "per address and per player: analyses at once"),
            ("hints-per-minute", int(_A.hints_per_minute), "per address and per player: hints"),
            ("hint-burst", _A.hint_burst, "per address and per player: hints at once"),
            ("hints-at-once", _A.hints_at_once, "hints asked and not yet answered, at most"),
        )
    ),
    Flag(
        "analysis-workers",
        "int",
        _A.workers,
        "processes of the lowest priority that analyse finished games (protocol 1.5):"
        f" analyses made at once (default {_A.workers}; 0 analyses in a thread)",
        metavar="N",
        at_least=0,
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


def help_text(flag: Flag) -> str:
    """``flag``'s help, naming its environment variable."""
    return flag.help if f"env {flag.env}" in flag.help else f"{flag.help} (env {flag.env})"


def _add(p: argparse.ArgumentParser, flag: Flag) -> None:
    """Add ``flag`` to ``p``, with no default (None): ``settle`` tells a flag given from
    one left to the environment, the config file or the default."""
    if flag.kind == "bool":
        p.add_argument("--" + flag.name, action="store_true", default=None, help=help_text(flag))
        return
    p.add_argument(
        "--" + flag.name,
        type=_TYPES[flag.kind],
        action="append" if flag.kind == "list" else "store",
        metavar=flag.metavar,
        choices=flag.choices,
        help=help_text(flag),
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


SOURCES = ("default", "file", "environment", "flag")
"""Where a setting may come from, each winning over the ones before it."""
_WHERE = {
    "flag": "on the command line",
    "environment": "in the environment",
    "file": "in the config file",
}


def settle(args: argparse.Namespace) -> argparse.Namespace:
    """The settings the command line names: each flag from the command line, else its
    environment variable, else the config file (``--config``), else its default; then
    the settings that name one thing agreed (``_agree``). ``sources`` says where each
    came from (one of ``SOURCES``). ``ConfigError`` for a config file that cannot be
    read, an unknown key, a bad value (from any source) or settings that contradict
    each other."""
    if getattr(args, "settled", False):
        return args
    given = getattr(args, "config", None)
    known = {f.name: (f.kind, f.choices) for f in FLAGS}
    from_file = read_config_file(Path(given), known) if given else {}
    out = argparse.Namespace(**vars(args))
    sources: dict[str, str] = {}
    for flag in FLAGS:
        if not hasattr(args, flag.dest):
            continue  # not a flag of this command
        value = getattr(args, flag.dest)
        if value is not None:  # given on the command line
            sources[flag.dest] = "flag"
            _check_range(flag, value, f"--{flag.name}")
            continue
        if flag.env and os.environ.get(flag.env) is not None:
            value, sources[flag.dest] = _from_env(flag, os.environ[flag.env]), "environment"
        elif flag.name in from_file:
            value, sources[flag.dest] = from_file[flag.name], "file"
            _check_range(flag, value, f"{given}: {flag.name!r}", ConfigError)
            if flag.path and given and "://" not in value:
                value = str((Path(given).parent / value).resolve())
        else:
            value, sources[flag.dest] = flag.default, "default"
        setattr(out, flag.dest, list(value) if flag.kind == "list" else value)
    out.sources = sources
    _agree(out, sources)
    out.settled = True
    return out


def _from_env(flag: Flag, text: str) -> Any:
    """The value of ``flag`` written in its environment variable: a switch's ``1``,
    ``true``, ``yes``, ``on`` (or ``0``, ``false``, ``no``, ``off``, which turns off
    what the config file turned on), a list's items separated by commas."""
    where = flag.env
    if flag.kind == "bool":
        word = text.strip().lower()
        if word not in ("1", "true", "yes", "on", "0", "false", "no", "off", ""):
            raise ConfigError(f"{where} must be 1 or 0 (true or false), not {text!r}")
        return word in ("1", "true", "yes", "on")
    if flag.kind == "list":
        return [item.strip() for item in text.split(",") if item.strip()]
    try:
        value = _TYPES[flag.kind](text)
    except ValueError:
        kind = {"int": "a whole number", "float": "a number"}[flag.kind]
        raise ConfigError(f"{where} must be {kind}, not {text!r}") from None
    if flag.choices is not None and value not in flag.choices:
        raise ConfigError(f"{where} must be one of {', '.join(flag.choices)}, not {text!r}")
    _check_range(flag, value, f"{where}", ConfigError)
    return value


def _agree(out: argparse.Namespace, sources: dict[str, str]) -> None:
    """Settle the settings that name one thing by where they came from, as every
    setting is: ``--host`` and ``--public``; ``--store`` and ``--db``; a store and
    ``--no-persist``. The one from the stronger source wins (the other is set to agree,
    so what is logged is what runs); from the same source they must not contradict
    each other (``ConfigError``)."""

    def rank(*dests: str) -> int:
        return max(SOURCES.index(sources.get(d, "default")) for d in dests)

    def clash(a: str, b: str, how: str) -> ConfigError:
        where = _WHERE[SOURCES[rank(a.replace("-", "_"))]]
        return ConfigError(f"{a} and {b} {how} (both {where}): give one of them")

    if hasattr(out, "public") and hasattr(out, "host") and out.public:
        if rank("public") > rank("host"):
            out.host = "0.0.0.0"
        elif rank("host") > rank("public"):
            out.public = False
        elif out.host != "0.0.0.0":
            raise clash("public", "host", f"contradict each other (host {out.host})")
    if not hasattr(out, "store"):
        return
    if out.store is not None and out.db is not None and out.store != out.db:
        if rank("db") == rank("store"):
            raise clash("store", "db", "name two databases")
        if rank("db") > rank("store"):
            out.store, sources["store"] = out.db, sources["db"]
    elif out.store is None:
        out.store = out.db
    if getattr(out, "no_persist", False) and out.store is not None:
        if rank("no_persist") == rank("store", "db"):
            raise clash("no-persist", "store", "contradict each other")
        if rank("no_persist") < rank("store", "db"):
            out.no_persist = False
        else:  # nothing is stored: no store is in force
            out.store = out.db = None


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
    """The store the settled flags name (``settle``: --store or --db, whichever wins),
    else the default SQLite file."""
    return str(args.store or default_db_path())


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
