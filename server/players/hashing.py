"""The slow hashes of sign-in, bounded per client address and overall.

Why: a slow hash (scrypt: some 50 ms of CPU and 16 MiB each) is what a sign-in costs,
so it is what one person flooding a public server would spend. ``Hasher`` runs them on
a few threads of its own (a fixed pool, so the memory scrypt takes comes back to the
same few arenas instead of one per thread of the default executor), grants each client
address a budget of hashes (a token bucket: a burst, then a steady rate), keeps at most
``queue`` requests waiting for a thread, served address by address (``FairSlots``: a
flood from some addresses costs the others a turn, not the whole line), and drops the
waiting work of a connection that has closed before it is hashed. A request past a
bound is refused at once with ``rate_limited`` and the seconds after which asking again
can succeed (``Busy``).

The bounds are per server process, a node of a cluster each: hashing takes the node's
own CPU and memory, which no other node's count would protect, and a sign-in asks
nothing of Redis. Registration has a budget of its own per address (``register``): a
name kept for good costs the server more than a wrong guess.

Memory: glibc's malloc raises its threshold for mapping a block by itself (``mmap``) to
the largest block freed, so after the first scrypt its 16 MiB came from the heap of the
thread's arena and stayed there: RSS grew by 16 MiB or more per thread that had hashed
and never came back. ``Hasher`` fixes the threshold at 1 MiB (``mallopt``, glibc's
documented call), so each scrypt's block is mapped for it and returned when it is done
(``bench/abuse.py --signin`` shows RSS before, during and after a flood).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import functools
import math
import platform
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol, TypeVar

from ..core.buckets import TokenBucket
from ..core.errors import TableError
from .slots import FairSlots

__all__ = [
    "NO_ADDRESS_BOUNDS",
    "Budgets",
    "Busy",
    "HashFigures",
    "Hasher",
    "Requester",
    "SignInBounds",
]

T = TypeVar("T")


@dataclass(frozen=True)
class SignInBounds:
    """What sign-in may cost (``kupferkessel serve`` flags, docs/OPERATIONS.md)."""

    slots: int = 2
    """Hashes computed at once: threads of the hashing pool."""
    queue: int = 16
    """Requests waiting for a thread at most; more are refused (``rate_limited``): the
    newcomer, or the last in line if the newcomer's address is served before it."""
    per_minute: float = 20.0
    """Hashes per client address per minute, on average..."""
    burst: int = 10
    """... in bursts of up to this many."""
    registrations_per_hour: float = 10.0
    """``register`` per client address per hour, on average..."""
    registration_burst: int = 5
    """... in bursts of up to this many."""
    devices: int = 10
    """Devices (secrets) one player keeps at most (``redeem_code`` past it: refused)."""


NO_ADDRESS_BOUNDS = SignInBounds(
    per_minute=1e9, burst=10**9, registrations_per_hour=1e9, registration_burst=10**9
)
"""No budget per address (the pool and its queue as by default): for tests and
benchmarks whose many players all come from one address."""


class Requester(Protocol):
    """Who asks for a hash: a connection, by its client address."""

    @property
    def address(self) -> str: ...

    def alive(self) -> bool:
        """Whether its answer can still be sent (its connection is open)."""
        ...


class Busy(TableError):
    """``rate_limited``, and the seconds after which asking again can succeed."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("rate_limited", message, retry_after=max(1, math.ceil(retry_after)))


@dataclass
class HashFigures:
    """What the hasher counted since it started (``/metrics`` reads them)."""

    hashed: int = 0  # hashes computed (a request checking several old secrets: each)
    refused: int = 0  # requests refused: an address over its budget, or the queue full
    dropped: int = 0  # requests whose connection closed while they waited: not hashed


M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter: blocks of this size or more are mapped on their own."""


@functools.cache
def map_large_blocks(threshold: int = 1 << 20) -> bool:
    """Fix glibc's threshold for mapping blocks on their own at ``threshold`` bytes
    (once a process; elsewhere than glibc nothing): whether it was set."""
    if platform.libc_ver()[0] != "glibc":
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    return bool(libc.mallopt(M_MMAP_THRESHOLD, threshold))


_KEEP = 4096
"""Addresses whose buckets are kept before the full ones (the same as none) are let go."""


class Budgets:
    """A token bucket per client address (or per any other key: a player's id), made on
    first use."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self._clock = rate, burst, clock
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str, cost: float, what: str, whose: str = "your address") -> None:
        """Spend ``cost`` of ``address``'s budget; ``Busy`` (nothing spent) if short,
        saying "too many ``what`` from ``whose``"."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= _KEEP:
                self._buckets = {a: b for a, b in self._buckets.items() if b.available() < b.burst}
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self._clock)
        if not bucket.take(min(cost, self.burst)):
            wait = (min(cost, self.burst) - bucket.available()) / self.rate
            raise Busy(f"too many {what} from {whose}: wait a little", wait)

    def give_back(self, address: str, cost: float) -> None:
        """Return ``cost`` spent by ``take`` (the work it paid for was not done)."""
        bucket = self._buckets.get(address)
        if bucket is not None:
            bucket.tokens = min(bucket.burst, bucket.tokens + cost)


class Hasher:
    """Runs slow hashes for requesters within their address's budget (``run``)."""

    def __init__(
        self, bounds: SignInBounds | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        bounds = bounds or SignInBounds()
        map_large_blocks()  # scrypt's 16 MiB go back to the system after each hash
        self.bounds = bounds
        self.figures = HashFigures()
        self._pool = ThreadPoolExecutor(bounds.slots, thread_name_prefix="kk-hash")
        self._slots = FairSlots(bounds.slots, bounds.queue)  # served address by address
        self._seconds = 0.05  # a hash's time, as measured lately (for retry_after)
        self._hashes = Budgets(bounds.per_minute / 60, bounds.burst, clock)
        self._registrations = Budgets(
            bounds.registrations_per_hour / 3600, bounds.registration_burst, clock
        )

    @property
    def waiting(self) -> int:
        """Requests waiting for a thread now."""
        return self._slots.waiting

    def register(self, who: Requester | None) -> None:
        """Count a registration of ``who``'s address; ``Busy`` past its budget."""
        if who is not None:
            self._registrations.take(who.address, 1, "registrations")

    async def run(self, fn: Callable[[], T], who: Requester | None, cost: int = 1) -> T:
        """``fn()`` (``cost`` hashes) on the pool, once a thread is free: ``Busy`` at
        once if ``who``'s address has spent its budget or the queue is full; a
        ``TableError`` without any hash if ``who``'s connection closed meanwhile.
        ``who`` None (the server's own work): no budget, the queue all the same."""
        if who is not None:
            try:
                self._hashes.take(who.address, cost, "sign-in attempts")
            except Busy:
                self.figures.refused += 1
                raise
        await self._slots.acquire("" if who is None else who.address, self._full)
        try:
            if who is not None and not who.alive():
                self.figures.dropped += 1
                raise TableError("rate_limited", "the connection closed before its turn")
            self.figures.hashed += cost
            start = time.perf_counter()
            result = await asyncio.get_running_loop().run_in_executor(self._pool, fn)
            self._seconds = 0.8 * self._seconds + 0.2 * (time.perf_counter() - start) / cost
            return result
        finally:
            self._slots.release()

    def _full(self) -> Busy:
        """The refusal of a request the full line has no room for."""
        self.figures.refused += 1
        wait = self._seconds * (self._slots.waiting + 1) / self.bounds.slots
        return Busy("the server is busy signing players in: try again soon", wait)

    def close(self) -> None:
        """Let the pool's threads go once their hashes are done."""
        self._pool.shutdown(wait=False, cancel_futures=True)
