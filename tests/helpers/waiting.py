"""Wait for a condition, not for a guessed time.

A fixed sleep is either too short on a loaded machine (a flaky test) or too long on a
quiet one (a slow suite); polling a condition with a deadline is neither.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["until"]


async def until(
    cond: Callable[[], Any],
    *,
    timeout: float = 20,
    every: float = 0.02,
    ignoring: tuple[type[BaseException], ...] = (),
    what: str = "",
) -> None:
    """Return once ``cond()`` (a plain or an async function) is true, checking it every
    ``every`` seconds; a check raising one of ``ignoring`` counts as false (a server
    restarting). Fails with ``TimeoutError`` naming ``what`` after ``timeout``."""
    deadline = asyncio.timeout(timeout)
    try:
        async with deadline:
            while True:
                with contextlib.suppress(*ignoring):
                    got = cond()
                    if isinstance(got, Awaitable):
                        got = await got
                    if got:
                        return
                await asyncio.sleep(every)
    except TimeoutError as e:
        if deadline.expired():
            raise TimeoutError(f"waited {timeout} s for {what or cond!r}") from e
        raise
