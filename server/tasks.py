"""Stopping background tasks for sure.

On Python 3.11 a cancellation can be lost: ``asyncio.wait_for`` returns the awaited
result when the work finished in the same loop turn as the cancellation arrived
(CPython gh-86296, fixed in 3.12), and redis-py writes every command under
``asyncio.wait_for``. A loop doing Redis I/O (a cluster node's upkeep, its counting for
the limits) then carries on after its one ``cancel()``: a stopped node went on
publishing itself as alive, and waiting for such a task never ended. ``stop_tasks``
cancels again until the tasks have ended.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

__all__ = ["stop_tasks"]


async def stop_tasks(tasks: Iterable[asyncio.Task[Any]], within: float) -> set[asyncio.Task[Any]]:
    """Cancel ``tasks`` and wait until they have ended, cancelling again every tenth of
    a second the ones still running (a lost cancellation), for at most ``within``
    seconds. Returns the tasks still running then (none, unless one ignores every
    cancellation)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    pending = {t for t in tasks if not t.done()}
    while pending:
        for task in pending:
            task.cancel()
        left = deadline - loop.time()
        if left <= 0:
            break
        _, pending = await asyncio.wait(pending, timeout=min(0.1, left))
    return pending
