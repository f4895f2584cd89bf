"""What ``serve`` says and does around its run: the settings in force, logged once at
start whatever the log level (secrets masked), and ``SIGHUP``, which reloads what can
change without a restart and never stops the server.

Why: an operator must be able to read from the log which store, port and limits a
server runs with, and where each came from (``server.commands.flags``: flag, environment,
config file or default), even at ``log-level = "warning"``; a log rotation or a closed
terminal that sends ``SIGHUP`` must not take the server down.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..logs import set_level
from ..version import version
from .flags import FLAGS, settle

if TYPE_CHECKING:
    from ..app import Server

__all__ = [
    "RELOADABLE",
    "START",
    "Reload",
    "StopAsked",
    "hold_stops",
    "log_settings",
    "masked",
    "read_token",
    "release_stops",
    "until_served",
]

START = logging.getLogger("kupferkessel.start")
"""The lines a start (and a reload) always writes: at info whatever ``--log-level``
(``server.logs.setup_logging`` keeps this logger at info)."""

RELOADABLE = ("log-level", "metrics-loopback", "metrics-token-file")
"""The settings ``SIGHUP`` applies from the config file; any other that changed there
is named in the log as needing a restart."""


def masked(value: Any) -> Any:
    """``value`` with the password of a URL in it masked (``postgresql://kk:***@db/kk``,
    ``redis://:***@host``, ``?password=***``); anything else as it is."""
    if not isinstance(value, str) or "://" not in value:
        return value
    try:
        parts = urlsplit(value)
        netloc = parts.netloc
        if parts.password is not None:
            user, _, host = netloc.rpartition("@")
            netloc = f"{user.split(':', 1)[0]}:***@{host}"
        query = [(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query)]
        return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, safe="*")))
    except ValueError:  # not a URL after all: hide what could be a secret
        return "***"


def _shown(args: argparse.Namespace) -> dict[str, Any]:
    """Every setting in force, by its flag's name, masked."""
    return {f.name: masked(getattr(args, f.dest)) for f in FLAGS if hasattr(args, f.dest)}


def log_settings(args: argparse.Namespace) -> None:
    """One line, ``settings``: the version, the config file, every setting in force and
    where each that is not a default came from. The metrics token file is named, its
    token never read into the line; URLs' passwords are masked."""
    sources = getattr(args, "sources", {})
    START.info(
        "settings",
        extra={
            "version": version(),
            "config": getattr(args, "config", None),
            "settings": _shown(args),
            "sources": {
                f.name: sources[f.dest]
                for f in FLAGS
                if sources.get(f.dest, "default") != "default"
            },
        },
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


class StopAsked(BaseException):
    """``SIGTERM`` or ``SIGINT`` came before the server handles them (``until_served``).
    A ``BaseException``, as ``KeyboardInterrupt``: no ``except Exception`` takes it."""


class _Held:
    """Whether a stop is held now (``hold_stops``), and the first that came meanwhile."""

    held = False
    came: str | None = None


_HELD = _Held()


def _stop_asked(signum: int, frame: object) -> None:
    name = signal.Signals(signum).name
    if _HELD.held:
        _HELD.came = _HELD.came or name
        return
    raise StopAsked(name)


def hold_stops() -> None:
    """Hold ``StopAsked`` back (inside ``until_served``) while code runs that an
    exception must not cut in two: the making of the event loop, which, cut off half
    made, complains on stderr when it is collected. ``release_stops`` raises a stop that
    came meanwhile."""
    _HELD.held = True


def release_stops() -> None:
    """Let stops through again; ``StopAsked`` here if one came while they were held."""
    came, _HELD.held, _HELD.came = _HELD.came, False, None
    if came is not None:
        raise StopAsked(came)


@contextlib.contextmanager
def until_served() -> Iterator[None]:
    """The signals while ``serve`` starts, until the server handles them itself
    (``app.run_server``, from its first step on): ``SIGTERM`` and ``SIGINT`` raise
    ``StopAsked`` (``serve`` then exits cleanly: nothing is open yet), and ``SIGHUP`` is
    ignored until ``Reload`` handles it, since a hang-up must not end the process then
    either (bot workers started meanwhile inherit it). What was there before is put
    back at the end (``run`` may be called in a process that goes on: the tests)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    mine: dict[signal.Signals, Any] = {signal.SIGTERM: _stop_asked, signal.SIGINT: _stop_asked}
    if hasattr(signal, "SIGHUP"):
        mine[signal.SIGHUP] = signal.SIG_IGN
    previous = {sig: signal.signal(sig, handler) for sig, handler in mine.items()}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _HELD.held, _HELD.came = False, None


class Reload:
    """``SIGHUP``: read the settings again (the config file may have changed), apply
    those of ``RELOADABLE``, name the others that changed as needing a restart, and
    load the operator's sanctions from the store again. A file that no longer reads is
    logged and changes nothing: the server keeps running as it was."""

    def __init__(self, given: argparse.Namespace, settled: argparse.Namespace) -> None:
        self.given = given  # the command line as parsed, before ``settle``
        self.settled = settled  # the settings in force

    def __call__(self, server: Server) -> None:
        try:
            fresh = settle(argparse.Namespace(**vars(self.given)))
            token = read_token(fresh.metrics_token_file)
        except ValueError as e:
            START.error("reload refused: the settings in force stay", extra={"error": str(e)})
            return
        applied: list[str] = []
        restart: list[str] = []
        for flag in FLAGS:
            if getattr(fresh, flag.dest) == getattr(self.settled, flag.dest):
                continue
            (applied if flag.name in RELOADABLE else restart).append(flag.name)
        set_level(fresh.log_level)
        if server.metrics is not None:
            server.metrics.loopback = fresh.metrics_loopback
            server.metrics.token = token
        for name in RELOADABLE:
            setattr(self.settled, name.replace("-", "_"), getattr(fresh, name.replace("-", "_")))
        asyncio.get_running_loop().create_task(_sanctions(server))
        START.info(
            "reloaded",
            extra={"applied": ",".join(applied), "restart_needed": ",".join(restart)},
        )


async def _sanctions(server: Server) -> None:
    """The operator's sanctions as the store holds them now, enforced here."""
    try:
        for fresh in await asyncio.to_thread(server.moderation.load):
            server.moderation.enforce(fresh, server.sessions)
    except Exception:  # a failed reload must not end anything
        START.exception("reloading the sanctions failed")
