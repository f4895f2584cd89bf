"""A token bucket: a rate with bursts, the shape of every rate limit of the server.

Why: a connection's messages (``server.net.ratelimit``), an address's bytes
(``server.net.guard``) and an address's slow hashes (``server.players.hashing``) are
all limited the same way, so one small class serves them, below every part that uses it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["TokenBucket"]


class TokenBucket:
    __slots__ = ("_clock", "_last", "burst", "rate", "tokens")

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._clock = clock
        self._last = clock()

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are enough; False (nothing spent) otherwise."""
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def available(self) -> float:
        """The tokens there are now (refilled, nothing spent)."""
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now
        return self.tokens

    def charge(self, cost: float) -> None:
        """Spend ``cost`` tokens whatever is left: the bucket may go into debt, and
        later messages wait until it has refilled (an answer's cost is known only once
        it is made)."""
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate) - cost
        self._last = now
