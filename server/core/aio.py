"""Running a table's coroutines: to their end whatever happens to the caller, or on
their own."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable

__all__ = ["later", "to_the_end"]

_BACKGROUND: set[asyncio.Task[None]] = set()


async def to_the_end(coro: Awaitable[None]) -> None:
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
    task.result()


def later(coro: Awaitable[None]) -> None:
    """Run ``coro`` soon, on its own (stopping a stand-in must not wait under a lock)."""

    async def run() -> None:
        with contextlib.suppress(Exception):
            await coro

    task = asyncio.get_running_loop().create_task(run())
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
