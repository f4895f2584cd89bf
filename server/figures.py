"""Figures a part keeps of what it does: counts by kind (``Tally``) and spreads of
durations or sizes (``Timings``), read by the metrics endpoint when it is scraped.

Why: a part that must count at the event (a commit, a take, a refusal) keeps the figure
itself, as it already keeps its counters, and knows nothing of Prometheus or of who
reads it; ``server.ops.metrics`` turns the figures into metrics at scrape time. Each
figure has one writer (the event loop, or the one thread of the part that owns it), so
plain integers suffice: a reader may see a figure one event behind, never a torn one.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence

from protocol.messages import ErrorCode

__all__ = ["HANDSHAKE_REFUSALS", "LATENCY_BOUNDS", "SessionFigures", "Tally", "Timings"]

LATENCY_BOUNDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds: the bucket bounds of a latency that is a millisecond when all is well."""


class Tally:
    """How many times each kind of thing happened (kinds named by the part)."""

    __slots__ = ("counts",)

    def __init__(self, kinds: Iterable[str] = ()) -> None:
        self.counts: dict[str, int] = dict.fromkeys(kinds, 0)  # kinds known from the start

    def add(self, kind: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n

    def __getitem__(self, kind: str) -> int:
        return self.counts.get(kind, 0)


class Timings:
    """A histogram: how many values fell at or under each bound (and above the last),
    and their sum. Bounds are fixed when it is made, as a Prometheus histogram's are."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: Sequence[float] = LATENCY_BOUNDS) -> None:
        self.bounds = tuple(sorted(bounds))
        self.counts = [0] * (len(self.bounds) + 1)  # the last: above every bound
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    @property
    def count(self) -> int:
        return sum(self.counts)

    def cumulative(self) -> list[tuple[float, int]]:
        """(bound, values at or under it) for every bound, then (inf, all values)."""
        out: list[tuple[float, int]] = []
        running = 0
        for bound, n in zip((*self.bounds, float("inf")), self.counts, strict=True):
            running += n
            out.append((bound, running))
        return out


HANDSHAKE_REFUSALS = ("banned", "origin", "early_data", "server_full", "host", "header_twice")
"""Why a WebSocket handshake (or any HTTP request) was refused: a banned address,
another site's page, data sent before the answer, no room for another connection,
another host's name in ``Host``, a header that must be single sent twice."""


class SessionFigures:
    """What the sessions of one server count together: every take answered and how
    long it took from its arrival to its answer, the messages the rate limits refused
    (``limited``; ``closed``: the connection, for sustained flooding; ``chat``), the
    ``error`` messages sent by code, and the handshakes refused (``HANDSHAKE_REFUSALS``)."""

    __slots__ = ("errors", "handshakes_refused", "rate_limited", "take_seconds")

    def __init__(self) -> None:
        self.take_seconds = Timings()
        self.rate_limited = Tally(("limited", "closed", "chat"))
        self.errors = Tally(code.value for code in ErrorCode)
        self.handshakes_refused = Tally(HANDSHAKE_REFUSALS)
