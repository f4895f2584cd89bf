"""Server-side bots think in worker processes, never on the event loop's core.

Search is pure Python: in a thread it would hold the GIL and a person's take would wait
behind it. So a bot's move is one call of ``think`` (a small pure function: the bot and
its view in, the take and the bot as it is afterwards out) in a process of one pool
shared by every table of the process. The pool's size is the global budget of bot
thinking: at most ``workers`` cores think for bots at any time, each move within the
bot's own time budget (``--bot-think``); moves beyond that wait their turn, first come
first served, while the event loop keeps serving people. The per-address cap on games of
bots only is a lobby quota (``Quotas.bot_games``).

``workers=0`` thinks in a thread instead (for embedded single-player servers and tests
that want no extra process).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool

from shared.bots.base import Bot
from shared.game import Take
from shared.view import View

from ..figures import Timings

__all__ = ["BotPool", "default_workers", "resident_bytes", "think", "think_counted"]

log = logging.getLogger("kupferkessel.bots")


def think(bot: Bot, view: View) -> tuple[Take, Bot]:
    """The worker's whole job: ``bot.decide(view)``, and the bot as deciding left it
    (its random state, what it learnt), which the server keeps for the next move."""
    take = bot.decide(view)
    return take, bot


def think_counted(bot: Bot, view: View) -> tuple[tuple[Take, Bot], float, int, int]:
    """``think``, with what it cost where it ran: the CPU seconds of the move, and the
    process's id and resident memory (``resident_bytes``) after it."""
    began = time.thread_time()
    result = think(bot, view)
    return result, time.thread_time() - began, os.getpid(), resident_bytes()


def _worker_memory() -> tuple[int, int]:
    """A worker's id and resident memory (asked at its start, ``BotPool.warm``)."""
    return os.getpid(), resident_bytes()


def resident_bytes() -> int:
    """This process's resident memory in bytes (Linux: ``/proc/self/statm``; elsewhere
    its peak, ``ru_maxrss``; 0 where neither is known)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


def follow_parent(parent: int) -> None:
    """In each worker: exit when the server process is gone, however it ended (a
    SIGKILL leaves no one to shut the pool down); and leave Ctrl-C to the server (at a
    terminal it interrupts the whole process group: the server shuts the pool down
    cleanly, a worker would only print a ``KeyboardInterrupt`` traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="kk-follow-parent", daemon=True).start()


def default_workers() -> int:
    """One core is the event loop's: bots get the others, at least one, at most four."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class BotPool:
    """The worker processes bots think in (created on first use, ``spawn``ed: no
    copy of the server's threads or sockets). ``BrokenProcessPool`` (a worker killed)
    makes a fresh pool and the move is tried once more.

    What the thinking costs is measured where it runs (``think_counted``), not read
    from outside at each scrape: ``cpu_seconds`` (every move's, in workers or a thread)
    and ``memory`` (each live worker's resident bytes after its last move)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self.moves = 0  # moves thought (in workers, or in a thread with workers=0)
        self.waiting = 0  # moves submitted and not yet answered
        # each move from asked to answered: waiting for a worker, then thinking
        self.move_seconds = Timings((0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0))
        self.cpu_seconds = 0.0  # CPU time the moves took where they were thought
        self.memory: dict[int, int] = {}  # worker process id -> its resident bytes

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=follow_parent,
                    initargs=(os.getpid(),),
                )
            return self._pool

    def _reset(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is broken:
                self._pool = None
                self.memory = {}
        broken.shutdown(wait=False, cancel_futures=True)

    async def decide(self, bot: Bot, view: View) -> tuple[Take, Bot]:
        """``think(bot, view)`` in a worker (in a thread with ``workers=0``)."""
        self.waiting += 1
        asked = time.perf_counter()
        try:
            result, cpu, worker, memory = await self._think(bot, view)
        finally:
            self.waiting -= 1
        self.cpu_seconds += cpu
        if self.workers > 0:
            self.memory[worker] = memory
        self.moves += 1
        self.move_seconds.observe(time.perf_counter() - asked)
        return result

    async def _think(self, bot: Bot, view: View) -> tuple[tuple[Take, Bot], float, int, int]:
        if self.workers <= 0:
            return await asyncio.to_thread(think_counted, bot, view)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, think_counted, bot, view)
            except BrokenProcessPool:
                log.error("bot worker died", extra={"attempt": attempt})
                self._reset(pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def warm(self) -> None:
        """Start the workers now (spawning takes a moment), not at the first bot move."""
        if self.workers > 0:
            pool = self._executor()
            for _ in range(self.workers):
                pool.submit(_worker_memory).add_done_callback(self._noted)

    def _noted(self, done: concurrent.futures.Future[tuple[int, int]]) -> None:
        if not done.cancelled() and done.exception() is None:
            worker, memory = done.result()
            self.memory[worker] = memory

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


_shared: dict[int, BotPool] = {}


def shared_pool(workers: int) -> BotPool:
    """The process's pool of ``workers`` processes (servers of one process share it)."""
    pool = _shared.get(workers)
    if pool is None:
        pool = _shared[workers] = BotPool(workers)
    return pool
