"""Durable storage of tables, seats and game records in SQLite (standard library).

Theory of operation. Every write goes through one writer thread that owns the SQLite
connection. Callers on the event loop ``await`` a write; the writer drains everything
queued, runs it in ONE transaction and commits once (group commit: under load many
intents share one fsync), then resolves each caller's future. So the event loop never
blocks on disk, and an intent is acknowledged only after its action is committed.

The database runs in WAL mode with ``synchronous=FULL``: a committed transaction survives
a crash of the process and of the machine. Seat tokens are never stored, only their
SHA-256 hash. A game is stored as a record (RULES.md section 11): its set-up (options with
the seed, and the explicit deal) plus an append-only list of actions.
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
    "MemoryStore",
    "SqliteStore",
    "Store",
    "StoreInUse",
    "StoredGame",
    "StoredSeat",
    "StoredTable",
]

log = logging.getLogger("kupferkessel.store")

SCHEMA = """
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
CREATE INDEX IF NOT EXISTS tables_state ON tables(state);
"""


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
    ) -> None:
        """Store a new table in the lobby state."""

    async def set_seat(
        self, table_id: str, seat: int, name: str, token_hash: str | None, bot: str | None
    ) -> None:
        """Store (or replace) a seat's occupant."""

    async def clear_seat(self, table_id: str, seat: int) -> None:
        """A player left a seat before the game started."""

    async def start_game(self, table_id: str, record: Record) -> None:
        """The game began: store its record (options with seed, explicit deal)."""

    async def append_action(self, table_id: str, index: int, take: Take) -> None:
        """Append action ``index`` (0-based) to the table's record."""

    async def finish(self, table_id: str, result: dict[str, Any] | None) -> None:
        """The table is over: its game ended with ``result`` (``GameResult.to_dict``;
        the record carries it from then on), or it was abandoned in the lobby (None)."""

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

    def stats(self) -> dict[str, int]:
        """Counters for operators and benchmarks: ``writes`` and ``commits`` (their ratio
        is the group-commit factor), ``failed`` writes."""
        return {}


class MemoryStore(Store):
    """No persistence at all: every write is accepted at once."""


_Op = tuple[str, tuple[Any, ...]]
_Item = tuple[list[_Op], asyncio.Future[None], asyncio.AbstractEventLoop]
"""A write: its statements, the caller's future, and the caller's event loop."""


class StoreInUse(OSError):
    """Another server holds this database."""


class SqliteStore(Store):
    """SQLite with a single writer thread and group commit (see the module docstring).

    ``readonly`` opens an existing database for reading only (``kupferkessel export``,
    safe while a server writes to it: WAL readers never block the writer)."""

    def __init__(self, path: str | Path, *, max_batch: int = 1000, readonly: bool = False) -> None:
        self.path = str(path)
        self.max_batch = max_batch
        self.readonly = readonly
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()  # C, lock-free put
        self._thread: threading.Thread | None = None
        self._read_lock = threading.Lock()
        self._reader: sqlite3.Connection | None = None
        self.commits = 0  # transactions committed (for the group-commit figures)
        self.writes = 0  # writes committed
        self.failed = 0  # writes refused (their callers got the exception)
        self._lock: IO[str] | None = None  # the held PATH.lock (see _lock_database)

    # ---------------------------------------------------------------- lifecycle
    def open_sync(self) -> None:
        """Create the schema (synchronously; done before the event loop serves)."""
        if self.readonly:
            raise RuntimeError("a read-only store is not started")
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._lock_database()
        con = self._connect()
        con.executescript(SCHEMA)
        con.commit()
        con.close()
        self._reader = self._connect()
        self._thread = threading.Thread(target=self._writer, name="kk-store", daemon=True)
        self._thread.start()

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

    def _lock_database(self) -> None:
        """One server per database: two would each restore the same games and play
        them on (their bots too), each writing its own moves. An exclusive lock on
        ``PATH.lock`` (released by the system when the process dies, however it dies)
        makes the second one refuse to start. Readers (``export``) take no lock."""
        if fcntl is None or self._lock is not None:
            return
        lock = open(f"{self.path}.lock", "a+")  # noqa: SIM115 - held until close()
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            lock.close()
            raise StoreInUse(
                f"the database {self.path} is in use by another server on this machine"
                " (stop it, or give this one its own --db)"
            ) from e
        self._lock = lock

    def _unlock_database(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file releases the lock
            self._lock = None

    def close_reader(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def stats(self) -> dict[str, int]:
        return {"writes": self.writes, "commits": self.commits, "failed": self.failed}

    def _connect(self) -> sqlite3.Connection:
        if self.readonly:
            if not Path(self.path).is_file():
                raise FileNotFoundError(f"no database at {self.path}")
            uri = Path(self.path).resolve().as_uri() + "?mode=ro"
            return sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        con = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.execute("PRAGMA foreign_keys=ON")
        return con

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

    def _commit_batch(self, con: sqlite3.Connection, batch: list[_Item]) -> None:
        """Commit the batch in one transaction; if that fails, commit each write in its
        own, so one bad write fails only its own caller."""
        try:
            self._transaction(con, batch)
        except Exception as e:
            if len(batch) == 1:
                self._fail(batch[0], e)
                return
            for item in batch:
                try:
                    self._transaction(con, [item])
                except Exception as e1:
                    self._fail(item, e1)
                else:
                    self._done([item])
            return
        self._done(batch)

    def _transaction(self, con: sqlite3.Connection, batch: list[_Item]) -> None:
        try:
            con.execute("BEGIN IMMEDIATE")
            # Consecutive writes of the same statement (under load: the actions of many
            # games) run as one ``executemany``, in order: far less Python, and far
            # fewer hand-overs of the GIL between this thread and the event loop.
            sql = None
            rows: list[tuple[Any, ...]] = []
            for ops, _, _ in batch:
                for op_sql, params in ops:
                    if op_sql != sql:
                        if rows:
                            con.executemany(sql, rows)  # type: ignore[arg-type]
                        sql, rows = op_sql, []
                    rows.append(params)
            if rows:
                con.executemany(sql, rows)  # type: ignore[arg-type]
            con.execute("COMMIT")
        except Exception:
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            raise

    def _done(self, batch: list[_Item]) -> None:
        self.commits += 1
        self.writes += len(batch)
        _settle(batch, None)

    def _fail(self, item: _Item, e: Exception) -> None:
        self.failed += 1
        log.error("store write failed", extra={"error": repr(e)})
        _settle([item], e)

    async def _write(self, *ops: _Op) -> None:
        if self._thread is None:
            raise RuntimeError("store not started")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.put((list(ops), fut, loop))
        await fut

    def _read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._read_lock:
            if self._reader is None:
                self._reader = self._connect()
            return fn(self._reader)

    # ---------------------------------------------------------------- writes
    async def create_table(
        self,
        table_id: str,
        name: str,
        options: Options,
        private: bool,
        invite_hash: str | None,
    ) -> None:
        await self._write(
            (
                "INSERT INTO tables (id, name, options, private, invite_hash, created, state)"
                " VALUES (?, ?, ?, ?, ?, ?, 'lobby')",
                (
                    table_id,
                    name,
                    json.dumps(options.to_dict()),
                    int(private),
                    invite_hash,
                    time.time(),
                ),
            )
        )

    async def set_seat(
        self, table_id: str, seat: int, name: str, token_hash: str | None, bot: str | None
    ) -> None:
        await self._write(
            (
                "INSERT OR REPLACE INTO seats (table_id, seat, name, token_hash, bot)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, seat, name, token_hash, bot),
            )
        )

    async def clear_seat(self, table_id: str, seat: int) -> None:
        await self._write(("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)))

    async def start_game(self, table_id: str, record: Record) -> None:
        raw = record.to_dict()
        raw["options"] = record.options.to_dict()  # keep the seed: this is the full record
        await self._write(
            (
                "INSERT INTO games (table_id, record, started) VALUES (?, ?, ?)",
                (table_id, json.dumps(raw), time.time()),
            ),
            ("UPDATE tables SET state = 'playing' WHERE id = ?", (table_id,)),
        )

    async def append_action(self, table_id: str, index: int, take: Take) -> None:
        await self._write(
            (
                "INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)",
                (table_id, index, _action_json(take)),
            )
        )

    async def finish(self, table_id: str, result: dict[str, Any] | None) -> None:
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
        await self._write(*ops)

    # ---------------------------------------------------------------- reads
    def _record(self, con: sqlite3.Connection, table_id: str) -> tuple[Record, bool] | None:
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
            )
        ]
        return Record.from_dict(raw), row[1] is not None

    def load_record(self, table_id: str) -> tuple[Record, bool] | None:
        result: tuple[Record, bool] | None = self._read(lambda con: self._record(con, table_id))
        return result

    def load_open_tables(self, finished_since: float | None = None) -> list[StoredTable]:
        since = float("inf") if finished_since is None else finished_since

        def read(con: sqlite3.Connection) -> list[StoredTable]:
            out = []
            rows = con.execute(
                "SELECT id, name, options, private, invite_hash, created, state, finished"
                " FROM tables WHERE state != 'finished'"
                " OR (finished >= ? AND id IN (SELECT table_id FROM games))"
                " ORDER BY created",
                (since,),
            ).fetchall()
            for tid, name, opts, private, invite, created, state, finished in rows:
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
                        "SELECT seat, name, token_hash, bot FROM seats WHERE table_id = ?"
                        " ORDER BY seat",
                        (tid,),
                    )
                ]
                rec = self._record(con, tid)
                t.record = rec[0] if rec else None
                out.append(t)
            return out

        tables: list[StoredTable] = self._read(read)
        return tables

    def list_games(self) -> list[StoredGame]:
        rows: list[StoredGame] = self._read(
            lambda con: [
                StoredGame(tid, name, started, fin, n, json.loads(res) if res else None)
                for tid, name, started, fin, n, res in con.execute(
                    "SELECT g.table_id, t.name, g.started, g.finished,"
                    " (SELECT COUNT(*) FROM actions a WHERE a.table_id = g.table_id), g.result"
                    " FROM games g JOIN tables t ON t.id = g.table_id ORDER BY g.started"
                )
            ]
        )
        return rows


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


def _settle(items: list[_Item], exc: Exception | None) -> None:
    """From the writer thread: wake each caller's loop once for the whole batch (one
    ``call_soon_threadsafe`` per loop, not one per write)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
    for _, fut, loop in items:
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
