"""The PostgreSQL backend of the store (psycopg 3): what the nodes of a cluster share.

Why: the nodes of a cluster need one database they all reach, with the same semantics
as SQLite (``SqlStore`` holds all of it): one writer thread, group commit, an
acknowledgement only after the commit, token hashes only, the schema migrated by the
server. PostgreSQL's own differences live here: ``%s`` placeholders, ``DOUBLE
PRECISION`` times (``PG_MIGRATIONS``), advisory locks (one server per database unless
it is a node of a cluster; migrations one at a time) and ``FOR SHARE`` on the fenced
tables' rows, which holds a competing ``claim`` off until the write commits.

Outages. A connection that cannot be made raises ``StoreUnavailable`` (after
``connect_timeout``: ``CONNECTION_DEFAULTS``); a connection found broken is made again
by its user (``Writer``, ``Readers``). The stand-alone server's lock lives in
a session of its own, which a restart of PostgreSQL ends: the writer takes it again
before it writes on a new connection, and so does each health probe; if another server
took it meanwhile, ``StoreInUse`` says so (the server stops) and nothing is written.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from .base import StoreInUse, StoreUnavailable
from .migrations import PG_MIGRATIONS
from .sql import SqlStore

__all__ = ["PG_MIGRATIONS", "PostgresStore"]

log = logging.getLogger("kupferkessel.store")

_LOCK_SERVER = 0x4B4B5345  # advisory lock keys ("KKSE", "KKMI")
_LOCK_MIGRATE = 0x4B4B4D49
CONNECTION_DEFAULTS = {
    "connect_timeout": 5,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
}
"""libpq's parameters unless the URL gives them: a connection is given up after 5 s,
and one whose server went silent (a network cut, a host gone) is found dead after
about 25 s by TCP keep-alives, instead of the system's two hours."""


class PostgresStore(SqlStore):
    """``url`` is a libpq URL (``postgresql://user@host:port/db``). ``exclusive`` holds
    a session advisory lock for as long as the store is open, so a second stand-alone
    server on the same database refuses to start; nodes of a cluster pass False."""

    MIGRATIONS = PG_MIGRATIONS
    INTEGRITY = (psycopg.IntegrityError,)
    NUM = "num"

    def __init__(
        self,
        url: str,
        *,
        max_batch: int = 1000,
        readonly: bool = False,
        exclusive: bool = True,
    ) -> None:
        super().__init__(max_batch=max_batch, readonly=readonly)
        self.dsn = url
        self.exclusive = exclusive
        self._holder: psycopg.Connection[Any] | None = None
        self._prober: psycopg.Connection[Any] | None = None  # a node's health probe's
        self._holding = threading.Lock()  # the holder's and the prober's, between threads
        given = conninfo_to_dict(url)
        self._defaults = {k: v for k, v in CONNECTION_DEFAULTS.items() if k not in given}

    @property
    def url(self) -> str:
        """The URL without its password (for messages and logs)."""
        params = conninfo_to_dict(self.dsn)
        params.pop("password", None)
        return make_conninfo("", **params)

    def _connect(self) -> psycopg.Connection[Any]:
        options = "-c default_transaction_read_only=on" if self.readonly else None
        kwargs: dict[str, Any] = {"autocommit": True, **self._defaults}
        if options:
            kwargs["options"] = options
        try:
            return psycopg.connect(self.dsn, **kwargs)
        except psycopg.OperationalError as e:
            raise StoreUnavailable(f"{self.url}: {' '.join(str(e).split())}") from e

    def _broken(self, con: Any) -> bool:
        return bool(con.closed or con.broken)

    def _connect_writer(self) -> psycopg.Connection[Any]:
        if self.exclusive:
            with self._holding:
                self._hold()  # never a write without the lock: it may have been lost
        return self._connect()

    def _lock_database(self) -> None:
        if self.exclusive:
            with self._holding:
                self._hold()

    def _hold(self) -> psycopg.Connection[Any]:
        """The session holding the lock (``_holding`` held): the one we have if it
        still answers, else a new one that takes the lock again (``StoreInUse`` if
        another server holds it now, ``StoreUnavailable`` if none can be made)."""
        holder = self._holder
        if holder is not None:
            try:
                holder.execute("SELECT 1")
                return holder
            except psycopg.Error:
                holder.close()
                self._holder = None
                log.warning("store lock lost: taking it again", extra={"store": self.url})
        holder = self._connect()
        try:
            row = holder.execute("SELECT pg_try_advisory_lock(%s)", (_LOCK_SERVER,)).fetchone()
        except psycopg.Error as e:
            holder.close()
            raise StoreUnavailable(str(e)) from e
        if not row or not row[0]:
            holder.close()
            raise StoreInUse(
                f"the database {self.url} is in use by another server (stop it, give this"
                " one its own database, or make both nodes of a cluster with --cluster)"
            )
        self._holder = holder  # the lock lives as long as this session
        return holder

    def _probe(self) -> bool:
        with self._holding:
            try:
                if self.exclusive:
                    self._hold()
                    return True
                if self._prober is None or self._broken(self._prober):
                    self._prober = self._connect()
                self._prober.execute("SELECT 1")
                return True
            except StoreUnavailable:
                return False
            except psycopg.Error:
                if self._prober is not None:
                    self._prober.close()
                    self._prober = None
                return False

    def _unlock_database(self) -> None:
        with self._holding:
            if self._prober is not None:
                self._prober.close()
                self._prober = None
            if self._holder is not None:
                # unlock before closing: the server ends a closed session a moment later,
                # and a server started right after this one must find the lock free
                with contextlib.suppress(psycopg.Error):
                    self._holder.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_SERVER,))
                self._holder.close()
                self._holder = None

    def _serialize_migrations(self, cur: Any) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_MIGRATE,))

    def _sql(self, sql: str) -> str:
        return _placeholders(sql)

    def _epochs_sql(self, n: int) -> str:
        return f"SELECT id, epoch FROM tables WHERE id IN ({', '.join(['%s'] * n)}) FOR SHARE"


@functools.lru_cache(maxsize=256)
def _placeholders(sql: str) -> str:
    """``?`` placeholders as psycopg's ``%s`` (our statements hold no other ``?`` or ``%``),
    and SQLite's ``COLLATE BINARY`` (code point order) as PostgreSQL's ``COLLATE "C"``."""
    return sql.replace("?", "%s").replace(" COLLATE BINARY", ' COLLATE "C"')
