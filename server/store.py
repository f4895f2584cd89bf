"""Durable storage of tables, seats and game records, in SQLite or PostgreSQL.

Theory of operation. ``Store`` is the one interface the server writes through; two SQL
backends implement it with the same semantics (``SqlStore`` holds all they share):
``SqliteStore`` (standard library; the default, one server per database file) and
``PostgresStore`` (``server.store_pg``; what the nodes of a cluster share). ``open_store``
picks one from a URL. Every write goes through one writer thread that owns a
connection. Callers on the event loop ``await`` a write; the writer drains everything
queued, runs it in ONE transaction and commits once (group commit: under load many
intents share one commit), then resolves each caller's future. So the event loop never
blocks on disk, and an intent is acknowledged only after its action is committed.

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

import asyncio
import contextlib
import functools
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from shared.game import Take
from shared.options import Options
from shared.record import Record, action_to_dict

try:
    import fcntl
except ImportError:  # on Windows: there, nothing stops a second server
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "BadDatabase",
    "MemoryStore",
    "SqlStore",
    "SqliteStore",
    "StaleOwner",
    "Store",
    "StoreInUse",
    "StoredGame",
    "StoredSeat",
    "StoredTable",
    "check_database_path",
    "open_store",
]

log = logging.getLogger("kupferkessel.store")


@dataclass
class StoredSeat:
    seat: int
    name: str
    token_hash: str | None
    bot: str | None


@dataclass
class StoredTable:
    """A table as read back at start-up; ``record`` is None before its game started."""

    id: str
    name: str
    options: Options
    private: bool
    invite_hash: str | None
    created: float
    state: str
    finished: float | None = None  # when the table finished (None while open)
    seats: list[StoredSeat] = field(default_factory=list)
    record: Record | None = None
    timing: dict[str, Any] | None = None  # ``Timing`` as created (None: the defaults)
    life: dict[str, Any] | None = None  # ``Table.life()`` as last stored
    made_by: str | None = None  # the client address whose quotas it counts against
    alive: float | None = None  # the last ``beat`` of the server its life names (if any)
    epoch: int = 0  # how often the table was claimed (0: never, a single server's)


@dataclass
class StoredGame:
    """One stored game as ``kupferkessel export --list`` shows it."""

    table_id: str
    name: str
    started: float
    finished: float | None
    actions: int
    result: dict[str, Any] | None


class Store:
    """The interface the server writes through. ``MemoryStore`` keeps nothing
    (``--no-persist``); ``SqliteStore`` is durable. Every coroutine returns once the
    write is durable (immediately for ``MemoryStore``)."""

    server_id = ""
    """Whose ``beat`` this store writes: "" for a stand-alone server (one per database),
    the node's name on a node of a cluster."""

    async def start(self) -> None:
        """Open the store (create the schema)."""

    async def close(self) -> None:
        """Flush and close."""

    async def create_table(
        self,
        table_id: str,
        name: str,
        options: Options,
        private: bool,
        invite_hash: str | None,
        timing: dict[str, Any] | None = None,
        made_by: str | None = None,
    ) -> None:
        """Store a new table in the lobby state (``timing``: its time rules;
        ``made_by``: the client address whose quotas it counts against)."""

    # Every write of an existing table takes ``epoch``: the epoch this store ``held``
    # for the table when the intent behind the write was accepted (None: not claimed).

    async def set_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str | None,
        bot: str | None,
        *,
        epoch: int | None = None,
    ) -> None:
        """Store (or replace) a seat's occupant."""

    async def clear_seat(self, table_id: str, seat: int, *, epoch: int | None = None) -> None:
        """A player left a seat before the game started."""

    async def start_game(
        self,
        table_id: str,
        record: Record,
        life: dict[str, Any] | None = None,
        *,
        epoch: int | None = None,
    ) -> None:
        """The game began: store its record (options with seed, explicit deal); with
        ``life``, its life beyond the record (a clocked game: its clock) alike."""

    async def append_action(
        self,
        table_id: str,
        index: int,
        take: Take,
        life: dict[str, Any] | None = None,
        *,
        epoch: int | None = None,
    ) -> None:
        """Append action ``index`` (0-based) to the table's record; with ``life``, store
        the game's life beyond its record in the same transaction."""

    async def save_life(
        self, table_id: str, life: dict[str, Any], *, epoch: int | None = None
    ) -> None:
        """Store a running game's life beyond its record (resignations, stand-ins,
        clocks: ``Table.life``)."""

    async def finish(
        self, table_id: str, result: dict[str, Any] | None, *, epoch: int | None = None
    ) -> None:
        """The table is over: its game ended with ``result`` (``GameResult.to_dict``;
        the record carries it from then on), or it was abandoned in the lobby (None)."""

    async def beat(self, at: float) -> None:
        """Store that the server ``server_id`` was serving at time ``at``: after a crash
        its running moves resume with the time they had used by then (``alive_at``)."""

    def alive_at(self, server: str) -> float | None:
        """The time of server ``server``'s last ``beat`` (None if unknown)."""
        return None

    def load_open_tables(self, finished_since: float | None = None) -> list[StoredTable]:
        """Every table not finished, with its record, for restoring at start-up; with
        ``finished_since``, also the games that finished at or after that time (so that
        players reconnecting after a restart still see how their game ended)."""
        return []

    def load_record(self, table_id: str) -> tuple[Record, bool] | None:
        """A stored game's record and whether it is finished; None if unknown."""
        return None

    def list_games(self) -> list[StoredGame]:
        """Every stored game, oldest first."""
        return []

    def load_table(self, table_id: str) -> StoredTable | None:
        """One table with its record (a node taking it over restores it so)."""
        return None

    def find_token(
        self, token_hash: str, finished_since: float | None = None
    ) -> tuple[str, int] | None:
        """The (table id, seat) of an unfinished table a seat token hash belongs to; with
        ``finished_since``, also of a game that finished at or after that time (as
        ``load_open_tables``: so that its players still see how it ended)."""
        return None

    def open_table_ids(self) -> list[str]:
        """The ids of every table not finished."""
        return []

    async def claim(self, table_id: str, owner: str) -> int:
        """Become the owner of a table: its epoch goes up by one (durably) and every
        later write of it through this store is fenced by the new epoch. Returns it."""
        return 0

    def release(self, table_id: str) -> None:
        """Stop fencing the table's writes (it is no longer served here)."""

    def held(self, table_id: str) -> int | None:
        """The epoch this store claimed the table under and holds it with now (None: not
        claimed here). An intent captures it when it is accepted; its writes carry it."""
        return None

    def fence_writes(self) -> None:
        """From now on refuse, before the database, every write of an existing table that
        does not carry the epoch this store holds for it (a node of a cluster)."""

    def owner(self, table_id: str) -> tuple[str | None, int] | None:
        """The (owner, epoch) the database holds for a table; None if unknown."""
        return None

    def stats(self) -> dict[str, int]:
        """Counters for operators and benchmarks: ``writes`` and ``commits`` (their ratio
        is the group-commit factor), ``failed`` writes."""
        return {}


class MemoryStore(Store):
    """No persistence at all: every write is accepted at once."""


def open_store(url: str | Path, *, readonly: bool = False, exclusive: bool = True) -> SqlStore:
    """The store a ``--store`` URL names: ``postgresql://...`` (or ``postgres://``) for
    PostgreSQL, anything else is the path of a SQLite database. ``exclusive`` (the
    default) makes the store refuse to start while another server uses the database;
    the nodes of a cluster share theirs (fencing keeps them apart)."""
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        from .store_pg import PostgresStore

        return PostgresStore(text, readonly=readonly, exclusive=exclusive)
    if not exclusive:
        raise ValueError("a SQLite database serves one server: a cluster needs PostgreSQL")
    return SqliteStore(text, readonly=readonly)


_Op = tuple[str, tuple[Any, ...]]
_Fence = tuple[str, int | None] | None
"""A table-scoped write's fence: (table id, the epoch it carries, None if unclaimed);
None for a write of no table's."""
_Item = tuple[list[_Op], asyncio.Future[None], asyncio.AbstractEventLoop, _Fence]
"""A write: its statements, the caller's future, the caller's event loop, its fence."""


class StoreInUse(OSError):
    """Another server holds this database."""


class BadDatabase(ValueError):
    """The path given cannot hold a database: a directory, a file of another kind,
    ``:memory:`` (nothing would be kept: that is ``--no-persist``)."""


SQLITE_HEADER = b"SQLite format 3\x00"


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


class StaleOwner(Exception):
    """A write for a table this store no longer owns: another node claimed it (a
    higher epoch) since this one did. Nothing of the write was stored."""

    def __init__(self, table_id: str, epoch: int | None) -> None:
        super().__init__(f"table {table_id}: epoch {epoch} is stale, another node owns it")
        self.table_id = table_id
        self.epoch = epoch


class SqlStore(Store):
    """What both SQL backends share (see the module docstring): one writer thread with
    group commit, fenced writes, reads on a second connection, and the schema
    migrations. A backend says how to connect, how to lock the database for one server,
    and how its dialect differs (``_sql``, ``_epochs_sql``, ``BEGIN``).

    ``readonly`` opens an existing database for reading only (``kupferkessel export``,
    safe while a server writes to it)."""

    BEGIN = "BEGIN"
    MIGRATIONS: tuple[str, ...] = ()
    """The schema, one script per version (``schema_version`` holds how many ran)."""

    def __init__(self, *, max_batch: int = 1000, readonly: bool = False) -> None:
        self.max_batch = max_batch
        self.readonly = readonly
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()  # C, lock-free put
        self._thread: threading.Thread | None = None
        self._read_lock = threading.Lock()
        self._reader: Any = None
        self.commits = 0  # transactions committed (for the group-commit figures)
        self.writes = 0  # writes committed
        self.failed = 0  # writes refused (their callers got the exception)
        self.fences: dict[str, int] = {}  # table id -> the epoch this store claimed
        self.fencing = False  # ``fence_writes``: a node of a cluster

    # ---------------------------------------------------------------- backend
    @property
    def url(self) -> str:
        """Where the database is, for messages (never with a password)."""
        raise NotImplementedError

    def _connect(self) -> Any:
        """A new DB-API connection in autocommit mode (transactions are explicit)."""
        raise NotImplementedError

    def _lock_database(self) -> None:
        """One server per database (see each backend)."""

    def _unlock_database(self) -> None:
        pass

    def _sql(self, sql: str) -> str:
        """A statement in this backend's dialect (written with ``?`` placeholders)."""
        return sql

    def _epochs_sql(self, n: int) -> str:
        """Select (id, epoch) of ``n`` tables, locking them against a claim until commit."""
        raise NotImplementedError

    # ---------------------------------------------------------------- lifecycle
    def open_sync(self) -> None:
        """Lock the database, create or migrate the schema, start the writer thread
        (synchronously; done before the event loop serves)."""
        if self.readonly:
            raise RuntimeError("a read-only store is not started")
        self._lock_database()
        try:
            con = self._connect()
            try:
                self._migrate(con)
            finally:
                con.close()
            self._reader = self._connect()
        except BaseException:
            self._unlock_database()
            raise
        self._thread = threading.Thread(target=self._writer, name="kk-store", daemon=True)
        self._thread.start()

    def _migrate(self, con: Any) -> None:
        """Bring the schema to the newest version, in one transaction: each migration
        not yet run, in order, then the version. Several servers starting at once on
        one database take turns (the backend's ``BEGIN`` serializes them)."""
        cur = con.cursor()
        cur.execute(self.BEGIN)
        try:
            self._serialize_migrations(cur)
            cur.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            cur.execute("SELECT version FROM schema_version")
            row = cur.fetchone()
            version = 0 if row is None else int(row[0])
            if version > len(self.MIGRATIONS):
                raise RuntimeError(
                    f"the database has schema version {version}, newer than this server's"
                    f" {len(self.MIGRATIONS)}: upgrade the server"
                )
            for script in self.MIGRATIONS[version:]:
                for statement in script.split(";"):
                    if statement.strip():
                        cur.execute(statement)
            newest = (len(self.MIGRATIONS),)
            if row is None:
                cur.execute(self._sql("INSERT INTO schema_version VALUES (?)"), newest)
            elif version != newest[0]:
                cur.execute(self._sql("UPDATE schema_version SET version = ?"), newest)
            cur.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(Exception):
                cur.execute("ROLLBACK")
            raise
        if version != len(self.MIGRATIONS):
            log.info("schema migrated", extra={"from": version, "to": len(self.MIGRATIONS)})

    def _serialize_migrations(self, cur: Any) -> None:
        """Hold other servers' migrations off until this transaction ends."""

    def schema_version(self) -> int:
        version: int = self._read(
            lambda con: con.execute("SELECT version FROM schema_version").fetchone()[0]
        )
        return version

    async def start(self) -> None:
        if self._thread is None:
            await asyncio.to_thread(self.open_sync)

    async def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            await asyncio.to_thread(self._thread.join)
            self._thread = None
            log.info("store closed", extra=self.stats())
        self.close_reader()
        self._unlock_database()

    def close_reader(self) -> None:
        with self._read_lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None

    def stats(self) -> dict[str, int]:
        return {"writes": self.writes, "commits": self.commits, "failed": self.failed}

    def _writer(self) -> None:
        con = self._connect()
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                batch = [item]
                stop = False
                while len(batch) < self.max_batch:
                    try:
                        nxt = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is None:
                        stop = True  # stop after this batch
                        break
                    batch.append(nxt)
                # A write whose caller was cancelled before it started is dropped (the
                # caller knows it did not happen).
                live = [it for it in batch if not it[1].cancelled()]
                if live:
                    self._commit_batch(con, live)
                if stop:
                    return
        finally:
            con.close()

    def _commit_batch(self, con: Any, batch: list[_Item]) -> None:
        """Commit the batch in one transaction; if that fails, commit each write in its
        own, so one bad write fails only its own caller."""
        try:
            stale = self._transaction(con, batch)
        except Exception as e:
            if len(batch) == 1:
                self._fail(batch[0], e)
                return
            for item in batch:
                try:
                    stale = self._transaction(con, [item])
                except Exception as e1:
                    self._fail(item, e1)
                else:
                    self._finish_batch([item], stale)
            return
        self._finish_batch(batch, stale)

    def _finish_batch(self, batch: list[_Item], stale: list[_Item]) -> None:
        for item in stale:
            fence = item[3]
            assert fence is not None
            self._refuse(item, StaleOwner(*fence))
        if len(stale) < len(batch):
            self._done([it for it in batch if it not in stale])

    def _transaction(self, con: Any, batch: list[_Item]) -> list[_Item]:
        """Run the batch in one transaction; returns the writes refused by their fence
        (a newer epoch holds their table: they are left out, the others commit)."""
        cur = con.cursor()
        try:
            cur.execute(self.BEGIN)
            stale = self._stale(cur, batch)
            if stale:
                batch = [it for it in batch if it not in stale]
            # Consecutive writes of the same statement (under load: the actions of many
            # games) run as one ``executemany``, in order: far less Python, and far
            # fewer hand-overs of the GIL between this thread and the event loop.
            sql = None
            rows: list[tuple[Any, ...]] = []
            for ops, _, _, _ in batch:
                for op_sql, params in ops:
                    if op_sql != sql:
                        if rows:
                            cur.executemany(self._sql(sql), rows)  # type: ignore[arg-type]
                        sql, rows = op_sql, []
                    rows.append(params)
            if rows:
                cur.executemany(self._sql(sql), rows)  # type: ignore[arg-type]
            cur.execute("COMMIT")
        except Exception:
            with contextlib.suppress(Exception):
                cur.execute("ROLLBACK")
            raise
        return stale

    def _stale(self, cur: Any, batch: list[_Item]) -> list[_Item]:
        """The table writes whose table's epoch is not the one they carry (a write with
        no epoch: the table must never have been claimed). The tables' rows stay locked
        until the commit, so a claim cannot slip in between."""
        fenced = {f[0] for _, _, _, f in batch if f is not None}
        if not fenced:
            return []
        ids = sorted(fenced)
        cur.execute(self._epochs_sql(len(ids)), ids)
        epochs = dict(cur.fetchall())
        return [it for it in batch if it[3] is not None and not _fits(it[3], epochs)]

    def _done(self, batch: list[_Item]) -> None:
        self.commits += 1
        self.writes += len(batch)
        _settle(batch, None)

    def _fail(self, item: _Item, e: Exception) -> None:
        self.failed += 1
        log.error("store write failed", extra={"error": repr(e)})
        _settle([item], e)

    def _refuse(self, item: _Item, e: StaleOwner) -> None:
        """A write refused by its fence: expected when a node lost a table (no error)."""
        self.failed += 1
        log.warning("store write refused: stale owner", extra={"table": e.table_id})
        _settle([item], e)

    async def _write(
        self, table_id: str, *ops: _Op, epoch: int | None = None, new: bool = False
    ) -> None:
        """Queue one write of table ``table_id`` ("": of no table) and wait until it is
        durable. ``epoch`` is the one the write's intent was accepted under; ``new``: the
        write creates the table (no epoch yet)."""
        if self._thread is None:
            raise RuntimeError("store not started")
        if table_id and self.fencing and not new and (
            epoch is None or self.fences.get(table_id) != epoch
        ):
            log.warning("store write refused: table not held", extra={"table": table_id})
            self.failed += 1
            raise StaleOwner(table_id, epoch)
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        fence = (table_id, epoch) if table_id else None
        self._queue.put((list(ops), fut, loop, fence))
        await fut

    def _read(self, fn: Callable[[Any], Any]) -> Any:
        with self._read_lock:
            if self._reader is None:
                self._reader = self._connect()
            return fn(_Dialect(self._reader, self._sql))

    # ---------------------------------------------------------------- ownership
    async def claim(self, table_id: str, owner: str) -> int:
        epoch = await asyncio.to_thread(self._claim_sync, table_id, owner)
        self.fences[table_id] = epoch
        return epoch

    def _claim_sync(self, table_id: str, owner: str) -> int:
        def claim(con: _Dialect) -> int:
            con.execute(self.BEGIN)
            try:
                row = con.execute(
                    "UPDATE tables SET epoch = epoch + 1, owner = ? WHERE id = ? RETURNING epoch",
                    (owner, table_id),
                ).fetchone()
                con.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(Exception):
                    con.execute("ROLLBACK")
                raise
            if row is None:
                raise KeyError(table_id)
            return int(row[0])

        epoch: int = self._read(claim)
        return epoch

    def release(self, table_id: str) -> None:
        self.fences.pop(table_id, None)

    def held(self, table_id: str) -> int | None:
        return self.fences.get(table_id)

    def fence_writes(self) -> None:
        self.fencing = True

    def owner(self, table_id: str) -> tuple[str | None, int] | None:
        row = self._read(
            lambda con: con.execute(
                "SELECT owner, epoch FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        )
        return None if row is None else (row[0], int(row[1]))

    # ---------------------------------------------------------------- writes
    async def create_table(
        self,
        table_id: str,
        name: str,
        options: Options,
        private: bool,
        invite_hash: str | None,
        timing: dict[str, Any] | None = None,
        made_by: str | None = None,
    ) -> None:
        await self._write(
            table_id,
            (
                "INSERT INTO tables"
                " (id, name, options, private, invite_hash, created, state, timing, made_by)"
                " VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
                (
                    table_id,
                    name,
                    json.dumps(options.to_dict()),
                    int(private),
                    invite_hash,
                    time.time(),
                    None if timing is None else json.dumps(timing),
                    made_by,
                ),
            ),
            new=True,
        )

    async def set_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str | None,
        bot: str | None,
        *,
        epoch: int | None = None,
    ) -> None:
        await self._write(
            table_id,
            (
                "INSERT INTO seats (table_id, seat, name, token_hash, bot)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
                " name = excluded.name, token_hash = excluded.token_hash, bot = excluded.bot",
                (table_id, seat, name, token_hash, bot),
            ),
            epoch=epoch,
        )

    async def clear_seat(self, table_id: str, seat: int, *, epoch: int | None = None) -> None:
        await self._write(
            table_id,
            ("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)),
            epoch=epoch,
        )

    async def start_game(
        self,
        table_id: str,
        record: Record,
        life: dict[str, Any] | None = None,
        *,
        epoch: int | None = None,
    ) -> None:
        raw = record.to_dict()
        raw["options"] = record.options.to_dict()  # keep the seed: this is the full record
        await self._write(
            table_id,
            (
                "INSERT INTO games (table_id, record, started, life) VALUES (?, ?, ?, ?)",
                (
                    table_id,
                    json.dumps(raw),
                    time.time(),
                    None if life is None else json.dumps(life),
                ),
            ),
            ("UPDATE tables SET state = 'playing' WHERE id = ?", (table_id,)),
            epoch=epoch,
        )

    async def beat(self, at: float) -> None:
        await self._write(
            "",  # no table's: never fenced
            (
                "INSERT INTO alive (server, at) VALUES (?, ?)"
                " ON CONFLICT (server) DO UPDATE SET at = excluded.at",
                (self.server_id, at),
            ),
            ("DELETE FROM alive WHERE at < ?", (at - ALIVE_KEPT,)),
        )

    def alive_at(self, server: str) -> float | None:
        at: float | None = self._read(lambda con: _alive(con, server))
        return at

    async def append_action(
        self,
        table_id: str,
        index: int,
        take: Take,
        life: dict[str, Any] | None = None,
        *,
        epoch: int | None = None,
    ) -> None:
        op: _Op = (
            "INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)",
            (table_id, index, _action_json(take)),
        )
        if life is None:
            await self._write(table_id, op, epoch=epoch)
        else:
            await self._write(table_id, op, _life_op(table_id, life), epoch=epoch)

    async def save_life(
        self, table_id: str, life: dict[str, Any], *, epoch: int | None = None
    ) -> None:
        await self._write(table_id, _life_op(table_id, life), epoch=epoch)

    async def finish(
        self, table_id: str, result: dict[str, Any] | None, *, epoch: int | None = None
    ) -> None:
        now = time.time()
        ops: list[_Op] = [
            ("UPDATE tables SET state = 'finished', finished = ? WHERE id = ?", (now, table_id))
        ]
        if result is not None:
            ops.append(
                (
                    "UPDATE games SET finished = ?, result = ? WHERE table_id = ?",
                    (now, json.dumps(result), table_id),
                )
            )
        await self._write(table_id, *ops, epoch=epoch)

    # ---------------------------------------------------------------- reads
    def _record(self, con: _Dialect, table_id: str) -> tuple[Record, bool] | None:
        row = con.execute(
            "SELECT record, finished, result FROM games WHERE table_id = ?", (table_id,)
        ).fetchone()
        if row is None:
            return None
        raw = json.loads(row[0])
        stored = json.loads(row[2]) if row[2] else None
        if isinstance(stored, dict) and "ending" in stored:  # older servers kept less
            raw["result"] = stored
        raw["actions"] = [
            json.loads(a)
            for (a,) in con.execute(
                "SELECT action FROM actions WHERE table_id = ? ORDER BY idx", (table_id,)
            ).fetchall()
        ]
        return Record.from_dict(raw), row[1] is not None

    def load_record(self, table_id: str) -> tuple[Record, bool] | None:
        result: tuple[Record, bool] | None = self._read(lambda con: self._record(con, table_id))
        return result

    _TABLE_COLUMNS = (
        "id, name, options, private, invite_hash, created, state, finished, timing, made_by,"
        " epoch"
    )

    def _table(self, con: _Dialect, row: tuple[Any, ...]) -> StoredTable:
        tid, name, opts, private, invite, created, state, finished, timing, made_by, ep = row
        t = StoredTable(
            tid,
            name,
            Options.from_dict(json.loads(opts)),
            bool(private),
            invite,
            created,
            state,
            finished,
        )
        t.seats = [
            StoredSeat(*r)
            for r in con.execute(
                "SELECT seat, name, token_hash, bot FROM seats WHERE table_id = ? ORDER BY seat",
                (tid,),
            ).fetchall()
        ]
        rec = self._record(con, tid)
        t.record = rec[0] if rec else None
        t.timing = json.loads(timing) if timing else None
        t.made_by = made_by
        t.epoch = int(ep)
        life = con.execute("SELECT life FROM games WHERE table_id = ?", (tid,)).fetchone()
        t.life = json.loads(life[0]) if life is not None and life[0] else None
        server = t.life.get("server") if isinstance(t.life, dict) else None
        t.alive = _alive(con, server) if isinstance(server, str) else None
        return t

    def load_open_tables(self, finished_since: float | None = None) -> list[StoredTable]:
        since = float("inf") if finished_since is None else finished_since

        def read(con: _Dialect) -> list[StoredTable]:
            rows = con.execute(
                f"SELECT {self._TABLE_COLUMNS} FROM tables WHERE state != 'finished'"
                " OR (finished >= ? AND id IN (SELECT table_id FROM games))"
                " ORDER BY created",
                (since,),
            ).fetchall()
            return [self._table(con, row) for row in rows]

        tables: list[StoredTable] = self._read(read)
        return tables

    def load_table(self, table_id: str) -> StoredTable | None:
        def read(con: _Dialect) -> StoredTable | None:
            row = con.execute(
                f"SELECT {self._TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            return None if row is None else self._table(con, row)

        table: StoredTable | None = self._read(read)
        return table

    def find_token(
        self, token_hash: str, finished_since: float | None = None
    ) -> tuple[str, int] | None:
        since = float("inf") if finished_since is None else finished_since
        row = self._read(
            lambda con: con.execute(
                "SELECT s.table_id, s.seat FROM seats s JOIN tables t ON t.id = s.table_id"
                " WHERE s.token_hash = ? AND (t.state != 'finished'"
                " OR (t.finished >= ? AND t.id IN (SELECT table_id FROM games)))",
                (token_hash, since),
            ).fetchone()
        )
        return None if row is None else (row[0], int(row[1]))

    def open_table_ids(self) -> list[str]:
        ids: list[str] = self._read(
            lambda con: [
                tid for (tid,) in con.execute("SELECT id FROM tables WHERE state != 'finished'")
            ]
        )
        return ids

    def list_games(self) -> list[StoredGame]:
        rows: list[StoredGame] = self._read(
            lambda con: [
                StoredGame(tid, name, started, fin, n, json.loads(res) if res else None)
                for tid, name, started, fin, n, res in con.execute(
                    "SELECT g.table_id, t.name, g.started, g.finished,"
                    " (SELECT COUNT(*) FROM actions a WHERE a.table_id = g.table_id), g.result"
                    " FROM games g JOIN tables t ON t.id = g.table_id ORDER BY g.started"
                ).fetchall()
            ]
        )
        return rows


class _Dialect:
    """A read connection whose ``execute`` takes statements written with ``?``."""

    def __init__(self, con: Any, sql: Callable[[str], str]) -> None:
        self.con = con
        self.sql = sql

    def execute(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> Any:
        cur = self.con.cursor()
        cur.execute(self.sql(sql), params)
        return cur


SQLITE_MIGRATIONS = (
    # 1: tables, seats, games (set-up) and their append-only actions
    """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    options TEXT NOT NULL,
    private INTEGER NOT NULL,
    invite_hash TEXT,
    created REAL NOT NULL,
    state TEXT NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT,
    bot TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    record TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES games(table_id),
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE INDEX IF NOT EXISTS tables_state ON tables(state)
""",
    # 2: ownership (fencing: the store refuses a stale owner's writes) and token look-up
    """
ALTER TABLE tables ADD COLUMN owner TEXT;
ALTER TABLE tables ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS seats_token ON seats(token_hash)
""",
    # 3: a table's time rules, and a running game's life beyond its record (who
    # resigned or was replaced, the clocks' reserves)
    """
ALTER TABLE tables ADD COLUMN timing TEXT;
ALTER TABLE games ADD COLUMN life TEXT
""",
    # 4: when each server (or node) last said it was serving (``beat``): after a crash
    # a running move resumes with the time it had used by then
    """
CREATE TABLE IF NOT EXISTS alive (
    server TEXT PRIMARY KEY,
    at REAL NOT NULL
)
""",
    # 5: the client address a table counts against (its quotas follow the table when
    # a server restarts or another node of a cluster takes it over)
    """
ALTER TABLE tables ADD COLUMN made_by TEXT
""",
)
ALIVE_KEPT = 7 * 24 * 3600.0
"""Seconds a server's last ``beat`` is kept once it stops beating (a node gone for good)."""


class SqliteStore(SqlStore):
    """SQLite (standard library) in WAL mode with ``synchronous=FULL``."""

    BEGIN = "BEGIN IMMEDIATE"
    MIGRATIONS = SQLITE_MIGRATIONS

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


def _alive(con: _Dialect, server: str) -> float | None:
    row = con.execute("SELECT at FROM alive WHERE server = ?", (server,)).fetchone()
    return None if row is None else float(row[0])


def _life_op(table_id: str, life: dict[str, Any]) -> _Op:
    return ("UPDATE games SET life = ? WHERE table_id = ?", (json.dumps(life), table_id))


def _action_json(take: Take) -> str:
    """An action as stored (its record form in JSON); the same few hundred takes recur
    in every game, so their text is kept (unless a take holds a list: not hashable)."""
    try:
        return _action_json_kept(take)
    except TypeError:
        return json.dumps(action_to_dict(take))


@functools.lru_cache(maxsize=4096)
def _action_json_kept(take: Take) -> str:
    return json.dumps(action_to_dict(take))


def _fits(fence: tuple[str, int | None], epochs: dict[str, int]) -> bool:
    """Whether a table write may commit: it carries the table's epoch in the database,
    or carries none and the table was never claimed (or does not exist yet)."""
    table_id, epoch = fence
    stored = epochs.get(table_id)
    if epoch is None:
        return not stored  # None (a new table's first write) or 0 (never claimed)
    return stored == epoch


def _settle(items: list[_Item], exc: Exception | None) -> None:
    """From the writer thread: wake each caller's loop once for the whole batch (one
    ``call_soon_threadsafe`` per loop, not one per write)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
    for _, fut, loop, _ in items:
        by_loop.setdefault(loop, []).append(fut)
    for loop, futs in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(_resolve, futs, exc)


def _resolve(futs: list[asyncio.Future[None]], exc: Exception | None) -> None:
    for fut in futs:
        if fut.done():  # cancelled meanwhile
            continue
        if exc is None:
            fut.set_result(None)
        else:
            fut.set_exception(exc)
