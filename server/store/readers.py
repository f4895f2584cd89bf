"""The SQL store's read connections: the event loop's own, for quick indexed reads,
and one for reads whose cost grows with what is stored, used in worker threads.

Why: a read on the event loop holds every table up while it lasts; the pages a client
asks for (of a player's games, of the leaderboard, a record) run apart, on a
connection of their own, so that neither the
loop nor its own reads wait for them. They take that connection one at a time, and
wait for it on the event loop, not in a worker thread: however many clients ask, one
of the default executor's threads is busy with them at most, and the rest stay free
for the others' work.

A connection found broken (the database restarted) is closed and the read runs once
more on a new one; while none can be made the read fails with ``StoreUnavailable``,
and for a second after such a failure the reads fail at once without trying (a connect
that must time out would hold the event loop up).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from .base import StoreUnavailable

T = TypeVar("T")

__all__ = ["Dialect", "Readers"]


class Dialect:
    """A read connection whose ``execute`` takes statements written with ``?``."""

    def __init__(self, con: Any, sql: Callable[[str], str]) -> None:
        self.con = con
        self.sql = sql

    def execute(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> Any:
        cur = self.con.cursor()
        cur.execute(self.sql(sql), params)
        return cur


class Readers:
    """``read`` on the event loop's connection; ``read_apart`` and ``run_apart`` in a
    worker thread on a connection of its own (the database module lets go of the GIL
    while the database works), one at a time; each connection is opened with
    ``connect`` on first use and read through the backend's dialect (``sql``), and
    ``close`` closes both. ``broken`` says whether a connection was lost."""

    RETRY_AFTER = 1.0
    """Seconds after a failed connect during which reads fail without trying again."""

    def __init__(
        self,
        connect: Callable[[], Any],
        sql: Callable[[str], str],
        broken: Callable[[Any], bool] = lambda con: False,
    ) -> None:
        self.connect = connect
        self.sql = sql
        self.broken = broken
        self._down_until = 0.0  # monotonic: no connect tried before (see RETRY_AFTER)
        self._locks = (threading.Lock(), threading.Lock())
        self._cons: list[Any] = [None, None]  # the loop's, the worker threads'
        self._here = threading.local()  # ``apart`` set: this thread runs ``run_apart``
        self._turn: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None  # see _apart

    def _on(self, which: int, fn: Callable[[Dialect], Any]) -> Any:
        with self._locks[which]:
            for attempt in range(2):
                con = self._connection(which)
                try:
                    return fn(Dialect(con, self.sql))
                except Exception as e:
                    if not self.broken(con):
                        raise
                    self._cons[which] = None
                    with contextlib.suppress(Exception):
                        con.close()
                    if attempt:
                        raise StoreUnavailable(str(e)) from e
            raise AssertionError("unreachable")

    def _connection(self, which: int) -> Any:
        con = self._cons[which]
        if con is None:
            if time.monotonic() < self._down_until:
                raise StoreUnavailable("the database cannot be reached now")
            try:
                con = self._cons[which] = self.connect()
            except StoreUnavailable:
                self._down_until = time.monotonic() + self.RETRY_AFTER
                raise
        return con

    def read(self, fn: Callable[[Dialect], Any]) -> Any:
        if getattr(self._here, "apart", False):  # within ``run_apart``: its connection
            return fn(Dialect(self._cons[1], self.sql))
        return self._on(0, fn)

    async def _apart(self, fn: Callable[[Dialect], T]) -> T:
        """``fn`` on the worker threads' connection, in a worker thread, once the reads
        asked for before it are done (they wait here, on the loop's lock)."""
        loop = asyncio.get_running_loop()
        if self._turn is None or self._turn[0] is not loop:
            self._turn = (loop, asyncio.Lock())
        async with self._turn[1]:
            result: T = await asyncio.to_thread(self._on, 1, fn)
        return result

    async def run_apart(self, reads: Callable[[], T]) -> T:
        """``reads()`` in a worker thread, every ``read`` it makes on the connection of
        the worker threads (a page of a listing: several reads that belong together)."""

        def run(con: Dialect) -> T:
            self._here.apart = True
            try:
                return reads()
            finally:
                self._here.apart = False

        return await self._apart(run)

    def close(self) -> None:
        for which, lock in enumerate(self._locks):
            with lock:
                if self._cons[which] is not None:
                    self._cons[which].close()
                    self._cons[which] = None
