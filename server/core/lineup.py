"""Who plays each seat of a running game, and the time it has (RULES.md section 12,
docs/PROTOCOL.md "A table's whole life"): its person, or a computer player standing in
because the person is away (disconnected past the grace period, or timed out several
moves in a row) or resigned.

``Lineup`` is that, as a plain object a ``Table`` holds: no lock, no store, no
sending, no task, and no clock of its own (the time is passed in). Each transition
changes the lineup and says what the table must do about it (``TakeOver``: start a
stand-in for a seat; ``TimeUp``: a move's time ran out; ``Ends``: the game ends, and
how), or the stand-in the table must stop; the table does the I/O. A seat's person
is whoever sits there and is not a server-side bot (``people``: the table knows).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from shared.clock import Clock, ClockView, TimeRules
from shared.game import Game
from shared.result import GameResult, judge

from .errors import TableError
from .life import TableLife

__all__ = ["Ends", "Lineup", "Mark", "TakeOver", "TimeUp"]

S = TypeVar("S")
"""A stand-in: whatever the table starts for a seat (the lineup only holds it)."""


@dataclass(frozen=True, slots=True)
class TakeOver:
    """Start a computer player for ``seat`` (until its person is back)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The running move's time (and its seat's reserve) is up: move for ``seat``."""

    seat: int


@dataclass(frozen=True, slots=True)
class Mark:
    """Who made take ``index``: a computer player for a person's seat (``by_computer``),
    because the seat's time ran out (``expired``)."""

    index: int
    by_computer: bool
    expired: bool = False


@dataclass(frozen=True, slots=True)
class Ends:
    """The game ends as ``ending`` (``shared.result.judge``), won by ``claimed_by``
    if it was claimed."""

    ending: str
    claimed_by: int | None = None


class Lineup(Generic[S]):
    """Who plays each of ``players`` seats under ``timing``, and the clock."""

    def __init__(self, players: int, timing: TimeRules) -> None:
        self.players = players
        self.timing = timing
        self.resigned: list[int] = []  # seats that resigned, in order
        self.replaced: set[int] = set()  # seats a computer player played at some point
        self.timed_out: set[int] = set()  # seats taken over after time-outs in a row
        self.expiries = [0] * players  # time-outs in a row, per seat
        self.own = [0] * players  # takes each seat's person made itself, per seat
        self.computer: list[int] = []  # the takes a computer made for a person's seat
        self.expired: list[int] = []  # the takes made because the seat's time ran out
        self.absent_since: dict[int, float] = {}  # a person's seat, disconnected
        self.stand_ins: dict[int, S] = {}  # seat -> the computer player playing it
        self.clock: Clock | None = None

    # ------------------------------------------------------------- queries
    def absent(self, seat: int) -> bool:
        """A person's seat played by a computer player because its person is away
        (disconnected past the grace period, or timed out several moves in a row)."""
        return seat in self.stand_ins and seat not in self.resigned

    def may_take(self, seat: int | None) -> bool:
        """Whether the person of ``seat`` may take now, so that its views list ``takes``:
        never after resigning, nor while a computer player plays the seat (``back`` or
        ``resume`` take it back, with a fresh view), nor once its time-outs in a row
        make it absent: the state its last time-out leads to is announced before the
        computer player takes the seat, and must not offer the absent person a take."""
        return (
            seat is not None
            and seat not in self.resigned
            and seat not in self.stand_ins
            and self.expiries[seat] < self.timing.absent_after
        )

    def next_due(self) -> float | None:
        """When ``due`` or ``time_up`` next has something to say (None: nothing is pending)."""
        if not self.absent_since and self.clock is None:
            return None  # an unclocked table with everyone here: asked at each take
        grace = self.timing.grace
        due = [t + grace for s, t in self.absent_since.items() if s not in self.stand_ins]
        if self.clock is not None and (d := self.clock.deadline()) is not None:
            due.append(d)
        return min(due, default=None)

    def due(self, now: float) -> list[TakeOver]:
        """A stand-in for each seat absent past the grace period by ``now``."""
        return [
            TakeOver(seat)
            for seat, since in self.absent_since.items()
            if now - since >= self.timing.grace and seat not in self.stand_ins
        ]

    def time_up(self, now: float) -> TimeUp | None:
        """The running move, if its time (and its seat's reserve) is up by ``now``."""
        clock = self.clock
        deadline = None if clock is None else clock.deadline()
        if clock is None or clock.seat is None or deadline is None or now < deadline:
            return None
        return TimeUp(clock.seat)

    def life(
        self, server: str, rated: bool, clock: Clock | None = None, take: Mark | None = None
    ) -> dict[str, Any] | None:
        """What the store keeps of the game beyond its record (``TableLife``, in its
        stored form; None while there is nothing): resignations, stand-ins, time-outs,
        the clock (or ``clock``), the ``server`` that runs it, at a ``rated`` table each
        person's takes, and which takes a computer made (with ``take``: the one being
        stored with it, before ``made`` keeps it)."""
        clock = clock or self.clock
        computer, expired = list(self.computer), list(self.expired)
        if take is not None:
            computer += [take.index] if take.by_computer else []
            expired += [take.index] if take.expired else []
        kept = self.resigned or self.replaced or self.timed_out or computer or expired
        if clock is None and not (kept or rated):
            return None
        return TableLife(
            tuple(self.resigned),
            tuple(self.replaced),
            tuple(self.timed_out),
            None if clock is None else clock.to_dict(),
            server,
            tuple(self.own),
            tuple(computer),
            tuple(expired),
        ).to_dict()

    def made(self, take: Mark) -> None:
        """Take ``take.index`` is the game's now (stored): keep who made it."""
        if take.by_computer:
            self.computer.append(take.index)
        if take.expired:
            self.expired.append(take.index)

    def judge(self, game: Game, ending: str, claimed_by: int | None = None) -> GameResult:
        """The result of ``game`` ending as ``ending`` with this lineup."""
        return judge(
            game,
            ending,
            resigned=self.resigned,
            replaced=self.replaced,
            timed_out=self.timed_out,
            claimed_by=claimed_by,
        )

    # ------------------------------------------------------------- the clock
    def clock_view(self, now: float) -> ClockView | None:
        """The clock as views show it at ``now``, with each seat's time-outs in a row."""
        return None if self.clock is None else self.clock.view(now, tuple(self.expiries))

    def new_clock(self, to_move: int, now: float) -> Clock | None:
        """A game's first clock, ``to_move``'s move started ``now`` (None: unclocked)."""
        if not self.timing.clocked:
            return None
        clock = Clock(self.timing, self.players)
        clock.start(to_move, now)
        return clock

    def clock_after(self, to_move: int | None, now: float) -> Clock | None:
        """The clock once the running move ends ``now`` and ``to_move``'s starts (None:
        the game is over); a copy, this lineup's is changed only if it is kept."""
        if self.clock is None:
            return None
        clock = self.clock.copy()
        clock.stop(now)
        if to_move is not None:
            clock.start(to_move, now)
        return clock

    # ------------------------------------------------------------- transitions
    def went_away(self, seat: int, now: float) -> None:
        """The person of ``seat`` left during the game: its grace period runs."""
        self.absent_since.setdefault(seat, now)

    def stood_in(self, seat: int, stand_in: S) -> None:
        """``stand_in`` plays ``seat`` from now on (it was started for a ``TakeOver``)."""
        self.replaced.add(seat)
        self.stand_ins[seat] = stand_in

    def plays(self, seat: int, by: object) -> bool:
        """Whether ``by`` stands in for ``seat`` now."""
        return self.stand_ins.get(seat) is by

    def back(self, seat: int) -> S | None:
        """The person of ``seat`` is back: no grace period, its time-outs forgiven;
        returns the stand-in to stop (none if the seat resigned: it plays on)."""
        self.absent_since.pop(seat, None)
        self.expiries[seat] = 0
        if seat in self.resigned:
            return None
        return self.stand_ins.pop(seat, None)

    def person_takes(self, seat: int) -> tuple[int, int]:
        """The person of ``seat`` takes (it may: ``may_take``): its time-outs in a row
        end and the take counts as its own; returns what ``refused`` puts back."""
        held = self.expiries[seat], self.own[seat]
        self.expiries[seat], self.own[seat] = 0, self.own[seat] + 1
        return held

    def refused(self, seat: int, held: tuple[int, int]) -> None:
        """The take of ``person_takes`` was refused: no take, the time-outs stand."""
        self.expiries[seat], self.own[seat] = held

    def ran_out(self, seat: int) -> None:
        """``seat``'s time ran out: one more time-out in a row (its move is made for it)."""
        self.expiries[seat] += 1

    def after_time_out(self, seat: int, people: Collection[int]) -> list[TakeOver | Ends]:
        """After ``seat``'s timed-out move, in a game still running: at ``absent_after``
        time-outs in a row a person's seat is taken over (it counts as absent), and once
        every person's seat that has not resigned is, the game ends as timed out."""
        after = self.timing.absent_after
        if seat not in people or seat in self.resigned or self.expiries[seat] < after:
            return []
        self.timed_out.add(seat)
        left = [s for s in people if s not in self.resigned]
        if all(self.expiries[s] >= after for s in left):
            return [TakeOver(seat), Ends("timed_out")]
        return [TakeOver(seat)]

    def resign(self, seat: int, people: Collection[int]) -> TakeOver | Ends:
        """``seat`` resigns (RULES.md section 12.1): with two players, or when nobody
        but computer players would be left, the game ends; otherwise a computer player
        plays the seat to the end."""
        if seat in self.resigned:
            raise TableError("not_allowed", "you have already resigned")
        self.resigned.append(seat)
        playing = [s for s in range(self.players) if s not in self.resigned]
        if len(playing) <= 1 or not any(s in people for s in playing):
            return Ends("resigned")
        return TakeOver(seat)

    def claim(self, seat: int) -> Ends:
        """``seat`` claims the game: only with two players, while the other is absent."""
        if self.players != 2 or seat in self.resigned or not self.absent(1 - seat):
            raise TableError("cannot_claim", "only with two players, while your opponent is absent")
        return Ends("claimed", claimed_by=seat)

    def close(self, resigning: int) -> Ends:
        """An operator ends the game, ``resigning`` resigned (every other seat wins)."""
        if not 0 <= resigning < self.players:
            raise TableError("not_seated", f"the table has no seat {resigning}")
        if resigning not in self.resigned:
            self.resigned.append(resigning)
        return Ends("resigned")

    def finished(self, now: float) -> None:
        """The game ended ``now``: the clock stops."""
        if self.clock is not None:
            self.clock.stop(now)

    def dismiss(self) -> list[S]:
        """The stand-ins to stop once the end is told: none plays a seat any more."""
        stand_ins = list(self.stand_ins.values())
        self.stand_ins.clear()
        return stand_ins

    def restore(
        self,
        life: TableLife,
        people: Collection[int],
        now: float,
        *,
        own: list[int] | None = None,
        clock: Clock | None = None,
    ) -> list[TakeOver]:
        """A running game after a restart, as its stored ``life`` says: every person
        away from ``now`` (the grace period runs), ``own`` takes (a rated game's) and
        the clock as restored; a stand-in for each seat that resigned."""
        self.resigned = list(life.resigned)
        self.replaced = set(life.replaced)
        self.timed_out = set(life.timed_out)
        self.computer, self.expired = list(life.computer), list(life.expired)
        if own is not None:
            self.own = own
        self.clock = clock
        for seat in people:
            if seat not in self.resigned:
                self.absent_since[seat] = now
        return [TakeOver(seat) for seat in range(self.players) if seat in self.resigned]
