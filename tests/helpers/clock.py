"""An injected clock for tables, lobbies and deadlines.

Tests of clocks, grace periods and timeouts move time by hand instead of sleeping, so
they take no time and never depend on the machine's load.
"""

from __future__ import annotations

__all__ = ["FakeClock"]


class FakeClock:
    """The clock in these tests: time moves only when a test moves it (``clock.t``)."""

    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t
