"""The optional drivers of a cluster (``pip install 'kupferkessel[cluster]'``).

Why: a player who only plays, joins or hosts games on a LAN needs neither the
PostgreSQL driver nor the Redis client (about a third of an install). They are an
extra; only the modules that use them import them, and those are reached only when a
PostgreSQL store or ``--cluster`` is configured. ``require`` turns their absence into
one clear line (``MissingExtra``, a configuration error: exit 2) before anything
starts, and ``unreachable`` tells their connection errors apart without importing them.
"""

from __future__ import annotations

import importlib.util
import sqlite3
import sys

__all__ = ["INSTALL", "MissingExtra", "database_errors", "require", "unreachable"]

INSTALL = "pip install 'kupferkessel[cluster]'"
"""What installs the drivers (with pipx: ``pipx install --force 'kupferkessel[cluster]'``)."""


class MissingExtra(ValueError):
    """A PostgreSQL store or a cluster is configured but its driver is not installed."""


def require(module: str, what: str) -> None:
    """``MissingExtra`` unless ``module`` (``psycopg``, ``redis``) can be imported;
    ``what`` says what needs it (``a PostgreSQL store``)."""
    try:
        found = importlib.util.find_spec(module) is not None
    except ImportError:  # an import hook that refuses it: not installed either
        found = False
    if not found:
        raise MissingExtra(f"{what} needs the cluster's drivers ({module}): {INSTALL}")


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` says a database, Redis or a port cannot be reached now (maybe
    later): an ``OSError``, psycopg's ``OperationalError``, redis's ``ConnectionError``.
    The drivers are looked up among the modules already imported: an error of theirs
    means they were."""
    if isinstance(error, OSError):
        return True
    kinds = []
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None:
        kinds.append(psycopg.OperationalError)
    redis = sys.modules.get("redis.exceptions")
    if redis is not None:
        kinds.append(redis.ConnectionError)
    return isinstance(error, tuple(kinds))


def database_errors(*more: type[Exception]) -> tuple[type[Exception], ...]:
    """The errors of the databases in use (sqlite3's, and psycopg's once it is
    imported), and ``more``: what a command that reads a store catches."""
    psycopg = sys.modules.get("psycopg")
    found = (sqlite3.Error,) if psycopg is None else (sqlite3.Error, psycopg.Error)
    return (*more, *found)
