"""A token bucket, the per-connection rate limit.

Each message costs one token; tokens refill at ``rate`` per second up to ``burst``. An
answer that sends a lot (``list_tables``) is charged more afterwards, by its size.
A message that finds the bucket empty is refused with ``rate_limited``; the refusals
themselves are counted in a second, slower bucket, and when that one runs dry too the
abuse is sustained and the connection is closed. Both are counted in the server's
``Tally`` of refusals (``limited``, ``closed``), which the metrics read.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core.buckets import TokenBucket
from ..figures import Tally

__all__ = ["RateLimiter", "TokenBucket"]


class RateLimiter:
    """``check()`` answers "ok", "limited" (refuse this message) or "abuse" (close)."""

    def __init__(
        self,
        rate: float,
        burst: float,
        *,
        abuse_rate: float = 2.0,
        abuse_burst: float = 50.0,
        clock: Callable[[], float] = time.monotonic,
        tally: Tally | None = None,
    ) -> None:
        self.messages = TokenBucket(rate, burst, clock)
        self.refusals = TokenBucket(abuse_rate, abuse_burst, clock)
        self.tally = tally if tally is not None else Tally()  # shared by the server's

    def check(self) -> str:
        if self.messages.take():
            return "ok"
        if self.refusals.take():
            self.tally.add("limited")
            return "limited"
        self.tally.add("closed")
        return "abuse"
