"""The SQL store: what the SQLite and PostgreSQL backends share.

Why: both must keep the same semantics (durable before acknowledged, fenced by epoch,
the same schema and reads), so all of it lives here once and a backend only says how
to connect, how to lock the database for one server, and how its dialect differs. The
theory of operation (group commit, durability, fencing) is in the package's docstring.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from abc import abstractmethod
from collections.abc import Callable
from typing import Any, TypeVar

from shared.game import Take
from shared.options import Options
from shared.record import Record, action_to_dict

from ..figures import Timings
from . import sanctions
from .base import (
    PlayerSeated,
    Sanction,
    StaleOwner,
    Store,
    StoredGame,
    StoredSeat,
    StoredTable,
)
from .migrations import migrate
from .readers import Dialect, Readers
from .sql_players import SqlPlayers
from .writer import Op, Writer

__all__ = ["ALIVE_KEPT", "SqlStore"]

T = TypeVar("T")

log = logging.getLogger("kupferkessel.store")

ALIVE_KEPT = 7 * 24 * 3600.0
"""Seconds a server's last alive note is kept once it stops noting (a node gone for good)."""


class SqlStore(SqlPlayers, Store):
    """What both SQL backends share (see the package docstring): one writer thread with
    group commit (``Writer``), fenced writes, reads on a second connection, and the
    schema migrations. A backend says how to connect, how to lock the database for one
    server, and how its dialect differs (``_sql``, ``_epochs_sql``, ``BEGIN``): each of
    those is abstract, so a backend that leaves one out cannot be constructed.

    ``readonly`` opens an existing database for reading only (``kupferkessel export``,
    safe while a server writes to it)."""

    BEGIN = "BEGIN"
    MIGRATIONS: tuple[str, ...] = ()
    """The schema, one script per version (``schema_version`` holds how many ran)."""
    INTEGRITY: tuple[type[Exception], ...] = ()
    """The backend's DB-API ``IntegrityError``: a write a constraint refused."""

    def __init__(self, *, max_batch: int = 1000, readonly: bool = False) -> None:
        self.readonly = readonly
        self._writer = Writer(
            self._connect_writer,
            begin=self.BEGIN,
            dialect=self._sql,
            refusals=self.INTEGRITY,
            epochs_sql=self._epochs_sql,
            broken=self._broken,
            max_batch=max_batch,
        )
        self._readers = Readers(self._connect, self._sql, self._broken)
        self.refused = 0  # writes refused before the database (``fence_writes``)
        self.fences: dict[str, int] = {}  # table id -> the epoch this store claimed
        self.fencing = False  # ``fence_writes``: a node of a cluster

    # ---------------------------------------------------------------- backend
    @property
    @abstractmethod
    def url(self) -> str:
        """Where the database is, for messages (never with a password)."""

    @abstractmethod
    def _connect(self) -> Any:
        """A new DB-API connection in autocommit mode (transactions are explicit)."""

    def _connect_writer(self) -> Any:
        """The writer thread's connection (a backend that locks the database for one
        server makes sure it still holds the lock first)."""
        return self._connect()

    def _broken(self, con: Any) -> bool:
        """Whether ``con`` was lost (the database went away under it): then it is
        closed and a new one made. A file's connection is never lost."""
        return False

    def _probe(self) -> bool:
        """Whether the database answers now (in a worker thread; see ``reachable``)."""
        return True

    async def reachable(self) -> bool:
        if not self._writer.running:
            return False  # not started, or closed
        return await asyncio.to_thread(self._probe)

    @abstractmethod
    def _lock_database(self) -> None:
        """One server per database (see each backend)."""

    @abstractmethod
    def _unlock_database(self) -> None:
        """Release what ``_lock_database`` holds (nothing if it holds nothing)."""

    @abstractmethod
    def _sql(self, sql: str) -> str:
        """A statement in this backend's dialect (written with ``?`` placeholders)."""

    @abstractmethod
    def _epochs_sql(self, n: int) -> str:
        """Select (id, epoch) of ``n`` tables, locking them against a claim until commit."""

    @abstractmethod
    def _serialize_migrations(self, cur: Any) -> None:
        """Hold other servers' migrations off until this transaction ends."""

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
        except BaseException:
            self._unlock_database()
            raise
        self._writer.start()

    def _migrate(self, con: Any) -> None:
        """Bring the schema to the newest version (``migrate``), other servers' starts
        held off by the backend's ``BEGIN`` and ``_serialize_migrations``."""
        cur = con.cursor()
        cur.execute(self.BEGIN)
        migrate(cur, self.MIGRATIONS, self._sql, first=self._serialize_migrations)

    def schema_version(self) -> int:
        version: int = self._read(
            lambda con: con.execute("SELECT version FROM schema_version").fetchone()[0]
        )
        return version

    async def start(self) -> None:
        if not self._writer.running:
            await asyncio.to_thread(self.open_sync)

    async def close(self) -> None:
        if self._writer.running:
            await self._writer.stop()
            log.info("store closed", extra=self.stats())
        self.close_reader()
        self._unlock_database()

    def close_reader(self) -> None:
        self._readers.close()

    def stats(self) -> dict[str, int]:
        w = self._writer
        return {"writes": w.writes, "commits": w.commits, "failed": w.failed + self.refused}

    def timings(self) -> dict[str, Timings]:
        w = self._writer
        return {"commit_seconds": w.commit_seconds, "writes_per_commit": w.batches}

    async def _write(
        self, table_id: str, *ops: Op, epoch: int | None = None, new: bool = False
    ) -> None:
        """Queue one write of table ``table_id`` ("": of no table) and wait until it is
        durable (``_submit``)."""
        await self._submit(table_id, *ops, epoch=epoch, new=new)

    def _submit(
        self, table_id: str, *ops: Op, epoch: int | None = None, new: bool = False
    ) -> asyncio.Future[None]:
        """Queue one write of table ``table_id`` ("": of no table) now; the future of
        its durability (``Writer.submit``). ``epoch`` is the one the write's intent was
        accepted under; ``new``: the write creates the table (no epoch yet). A write
        the fence refuses here fails its future with ``StaleOwner``."""
        if not self._writer.running:
            raise RuntimeError("store not started")
        if (
            table_id
            and self.fencing
            and not new
            and (epoch is None or self.fences.get(table_id) != epoch)
        ):
            log.warning("store write refused: table not held", extra={"table": table_id})
            self.refused += 1
            refused: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            refused.set_exception(StaleOwner(table_id, epoch))
            return refused
        return self._writer.submit(list(ops), (table_id, epoch) if table_id else None)

    def _read(self, fn: Callable[[Any], Any]) -> Any:
        return self._readers.read(fn)

    async def apart(self, reads: Callable[[], T]) -> T:
        return await self._readers.run_apart(reads)  # the store's reads, in a worker thread

    # ---------------------------------------------------------------- ownership
    async def claim(self, table_id: str, owner: str) -> int:
        epoch = await asyncio.to_thread(self._claim_sync, table_id, owner)
        self.fences[table_id] = epoch
        return epoch

    def _claim_sync(self, table_id: str, owner: str) -> int:
        row = self._write_returning(
            "UPDATE tables SET epoch = epoch + 1, owner = ? WHERE id = ? RETURNING epoch",
            (owner, table_id),
        )
        if row is None:
            raise KeyError(table_id)
        return int(row[0])

    def _write_returning(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """One statement that writes and returns (``RETURNING``), in a transaction of its
        own on the read connection, durable when it returns (the writer's batched writes
        return nothing): its first row, None if none. Synchronous: run it in a thread."""

        def run(con: Dialect) -> tuple[Any, ...] | None:
            con.execute(self.BEGIN)
            try:
                rows = con.execute(sql, params).fetchall()
                con.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(Exception):
                    con.execute("ROLLBACK")
                raise
            return tuple(rows[0]) if rows else None

        row: tuple[Any, ...] | None = self._read(run)
        return row

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
        rated: bool = False,
    ) -> None:
        ops: list[Op] = [
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
            )
        ]
        if rated:
            ops.append(("INSERT INTO rated_tables (table_id) VALUES (?)", (table_id,)))
        await self._write(table_id, *ops, new=True)

    async def set_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str | None,
        bot: str | None,
        *,
        epoch: int | None = None,
        player: str | None = None,
    ) -> None:
        link: Op = (
            (
                "INSERT INTO player_seats (table_id, seat, player_id) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id, seat) DO UPDATE SET player_id = excluded.player_id",
                (table_id, seat, player),
            )
            if player is not None
            else ("DELETE FROM player_seats WHERE table_id = ? AND seat = ?", (table_id, seat))
        )
        seat_op: Op = (
            "INSERT INTO seats (table_id, seat, name, token_hash, bot)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
            " name = excluded.name, token_hash = excluded.token_hash, bot = excluded.bot",
            (table_id, seat, name, token_hash, bot),
        )
        try:
            await self._write(table_id, seat_op, link, epoch=epoch)
        except self.INTEGRITY as e:  # the player's other seat here (migration 10)
            if player is None or player not in self.seat_players(table_id).values():
                raise
            raise PlayerSeated(table_id, player) from e

    async def clear_seat(self, table_id: str, seat: int, *, epoch: int | None = None) -> None:
        await self._write(
            table_id,
            ("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)),
            ("DELETE FROM player_seats WHERE table_id = ? AND seat = ?", (table_id, seat)),
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

    async def note_alive(self, at: float) -> None:
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

    async def add_sanction(self, sanction: Sanction) -> None:
        await self._write("", sanctions.add_op(sanction))

    async def lift_sanction(self, sanction_id: str, at: float) -> bool:
        def read(con: Dialect) -> list[Sanction]:
            return sanctions.in_force(con, at, sanction_id)

        if not await asyncio.to_thread(self._read, read):
            return False
        await self._write("", sanctions.lift_op(sanction_id, at))
        return True

    def load_sanctions(self, now: float) -> list[Sanction]:
        return list(self._read(lambda con: sanctions.in_force(con, now)))

    def append_action(
        self,
        table_id: str,
        index: int,
        take: Take,
        life: dict[str, Any] | None = None,
        *,
        epoch: int | None = None,
    ) -> asyncio.Future[None]:
        op: Op = (
            "INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)",
            (table_id, index, _action_json(take)),
        )
        if life is None:
            return self._submit(table_id, op, epoch=epoch)
        return self._submit(table_id, op, _life_op(table_id, life), epoch=epoch)

    async def save_life(
        self, table_id: str, life: dict[str, Any], *, epoch: int | None = None
    ) -> None:
        await self._write(table_id, _life_op(table_id, life), epoch=epoch)

    async def finish(
        self, table_id: str, result: dict[str, Any] | None, *, epoch: int | None = None
    ) -> None:
        now = time.time()
        ops: list[Op] = [
            ("UPDATE tables SET state = 'finished', finished = ? WHERE id = ?", (now, table_id))
        ]
        if result is not None:
            ops.append(
                (
                    "UPDATE games SET finished = ?, result = ? WHERE table_id = ?",
                    (now, json.dumps(result), table_id),
                )
            )
            ops += self._history_ops(table_id, result, now)
        await self._write(table_id, *ops, epoch=epoch)
        await self._finished(table_id, result)

    # ---------------------------------------------------------------- reads
    def _record(self, con: Dialect, table_id: str) -> tuple[Record, bool] | None:
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
        "id, name, options, private, invite_hash, created, state, finished, timing, made_by, epoch,"
        " EXISTS (SELECT 1 FROM rated_tables r WHERE r.table_id = tables.id)"
    )

    def _table(self, con: Dialect, row: tuple[Any, ...]) -> StoredTable:
        tid, name, opts, private, invite, created, state, finished, timing, made_by, ep, rated = row
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
                "SELECT s.seat, s.name, s.token_hash, s.bot, p.player_id FROM seats s"
                " LEFT JOIN player_seats p ON p.table_id = s.table_id AND p.seat = s.seat"
                " WHERE s.table_id = ? ORDER BY s.seat",
                (tid,),
            ).fetchall()
        ]
        rec = self._record(con, tid)
        t.record = rec[0] if rec else None
        t.timing = json.loads(timing) if timing else None
        t.made_by = made_by
        t.epoch = int(ep)
        t.rated = bool(rated)
        life = con.execute("SELECT life FROM games WHERE table_id = ?", (tid,)).fetchone()
        t.life = json.loads(life[0]) if life is not None and life[0] else None
        server = t.life.get("server") if isinstance(t.life, dict) else None
        t.alive = _alive(con, server) if isinstance(server, str) else None
        return t

    def load_open_tables(self, finished_since: float | None = None) -> list[StoredTable]:
        since = float("inf") if finished_since is None else finished_since

        def read(con: Dialect) -> list[StoredTable]:
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
        def read(con: Dialect) -> StoredTable | None:
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


def _alive(con: Dialect, server: str) -> float | None:
    row = con.execute("SELECT at FROM alive WHERE server = ?", (server,)).fetchone()
    return None if row is None else float(row[0])


def _life_op(table_id: str, life: dict[str, Any]) -> Op:
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
