"""The expert's analyses of finished games, in worker processes below the bots' moves.

Why: an analysis is the expert's search over every decision of a game (docs/BOTS.md,
"Analysis": some 10 to 14 s of one core at the default budget), where a bot's move is
a fraction of a second that a person at a table waits for. So analyses never share a
process with moves: ``Analyst`` keeps worker processes of its own (``spawn``ed, as the
bots' are, following the server's life), each lowered to the scheduler's least
priority (``os.nice``, ``NICENESS``) at its start. While a bot's move wants a core, the
kernel gives it that core before any analysis; an analysis only takes what the moves
and the event loop leave (``bench/analysis_load.py`` measures a move's time with and
without analyses running). How many analyses may run and wait, and who may ask for
one, is decided above, by ``server.players.analyses``.

``workers=0`` analyses in a thread instead (tests, and servers that want no process):
a thread cannot be lowered, so there it takes its share of the event loop's core.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from shared.analysis import Analysis, analyse
from shared.record import Record

from .pool import follow_parent

__all__ = ["NICENESS", "Analyst", "analyse_counted"]

log = logging.getLogger("kupferkessel.bots")

NICENESS = 19
"""How far an analysis worker lowers its priority: the least a process may have, so a
move's worker (niceness 0) wins every core it wants."""


def analyse_counted(record: Record, budget: int, seed: int) -> tuple[dict[str, Any], float]:
    """A worker's whole job: ``record``'s analysis (``shared.analysis.analyse``) as plain
    data, and the CPU seconds it took where it ran."""
    began = time.thread_time()
    analysis = analyse(record, budget=budget, seed=seed)
    return analysis.to_dict(), time.thread_time() - began


def _lowered(parent: int, niceness: int) -> None:
    """In each analysis worker: follow the server's life, then lower the priority."""
    follow_parent(parent)
    os.nice(niceness)


class Analyst:
    """Runs analyses in ``workers`` processes of the least priority (``analyse``)."""

    def __init__(self, workers: int, niceness: int = NICENESS) -> None:
        self.workers = workers
        self.niceness = niceness
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self.analysed = 0  # analyses made
        self.cpu_seconds = 0.0  # the CPU time they took where they ran

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lowered,
                    initargs=(os.getpid(), self.niceness),
                )
            return self._pool

    def _reset(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is broken:
                self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    async def analyse(self, record: Record, budget: int, seed: int = 0) -> Analysis:
        """``record``'s analysis at ``budget`` samples a decision, in a worker (in a
        thread with ``workers=0``); a worker that died is replaced and asked again once."""
        if self.workers <= 0:
            raw, cpu = await asyncio.to_thread(analyse_counted, record, budget, seed)
        else:
            raw, cpu = await self._in_worker(record, budget, seed)
        self.analysed += 1
        self.cpu_seconds += cpu
        return Analysis.from_dict(raw)

    async def _in_worker(
        self, record: Record, budget: int, seed: int
    ) -> tuple[dict[str, Any], float]:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, analyse_counted, record, budget, seed)
            except BrokenProcessPool:
                log.error("analysis worker died", extra={"attempt": attempt})
                self._reset(pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
