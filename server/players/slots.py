"""A few slots shared fairly among client addresses, with a bounded line.

Why: the hashing threads are few, and whoever waits for one waits behind everyone in
line. Served in order of arrival, the many requests of a few addresses would keep every
other address waiting (or refused, once the line is full). So the line is served address
by address, the address served longest ago first (one never served before it all), the
requests of one address in their order; and when the line is full, a newcomer from an
address that would be served before the last in line takes that one's place, which is
refused instead. One person's flood then costs the others at most a turn.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["FairSlots"]

_REMEMBERED = 4096
"""Addresses whose last turn is remembered (the others count as never served)."""


@dataclass(eq=False)
class _Waiter:
    address: str
    seq: int
    future: asyncio.Future[None] = field(repr=False)


class FairSlots:
    """``slots`` holders at once (``acquire``, ``release``), at most ``line`` waiting."""

    def __init__(self, slots: int, line: int) -> None:
        self.line = line
        self._free = slots
        self._waiting: list[_Waiter] = []
        self._served: OrderedDict[str, int] = OrderedDict()  # address -> its last turn
        self._turns = itertools.count()
        self._seqs = itertools.count()

    @property
    def waiting(self) -> int:
        """Requests in line now."""
        return len(self._waiting)

    def _order(self, w: _Waiter) -> tuple[int, int]:
        return self._served.get(w.address, -1), w.seq

    def _serve(self, address: str) -> None:
        self._served[address] = next(self._turns)
        self._served.move_to_end(address)
        if len(self._served) > _REMEMBERED:
            self._served.popitem(last=False)

    async def acquire(self, address: str, full: Callable[[], Exception]) -> None:
        """Wait for a slot for ``address``; ``full()`` raised if the line is full and
        ``address`` comes after everyone in it (or thrown into the last one's wait)."""
        if self._free > 0 and not self._waiting:
            self._free -= 1
            self._serve(address)
            return
        me = _Waiter(address, next(self._seqs), asyncio.get_running_loop().create_future())
        if len(self._waiting) >= self.line:
            if not self._waiting:  # no line at all
                raise full()
            last = max(self._waiting, key=self._order)
            if self._order(me) >= self._order(last):
                raise full()
            self._waiting.remove(last)
            last.future.set_exception(full())
        self._waiting.append(me)
        try:
            await me.future
        except BaseException:
            if me in self._waiting:
                self._waiting.remove(me)
            elif me.future.done() and not me.future.cancelled() and not me.future.exception():
                self.release()  # handed a slot as it was cancelled: pass it on
            raise

    def release(self) -> None:
        """Give the slot to the first in line, or free it."""
        if not self._waiting:
            self._free += 1
            return
        first = min(self._waiting, key=self._order)
        self._waiting.remove(first)
        self._serve(first.address)
        first.future.set_result(None)
