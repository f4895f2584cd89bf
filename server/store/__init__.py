"""Durable storage of tables, seats and game records, in SQLite or PostgreSQL.

Why: an intent is acknowledged only once its action is durable, and a game survives a
crash of the process, of the machine, or of a node of a cluster.

Layout. ``base`` holds the one interface the server writes through (``Store``, abstract:
a backend missing a method cannot be constructed) and the records it reads back;
``memory`` the store that keeps nothing (``--no-persist``); ``sql`` what both SQL
backends share (``SqlStore``), ``writer`` its writer thread; ``sqlite`` and ``postgres``
the two backends; ``migrations`` the schema. ``open_store`` picks a backend from a URL.

Theory of operation. ``Store`` is the one interface the server writes through; two SQL
backends implement it with the same semantics (``SqlStore`` holds all they share):
``SqliteStore`` (standard library; the default, one server per database file) and
``PostgresStore`` (``server.store.postgres``; what the nodes of a cluster share).
``open_store`` picks one from a URL. Every write goes through one writer thread that
owns a connection. Callers on the event loop ``await`` a write; the writer drains
everything queued, runs it in ONE transaction and commits once (group commit: under load
many intents share one commit), then resolves each caller's future. So the event loop
never blocks on disk, and an intent is acknowledged only after its action is committed.

A committed transaction survives a crash of the process and of the machine (SQLite: WAL
with ``synchronous=FULL``; PostgreSQL: its WAL with ``synchronous_commit=on``). Seat
tokens are never stored, only their SHA-256 hash. A game is stored as a record (RULES.md
section 11): its set-up (options with the seed, and the explicit deal) plus an
append-only list of actions; restoring a table replays them.

The schema is created and migrated by the server itself: ``schema_version`` holds how
many of the backend's ``MIGRATIONS`` ran; a server never runs on a newer schema.

Fencing. A node of a cluster ``claim``s a table before it serves it: the table's
``epoch`` in the database goes up by one and the store remembers the epoch it got.
Every later write of that table carries it, and the writer checks it, in the write's own
transaction, against the row (locked until the commit): a write carrying an older epoch
is refused with ``StaleOwner`` and nothing of it is stored. So a node that lost its
table (paused past its lease, cut off) can never write into a game another node took
over. The epoch a write carries is the one its intent was accepted under (``held`` when
the table validated it), never looked up when the write leaves: a node's store
(``fence_writes``) refuses at once, before the database, a write for a table it does not
hold any more or under another epoch, and the database refuses a write carrying no epoch
for a table that has ever been claimed. A table never claimed (a single server's) is
written without an epoch.
"""

from __future__ import annotations

from pathlib import Path

from ..extras import require
from .base import (
    BadDatabase,
    PlayerSeated,
    Sanction,
    StaleOwner,
    Store,
    StoredGame,
    StoredSeat,
    StoredTable,
    StoreInUse,
    StoreUnavailable,
)
from .memory import MemoryStore
from .migrations import PG_MIGRATIONS, SQLITE_MIGRATIONS
from .sql import ALIVE_KEPT, SqlStore
from .sqlite import SQLITE_HEADER, SqliteStore, check_database_path, default_db_path

__all__ = [
    "ALIVE_KEPT",
    "PG_MIGRATIONS",
    "SQLITE_HEADER",
    "SQLITE_MIGRATIONS",
    "BadDatabase",
    "MemoryStore",
    "PlayerSeated",
    "Sanction",
    "SqlStore",
    "SqliteStore",
    "StaleOwner",
    "Store",
    "StoreInUse",
    "StoreUnavailable",
    "StoredGame",
    "StoredSeat",
    "StoredTable",
    "check_database_path",
    "default_db_path",
    "open_store",
]


def open_store(url: str | Path, *, readonly: bool = False, exclusive: bool = True) -> SqlStore:
    """The store a ``--store`` URL names: ``postgresql://...`` (or ``postgres://``) for
    PostgreSQL, anything else is the path of a SQLite database. ``exclusive`` (the
    default) makes the store refuse to start while another server uses the database;
    the nodes of a cluster share theirs (fencing keeps them apart)."""
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        # imported here: psycopg (about 0.1 s, and an extra) is loaded only when used
        require("psycopg", "a PostgreSQL store")
        from .postgres import PostgresStore

        return PostgresStore(text, readonly=readonly, exclusive=exclusive)
    if not exclusive:
        raise ValueError("a SQLite database serves one server: a cluster needs PostgreSQL")
    return SqliteStore(text, readonly=readonly)
