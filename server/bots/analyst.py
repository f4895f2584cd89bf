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

Hints (protocol 1.5's ``ask_hint``: the expert's take for a person's current decision,
from that seat's view only) are the same search over one decision, a fraction of a
second; they run in one more worker of the same lowest priority, never behind a game's
analysis, at most ``hints_at_once`` at a time.

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
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from shared.analysis import DEFAULT_BUDGET, Analysis, Suggestion, analyse, suggest
from shared.record import Record

from ..core.errors import TableError
from .pool import follow_parent

__all__ = ["NICENESS", "Analyst", "analyse_counted", "suggest_counted"]

T = TypeVar("T")

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


def suggest_counted(record: Record, budget: int, seed: int) -> tuple[Suggestion, float]:
    """A hint worker's job: ``shared.analysis.suggest``, and its CPU seconds."""
    began = time.thread_time()
    hint = suggest(record, budget=budget, seed=seed)
    return hint, time.thread_time() - began


def _lowered(parent: int, niceness: int) -> None:
    """In each analysis worker: follow the server's life, then lower the priority."""
    follow_parent(parent)
    os.nice(niceness)


class Analyst:
    """Runs analyses in ``workers`` processes of the least priority (``analyse``), and
    hints (1.5's ``ask_hint``) in one more such process (``suggest``): at most
    ``hints_at_once`` asked or waiting, each at ``hint_budget`` samples."""

    def __init__(
        self,
        workers: int,
        niceness: int = NICENESS,
        *,
        hint_budget: int = DEFAULT_BUDGET,
        hints_at_once: int = 4,
    ) -> None:
        self.workers = workers
        self.niceness = niceness
        self.hint_budget = hint_budget
        self.hints_at_once = hints_at_once
        self._pools: dict[str, concurrent.futures.ProcessPoolExecutor] = {}
        self._lock = threading.Lock()
        self.analysed = 0  # analyses made
        self.hinted = 0  # hints given
        self.hinting = 0  # hints asked for and not yet answered
        self.cpu_seconds = 0.0  # the CPU time they took where they ran

    def _executor(self, kind: str) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            pool = self._pools.get(kind)
            if pool is None:
                pool = self._pools[kind] = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers if kind == "analyses" else 1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lowered,
                    initargs=(os.getpid(), self.niceness),
                )
            return pool

    def _reset(self, kind: str, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pools.get(kind) is broken:
                del self._pools[kind]
        broken.shutdown(wait=False, cancel_futures=True)

    async def analyse(self, record: Record, budget: int, seed: int = 0) -> Analysis:
        """``record``'s analysis at ``budget`` samples a decision, in a worker (in a
        thread with ``workers=0``); a worker that died is replaced and asked again once."""
        raw, cpu = await self._run("analyses", analyse_counted, record, budget, seed)
        self.analysed += 1
        self.cpu_seconds += cpu
        return Analysis.from_dict(raw)

    async def suggest(self, record: Record, seed: int = 0) -> Suggestion:
        """A hint: the expert's take for the seat to move after ``record``
        (``shared.analysis.suggest``), in the hint worker; ``rate_limited`` while
        ``hints_at_once`` are asked already."""
        if self.hinting >= self.hints_at_once:
            raise TableError(
                "rate_limited", "the server is busy with hints: ask again soon", retry_after=1
            )
        self.hinting += 1
        try:
            hint, cpu = await self._run("hints", suggest_counted, record, self.hint_budget, seed)
        finally:
            self.hinting -= 1
        self.hinted += 1
        self.cpu_seconds += cpu
        return hint

    async def _run(self, kind: str, fn: Callable[..., T], *args: Any) -> T:
        if self.workers <= 0:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._executor(kind)
            try:
                return await loop.run_in_executor(pool, fn, *args)
            except BrokenProcessPool:
                log.error("analysis worker died", extra={"attempt": attempt, "kind": kind})
                self._reset(kind, pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def shutdown(self) -> None:
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)
