"""The SQL store's writer thread: group commit, each write checked against its fence.

Why: the event loop must never block on disk, and under load many intents must share one
commit; one thread owning one connection does both, and checks each write's epoch in the
write's own transaction so a stale owner's write never lands.

A lost connection (the database restarted, or is down) does not end the thread: a
batch whose connection was found broken before its ``COMMIT`` was sent is run once more
on a new connection (nothing of it was done), and while no connection can be made each
write fails at once with ``StoreUnavailable``; the next write connects again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from ..figures import Timings
from .base import StaleOwner, StoreUnavailable

__all__ = ["BATCH_BOUNDS", "Fence", "Op", "Writer"]

log = logging.getLogger("kupferkessel.store")

Op = tuple[str, tuple[Any, ...]]
"""One statement (written with ``?`` placeholders) and its parameters."""
Fence = tuple[str, int | None] | None
"""A table-scoped write's fence: (table id, the epoch it carries, None if unclaimed);
None for a write of no table's."""
_Item = tuple[list[Op], asyncio.Future[None], asyncio.AbstractEventLoop, Fence]
"""A write: its statements, the caller's future, the caller's event loop, its fence."""
BATCH_BOUNDS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
"""Writes in one commit: the bucket bounds of ``Writer.batches``."""


class Writer:
    """One thread with one connection that commits every queued write, many per
    transaction, and wakes each caller once its write is durable (or refused).

    It is handed what it needs of its backend: ``connect`` (a new DB-API connection in
    autocommit mode), ``begin`` (the statement opening a write transaction), ``dialect``
    (a statement written with ``?`` in the backend's dialect), ``epochs_sql`` (select
    (id, epoch) of ``n`` tables, locking them against a claim until the commit),
    ``refusals`` (the backend's constraint errors: their callers answer them, so they
    are logged as warnings) and ``broken`` (whether a connection was lost: the database
    went away under it; ``connect`` raises ``StoreUnavailable`` while it cannot
    connect)."""

    def __init__(
        self,
        connect: Callable[[], Any],
        *,
        begin: str,
        dialect: Callable[[str], str],
        epochs_sql: Callable[[int], str],
        broken: Callable[[Any], bool] = lambda con: False,
        max_batch: int = 1000,
        refusals: tuple[type[Exception], ...] = (),
    ) -> None:
        self.connect = connect
        self.broken = broken
        self.begin = begin
        self.dialect = dialect
        self.epochs_sql = epochs_sql
        self.max_batch = max_batch
        self.refusals = refusals  # what a constraint refuses: the caller's to answer
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()  # C, lock-free put
        self._thread: threading.Thread | None = None
        self.commits = 0  # transactions committed (for the group-commit figures)
        self.writes = 0  # writes committed
        self.failed = 0  # writes refused (their callers got the exception)
        # kept by the writer thread, read by the metrics endpoint (``server.figures``)
        self.commit_seconds = Timings()  # each commit's transaction, BEGIN to COMMIT
        self.batches = Timings(BATCH_BOUNDS)  # writes per commit

    @property
    def running(self) -> bool:
        """Whether the thread was started and not stopped."""
        return self._thread is not None

    def start(self) -> None:
        """Start the thread (it opens its own connection)."""
        self._thread = threading.Thread(target=self._run, name="kk-store", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        """Commit what is queued, then end the thread and close its connection."""
        if self._thread is not None:
            self._queue.put(None)
            await asyncio.to_thread(self._thread.join)
            self._thread = None

    def submit(self, ops: list[Op], fence: Fence) -> asyncio.Future[None]:
        """Queue one write now; the future of its durability: done once it is durable,
        with ``StaleOwner`` if its fence refused it, the database's exception if it
        failed. Cancelled before the thread took it, the write is dropped."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.put((ops, fut, loop, fence))
        return fut

    def _run(self) -> None:
        con: Any = None
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
                    con = self._commit_connected(con, live)
                if stop:
                    return
        finally:
            if con is not None:
                con.close()

    def _commit_connected(self, con: Any, batch: list[_Item]) -> Any:
        """Commit the batch on ``con`` (None: connect first); the connection to use
        next (None once it was lost). A batch whose connection was lost before its
        ``COMMIT`` was sent is tried once more on a new one (the first write after a
        restart of the database finds the old connection dead); while none can be
        made, or if it was lost during the ``COMMIT``, each of its callers gets
        ``StoreUnavailable`` (the table announces nothing it did not store)."""
        if con is not None and self.broken(con):  # found lost since its last use
            with contextlib.suppress(Exception):
                con.close()
            con = None
        for attempt in range(2):
            try:
                if con is None:
                    con = self.connect()
                self._commit_batch(con, batch)
                return con
            except _Lost as e:
                with contextlib.suppress(Exception):
                    con.close()
                con = None
                if attempt == 0 and not e.committing:
                    continue
                self._unavailable(batch, e.__cause__ or e)
            except Exception as e:  # no connection: StoreUnavailable, or the lock lost
                self._unavailable(batch, e)
            return None
        return None

    def _unavailable(self, batch: list[_Item], e: BaseException) -> None:
        self.failed += len(batch)
        log.warning("store unreachable: writes refused", extra={"error": repr(e)})
        err = e if isinstance(e, StoreUnavailable) else StoreUnavailable(str(e))
        _settle(batch, err)

    def _commit_batch(self, con: Any, batch: list[_Item]) -> None:
        """Commit the batch in one transaction; if that fails, commit each write in its
        own, so one bad write fails only its own caller."""
        try:
            started = time.perf_counter()
            stale = self._transaction(con, batch)
            self.commit_seconds.observe(time.perf_counter() - started)
        except _Lost:
            raise
        except Exception as e:
            if len(batch) == 1:
                self._fail(batch[0], e)
                return
            for item in batch:
                try:
                    stale = self._transaction(con, [item])
                except _Lost:
                    raise
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
        committing = False
        cur = con.cursor()
        try:
            cur.execute(self.begin)
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
                            cur.executemany(self.dialect(sql), rows)  # type: ignore[arg-type]
                        sql, rows = op_sql, []
                    rows.append(params)
            if rows:
                cur.executemany(self.dialect(sql), rows)  # type: ignore[arg-type]
            committing = True
            cur.execute("COMMIT")
        except Exception as e:
            if self.broken(con):
                raise _Lost(committing) from e
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
        cur.execute(self.epochs_sql(len(ids)), ids)
        epochs = dict(cur.fetchall())
        return [it for it in batch if it[3] is not None and not _fits(it[3], epochs)]

    def _done(self, batch: list[_Item]) -> None:
        self.commits += 1
        self.writes += len(batch)
        self.batches.observe(len(batch))
        _settle(batch, None)

    def _fail(self, item: _Item, e: Exception) -> None:
        self.failed += 1
        if isinstance(e, self.refusals):
            log.warning("store write refused by a constraint", extra={"error": repr(e)})
        else:
            log.error("store write failed", extra={"error": repr(e)})
        _settle([item], e)

    def _refuse(self, item: _Item, e: StaleOwner) -> None:
        """A write refused by its fence: expected when a node lost a table (no error)."""
        self.failed += 1
        log.warning("store write refused: stale owner", extra={"table": e.table_id})
        _settle([item], e)


class _Lost(Exception):
    """The connection broke during a transaction; ``committing``: while its ``COMMIT``
    was on its way (whether it committed is not known)."""

    def __init__(self, committing: bool) -> None:
        super().__init__("the connection to the database was lost")
        self.committing = committing


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
