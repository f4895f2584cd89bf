"""The SQLite backend of the store (standard library): the default, one server per file.

Why: a single server needs no database server; SQLite in WAL mode with
``synchronous=FULL`` keeps every committed write through a crash of the process or the
machine, and a lock beside the file keeps a second server off the same games.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import IO, Any

import platformdirs

from .base import BadDatabase, StoreInUse
from .migrations import SQLITE_MIGRATIONS
from .sql import SqlStore

try:
    import fcntl
except ImportError:  # on Windows: there, nothing stops a second server
    fcntl = None  # type: ignore[assignment]

__all__ = ["SQLITE_HEADER", "SqliteStore", "check_database_path", "default_db_path"]

SQLITE_HEADER = b"SQLite format 3\x00"


def default_db_path() -> Path:
    """This user's database when none is named: ``serve``'s, and ``host``'s."""
    return Path(platformdirs.user_data_dir("kupferkessel")) / "server.db"


def check_database_path(path: str | Path) -> Path:
    """The database file at ``path`` if it can be one (absent, empty, or SQLite);
    ``BadDatabase`` with a one-line reason otherwise. Checked before anything is
    created or locked beside it."""
    if str(path) == ":memory:" or str(path).startswith("file:"):
        raise BadDatabase(
            f"{path} is not a database file (to keep nothing on disk, use --no-persist)"
        )
    p = Path(path)
    if p.is_dir():
        raise BadDatabase(f"{p} is a directory, not a database file")
    if p.exists():
        if not p.is_file():
            raise BadDatabase(f"{p} is not a regular file")
        try:
            with open(p, "rb") as f:
                head = f.read(len(SQLITE_HEADER))
        except OSError as e:
            raise BadDatabase(f"cannot read {p}: {e.strerror or e}") from e
        if head and head != SQLITE_HEADER:
            raise BadDatabase(f"{p} is not a SQLite database")
    elif p.parent.exists() and not p.parent.is_dir():
        raise BadDatabase(f"{p.parent} is not a directory")
    return p


class SqliteStore(SqlStore):
    """SQLite (standard library) in WAL mode with ``synchronous=FULL``."""

    BEGIN = "BEGIN IMMEDIATE"
    MIGRATIONS = SQLITE_MIGRATIONS
    INTEGRITY = (sqlite3.IntegrityError,)

    def __init__(self, path: str | Path, *, max_batch: int = 1000, readonly: bool = False) -> None:
        super().__init__(max_batch=max_batch, readonly=readonly)
        self.path = str(path)
        self._lock: IO[str] | None = None  # the held PATH.lock (see _lock_database)

    @property
    def url(self) -> str:
        return self.path

    def _lock_database(self) -> None:
        """One server per database: two would each restore the same games and play
        them on (their bots too), each writing its own moves. An exclusive lock on
        ``PATH.lock`` (released by the system when the process dies, however it dies)
        makes the second one refuse to start. Readers (``export``) take no lock."""
        check_database_path(self.path)  # before anything is created beside it
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        if fcntl is None or self._lock is not None:
            return
        # the file itself, not the name given: a symlink or another spelling of the
        # path (``./kk.db``, ``dir/../kk.db``) must find the same lock
        real = Path(self.path).resolve()
        lock = open(f"{real}.lock", "a+")  # noqa: SIM115 - held until close()
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            lock.close()
            raise StoreInUse(
                f"the database {self.path} is in use by another server on this machine"
                " (stop it, or give this one its own --store)"
            ) from e
        self._lock = lock

    def _unlock_database(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file releases the lock
            self._lock = None

    def _epochs_sql(self, n: int) -> str:
        # BEGIN IMMEDIATE already holds the database's write lock: no claim can interleave
        return f"SELECT id, epoch FROM tables WHERE id IN ({', '.join('?' * n)})"

    def _connect(self) -> sqlite3.Connection:
        if self.readonly:
            if not Path(self.path).is_file():
                raise FileNotFoundError(f"no database at {self.path}")
            uri = Path(self.path).resolve().as_uri() + "?mode=ro"
            return sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        con = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.execute("PRAGMA foreign_keys=ON")
        return con

    def _sql(self, sql: str) -> str:
        return sql  # SQLite takes the ``?`` placeholders the statements are written with

    def _serialize_migrations(self, cur: Any) -> None:
        pass  # BEGIN IMMEDIATE already holds the database's write lock
