"""A table's time: people away past the grace period, the computer players standing
in for them, and the clocks of a clocked game (RULES.md section 12, docs/PROTOCOL.md
"A table's whole life").

``Timekeeping`` is the part of ``Table`` that keeps them, in a module of its own: the
lobby calls ``tick`` with the current time; a seat whose person is disconnected longer
than the grace period is played by a computer player (a *stand-in*) until the person
resumes, and on a clocked table a move whose time ran out is made by a computer player
(``EXPIRY_BOT``). Its methods name what they use of the table in ``Clocked``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from shared.bots import make_bot
from shared.clock import Clock, TimeRules
from shared.events import Event, TimedOut
from shared.game import Game, Take
from shared.result import GameResult
from shared.view import View

from ..store import Store
from .aio import later
from .life import TableLife
from .roles import StandIn, TableHost

__all__ = ["EXPIRY_BOT", "Clocked", "Timekeeping"]

log = logging.getLogger("kupferkessel.table")

PLAYING = "playing"
EXPIRY_BOT = "easy"
"""The computer player that makes a move whose time ran out: quick and sound."""


class _Seat(Protocol):
    @property
    def person(self) -> bool: ...


class Clocked(Protocol):
    """What ``Timekeeping`` uses of its table (``Table`` has it all)."""

    id: str
    store: Store
    state: str
    version: int
    game: Game | None
    timing: TimeRules
    clock: Clock | None
    lock: asyncio.Lock
    resigned: list[int]
    replaced: set[int]
    timed_out: set[int]
    expiries: list[int]
    own: list[int]
    rated: bool
    absent_since: dict[int, float]
    stand_ins: dict[int, StandIn[Any]]
    now: Callable[[], float]

    @property
    def host(self) -> TableHost[Any]: ...

    @property
    def seats(self) -> list[Any]: ...

    def epoch_held(self) -> int | None: ...

    def durable(self, write: Awaitable[None]) -> Awaitable[None]: ...

    def broadcast_presence(self) -> None: ...

    def view_for(self, seat: int | None) -> View: ...

    def send_view_to(self, occupant: Any, seat: int | None = None) -> None: ...

    def _apply_locked(self, seat: int, take: Take, events: list[Event]) -> Awaitable[None]: ...

    def _end_early(self, result: GameResult) -> Awaitable[None]: ...

    def _judge(self, ending: str, claimed_by: int | None = None) -> GameResult: ...

    def life(self, clock: Clock | None = None) -> dict[str, Any] | None: ...

    def save_life(self) -> Awaitable[None]: ...

    def _take_over(self, seat: int) -> None: ...

    def _due_changed(self) -> None: ...

    def _expire(self, version: int) -> Awaitable[None]: ...


class Timekeeping:
    """Absence, stand-ins and clocks: mixed into ``Table``."""

    def _went_away(self: Clocked, seat: int) -> None:
        """A person's connection left its seat during the game: the grace period runs."""
        if self.state == PLAYING and self.seats[seat].person:
            self.absent_since.setdefault(seat, self.now())
            self._due_changed()

    def life(self: Clocked, clock: Clock | None = None) -> dict[str, Any] | None:
        """What the store keeps of the game beyond its record (``TableLife``, in its
        stored form; None while there is nothing): resignations, stand-ins, time-outs,
        the clock, the server that runs it and, at a rated table, each person's takes."""
        clock = clock or self.clock
        if clock is None and not (self.resigned or self.replaced or self.timed_out or self.rated):
            return None
        return TableLife(
            tuple(self.resigned),
            tuple(self.replaced),
            tuple(self.timed_out),
            None if clock is None else clock.to_dict(),
            self.store.server_id,
            tuple(self.own),
        ).to_dict()

    async def save_life(self: Clocked) -> None:
        """Store ``life()`` now (a running game's)."""
        life = self.life()
        if life is not None and self.state == PLAYING:
            await self.durable(self.store.save_life(self.id, life, epoch=self.epoch_held()))

    def _take_over(self: Clocked, seat: int) -> None:
        """A computer player plays ``seat`` from now on (until its person is back)."""
        if seat in self.stand_ins:
            return
        stand_in = self.host.stand_in(self, seat)
        if stand_in is None:
            return
        self.replaced.add(seat)
        self.stand_ins[seat] = stand_in
        person = self.seats[seat].occupant
        game = self.game
        to_move = game is not None and not game.over and game.to_move == seat
        # 1.1 only: 1.0 knows no takes, so nothing is taken back from it
        if person is not None and to_move and getattr(person, "minor", 1) >= 1:
            self.send_view_to(person)  # the same state, its takes gone

    def _may_take(self: Clocked, seat: int | None) -> bool:
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

    def _plays(self: Clocked, seat: int, by: object) -> bool:
        """Whether the computer player ``by`` still plays ``seat`` (as its stand-in or
        as the bot seated there). A stand-in decides its move away from the table's
        lock: by the time the move arrives its person may be back, or a newer stand-in
        may play the seat, and the move is then no one's to make (logged, dropped)."""
        if self.stand_ins.get(seat) is by or self.seats[seat].occupant is by:
            return True
        log.debug(
            "a computer player's take dropped: it no longer plays the seat",
            extra={"table": self.id, "seat": seat},
        )
        return False

    def _back(self: Clocked, seat: int) -> None:
        """The person of ``seat`` is back: no more stand-in, the time-outs forgiven."""
        self.absent_since.pop(seat, None)
        self.expiries[seat] = 0
        if seat in self.resigned:
            return
        stand_in = self.stand_ins.pop(seat, None)
        if stand_in is not None:
            later(stand_in.stop())

    async def tick(self: Clocked, now: float | None = None) -> None:
        """Whatever is due by ``now``: stand-ins for seats absent past the grace period,
        and the move of a seat whose time ran out."""
        now = self.now() if now is None else now
        if self.state != PLAYING:
            return
        changed = False
        for seat, since in list(self.absent_since.items()):
            if now - since >= self.timing.grace and seat not in self.stand_ins:
                self._take_over(seat)
                changed = True
        if changed:
            async with self.lock:
                await self.save_life()
            self.broadcast_presence()
        clock = self.clock
        deadline = None if clock is None else clock.deadline()
        if deadline is not None and now >= deadline:
            await self._expire(self.version)

    def _due_changed(self: Clocked) -> None:
        """Say (``on_due``) that ``next_due`` may have come earlier: called wherever a
        clock starts or a grace period begins. A later or no due time needs no call
        (the lobby finds out when the earlier one comes)."""
        self.host.due_changed(self)

    def next_due(self: Clocked) -> float | None:
        """When ``tick`` next has something to do (None: nothing is pending)."""
        if self.state != PLAYING or (not self.absent_since and self.clock is None):
            return None  # (the second: an unclocked table with everyone here, each take)
        grace = self.timing.grace
        due = [t + grace for s, t in self.absent_since.items() if s not in self.stand_ins]
        if self.clock is not None and (d := self.clock.deadline()) is not None:
            due.append(d)
        return min(due, default=None)

    async def _expire(self: Clocked, version: int) -> None:
        """The running move's time is up: a computer player moves for the seat (the
        ``timed_out`` event says so); after ``absent_after`` in a row the seat counts as
        absent, and once every person's seat is, the game ends as timed out."""
        async with self.lock:
            if self.state != PLAYING or self.version != version or self.game is None:
                return  # someone moved meanwhile
            seat = self.game.to_move
            bot = make_bot(EXPIRY_BOT, seat, seed=secrets.randbits(32))
            take = bot.decide(self.view_for(seat))
            log.info("time out", extra={"table": self.id, "seat": seat})
            self.expiries[seat] += 1
            await self._apply_locked(seat, take, [TimedOut(seat)])
            if self.state != PLAYING:
                return
            person = self.seats[seat].person and seat not in self.resigned
            if not person or self.expiries[seat] < self.timing.absent_after:
                return
            self.timed_out.add(seat)
            self._take_over(seat)
            await self.save_life()
            people = [s.index for s in self.seats if s.person and s.index not in self.resigned]
            if all(self.expiries[s] >= self.timing.absent_after for s in people):
                await self._end_early(self._judge("timed_out"))
                return
        self.broadcast_presence()
