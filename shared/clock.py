"""A table's time rules and its clock (RULES.md section 12.5): pure, the time is passed in.

``TimeRules`` is what a table is created with: a time per move (or none: no clock), a
reserve each seat may draw on once a move's own time is used up (it does not refill),
the grace period a disconnected seat waits before a computer player takes it over, and
how many expiries in a row make a seat count as absent.

``Clock`` times the move of one seat at a time. The caller tells it when a move starts
and stops, with the current time (seconds, one origin for as long as the clock is kept:
the server's wall clock, so the stored clock outlives the process), and asks for the
deadline; it never reads a clock itself, so tests drive it with made-up times. After a
server restart the move in progress goes on with the time it had used when the server
stopped (``spent``, then ``start`` with ``used``): the downtime is charged to nobody and
nothing used before it is given back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import SetupError
from .frozen import quick

__all__ = ["Clock", "ClockView", "TimeRules"]

MAX_SECONDS = 24 * 3600.0


@dataclass(frozen=True, slots=True)
class TimeRules:
    """A table's time rules (on the wire, the protocol's ``Timing``). ``move`` None: no
    clock (the game waits for each move)."""

    move: float | None = None
    reserve: float = 0.0
    grace: float = 60.0
    absent_after: int = 3

    def __post_init__(self) -> None:
        for name in ("move", "reserve", "grace"):
            v = getattr(self, name)
            if v is None and name == "move":
                continue
            if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= MAX_SECONDS:
                raise SetupError(f"{name} must be 0..{MAX_SECONDS:.0f} seconds", "bad_option")
        if self.move is not None and self.move < 1:
            raise SetupError("move must be at least 1 second", "bad_option")
        n = self.absent_after
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 100:
            raise SetupError("absent_after must be 1..100", "bad_option")

    @property
    def clocked(self) -> bool:
        return self.move is not None


@quick
@dataclass(frozen=True, slots=True)
class ClockView:
    """The clock as every seat and spectator sees it: ``running`` is the seat whose
    time runs (none between moves or once over); ``left_ms`` per seat is the time it
    has left, counting down from when the view was made for ``running`` (move time
    and reserve), the full move time plus reserve for the others. ``timeouts`` per seat
    is how many times in a row its time ran out (empty while no seat's has): at
    ``absent_after`` the seat counts as absent (a computer player plays it)."""

    move_ms: int
    running: int | None
    left_ms: tuple[int, ...]
    reserve_ms: tuple[int, ...]
    timeouts: tuple[int, ...] = ()
    absent_after: int = 3


class Clock:
    """The clock of one game (see the module docstring)."""

    __slots__ = ("reserve", "seat", "started", "timing")

    def __init__(self, timing: TimeRules, players: int, reserve: list[float] | None = None) -> None:
        if timing.move is None:
            raise ValueError("a clock needs a time per move")
        self.timing = timing
        self.reserve = list(reserve) if reserve is not None else [timing.reserve] * players
        self.seat: int | None = None
        self.started = 0.0

    def copy(self) -> Clock:
        c = Clock(self.timing, len(self.reserve), self.reserve)
        c.seat, c.started = self.seat, self.started
        return c

    @property
    def move(self) -> float:
        assert self.timing.move is not None
        return self.timing.move

    def start(self, seat: int, now: float, used: float = 0.0) -> None:
        """``seat``'s move starts now with the full move time, less ``used`` seconds
        (a move resumed after a restart: what it had used before)."""
        self.seat, self.started = seat, now - max(0.0, used)

    def spent(self, at: float) -> float:
        """Seconds the running move had used by ``at`` (0 if none runs; at most the
        move time plus the seat's reserve: all it had)."""
        if self.seat is None:
            return 0.0
        return min(max(0.0, at - self.started), self.move + self.reserve[self.seat])

    def stop(self, now: float) -> None:
        """The running move ended: time used beyond the move time comes off the reserve."""
        if self.seat is None:
            return
        over = now - self.started - self.move
        if over > 0:
            self.reserve[self.seat] = max(0.0, self.reserve[self.seat] - over)
        self.seat = None

    def deadline(self) -> float | None:
        """When the running move's time (and its seat's reserve) is up; None if none runs."""
        if self.seat is None:
            return None
        return self.started + self.move + self.reserve[self.seat]

    def view(self, now: float, timeouts: tuple[int, ...] = ()) -> ClockView:
        """The clock at ``now``, with the seats' ``timeouts`` in a row (kept by the
        caller: a take of the seat's own, or taking it back, resets its count)."""
        full = [round((self.move + r) * 1000) for r in self.reserve]
        deadline = self.deadline()
        if deadline is not None and self.seat is not None:
            full[self.seat] = max(0, round((deadline - now) * 1000))
        return ClockView(
            round(self.move * 1000),
            self.seat,
            tuple(full),
            tuple(round(r * 1000) for r in self.reserve),
            timeouts if any(timeouts) else (),
            self.timing.absent_after,
        )

    def to_dict(self) -> dict[str, Any]:
        """What the store keeps: each seat's reserve, and the running move's seat and
        start (so a restart knows how much of it was used)."""
        raw: dict[str, Any] = {"reserve": [round(r, 3) for r in self.reserve]}
        if self.seat is not None:
            raw["seat"], raw["started"] = self.seat, round(self.started, 3)
        return raw

    @classmethod
    def from_dict(cls, timing: TimeRules, players: int, raw: Any) -> Clock:
        """The clock as stored (anything malformed: a fresh clock, or no running move)."""
        raw = raw if isinstance(raw, dict) else {}
        reserve = raw.get("reserve")
        if (
            not isinstance(reserve, list)
            or len(reserve) != players
            or any(isinstance(r, bool) or not isinstance(r, int | float) for r in reserve)
        ):
            return cls(timing, players)
        clock = cls(timing, players, [max(0.0, float(r)) for r in reserve])
        seat, started = raw.get("seat"), raw.get("started")
        if (
            type(seat) is int
            and 0 <= seat < players
            and type(started) in (int, float)
            and math.isfinite(started)
        ):
            clock.seat, clock.started = seat, float(started)
        return clock
