"""asyncio done reliably: work that runs to its end whatever happens to its caller
(``to_the_end``, ``outlast``) or on its own (``later``), background tasks stopped for
sure (``stop_tasks``), and a start waiting for a service (``patiently``).

Why one module: the table's writes (``core``) and the background loops of the server
and of a node (``app``, ``cluster``) need the same care of cancellations, so they find it
in the layer below both.

Stopping tasks. On Python 3.11 a cancellation can be lost: ``asyncio.wait_for``
returns the awaited result when the work finished in the same loop turn as the
cancellation arrived (CPython gh-86296, fixed in 3.12), and redis-py writes every
command under ``asyncio.wait_for``. A loop doing Redis I/O (a cluster node's upkeep,
its counting for the limits) then carries on after its one ``cancel()``: a stopped node
went on publishing itself as alive, and waiting for such a task never ended.
``stop_tasks`` cancels again until the tasks have ended.

It cancels again on each of the first loop turns, not only every tenth of a second: with
redis-py 8.2 a cancellation that comes at a random moment of such a loop is lost about
half the time, so one every tenth of a second took up to 1.4 s (and once over 5 s) to
stop a loop of local Redis commands, while one on each turn stops it within 3 turns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

__all__ = ["later", "outlast", "patiently", "stop_tasks", "to_the_end"]

log = logging.getLogger("kupferkessel.server")

T = TypeVar("T")

PATIENCE = (0.5, 5.0)
"""The first wait before trying a service again at start, and the longest (doubling)."""

_EAGER_TURNS = 20  # loop turns on each of which the tasks are cancelled again

_BACKGROUND: set[asyncio.Task[None]] = set()


async def to_the_end(coro: Awaitable[T]) -> T:
    """Run ``coro`` to its end even if the caller is cancelled meanwhile, then pass the
    cancellation on. A store write cannot be taken back once asked for (the writer may
    already be committing it), so the table must not stop half-way between the write
    and taking the action into its record: the next write would reuse the index."""
    task = asyncio.ensure_future(coro)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return task.result()


async def outlast(fut: asyncio.Future[None]) -> bool:
    """Wait until ``fut`` (a future already under way, such as a store write) is done,
    even if this task is cancelled meanwhile; returns whether it was, for the caller
    to pass the cancellation on once it has done what must follow. ``fut``'s outcome
    is left to awaiting it again (done: at once). ``to_the_end`` without a task of its
    own: a task, a shield and two loop turns cheaper per take (``bench/commit.py``),
    for a caller whose work after ``fut`` never suspends."""
    cancelled = False
    while not fut.done():
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            if fut.cancelled():  # the write's own end: the caller's to raise
                break
            cancelled = True  # this task's: the caller passes it on
        except Exception:
            break  # the write failed: the caller's to raise
    return cancelled


def later(coro: Awaitable[None]) -> None:
    """Run ``coro`` soon, on its own (stopping a stand-in must not wait under a lock)."""

    async def run() -> None:
        with contextlib.suppress(Exception):
            await coro

    task = asyncio.get_running_loop().create_task(run())
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


async def stop_tasks(tasks: Iterable[asyncio.Task[Any]], within: float) -> set[asyncio.Task[Any]]:
    """Cancel ``tasks`` and wait until they have ended, cancelling again the ones still
    running (a lost cancellation) on each of the next loop turns, then every tenth of a
    second, for at most ``within`` seconds. Returns the tasks still running then (none,
    unless one ignores every cancellation)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    pending = {t for t in tasks if not t.done()}
    turns = 0
    while pending:
        for task in pending:
            task.cancel()
        left = deadline - loop.time()
        if left <= 0:
            break
        wait = 0 if turns < _EAGER_TURNS else min(0.1, left)  # 0: the next loop turn
        turns += 1
        _, pending = await asyncio.wait(pending, timeout=wait)
    return pending


async def patiently(
    what: str, attempt: Callable[[], Awaitable[None]], out_of_reach: tuple[type[BaseException], ...]
) -> None:
    """Run ``attempt`` until it no longer fails with one of ``out_of_reach`` (the
    database or Redis not answering yet: a server started while they restart waits for
    them, logging each try, instead of exiting to be restarted in a loop). Cancelled,
    it ends: also when the attempt lost the cancellation (redis-py's ``wait_for``, see
    above) and failed, since the task still says it is being cancelled."""
    wait, longest = PATIENCE
    while True:
        try:
            await attempt()
            return
        except out_of_reach as e:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise asyncio.CancelledError from e
            error = " ".join(str(e).split())
            log.warning(f"waiting for {what}", extra={"error": error, "retry_in": wait})
        await asyncio.sleep(wait)
        wait = min(longest, wait * 2)
