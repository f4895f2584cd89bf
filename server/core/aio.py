"""Running a table's coroutines: to their end whatever happens to the caller, or on
their own."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TypeVar

__all__ = ["later", "outlast", "to_the_end"]

T = TypeVar("T")

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
