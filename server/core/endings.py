"""How a table's game ends before or at its last take: resignation, a claim, a person
taking the seat back from a computer player, time-outs, abandonment (RULES.md
section 12).

``Endings`` is that part of ``Table``, in a module of its own. Every ending is stored
before anyone hears of it (``_store_end``), carries a result (``shared.result.judge``)
and reaches every seat and spectator as a final view. Its methods name what they use
of the table in ``Ending``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from shared.clock import Clock
from shared.game import Game
from shared.options import Options
from shared.record import Record
from shared.result import GameResult, judge
from shared.view import View

from ..store import Store
from .aio import later
from .errors import TableError
from .roles import Occupant, StandIn, TableHost

__all__ = ["Ending", "Endings"]

log = logging.getLogger("kupferkessel.table")

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"


class Ending(Protocol):
    """What ``Endings`` uses of its table (``Table`` has it all)."""

    id: str
    store: Store
    options: Options
    state: str
    version: int
    game: Game | None
    record: Record | None
    result: GameResult | None
    clock: Clock | None
    lock: asyncio.Lock
    resigned: list[int]
    replaced: set[int]
    timed_out: set[int]
    finished_at: float | None
    finish_reason: str | None
    stand_ins: dict[int, StandIn[Any]]
    now: Callable[[], float]

    @property
    def host(self) -> TableHost[Any]: ...

    @property
    def seats(self) -> list[Any]: ...

    def epoch_held(self) -> int | None: ...

    def durable(self, write: Awaitable[None]) -> Awaitable[None]: ...

    def occupants(self) -> Sequence[tuple[int | None, Occupant[Any]]]: ...

    def seat_of(self, occupant: Any) -> int | None: ...

    def absent(self, seat: int) -> bool: ...

    def broadcast_presence(self) -> None: ...

    def send_view_to(self, occupant: Occupant[Any], seat: int | None = None) -> None: ...

    def _views(self, seats: Sequence[int | None]) -> dict[int | None, View]: ...

    def save_life(self) -> Awaitable[None]: ...

    def _take_over(self, seat: int) -> None: ...

    def _back(self, seat: int) -> None: ...

    def _judge(self, ending: str, claimed_by: int | None = None) -> GameResult: ...

    def _end_early(self, result: GameResult) -> Awaitable[None]: ...

    def finish(
        self, ending: str, *, only_if: Callable[[Any], bool] | None = None
    ) -> Awaitable[bool]: ...

    def _store_end(
        self, result: GameResult | None, ending: str | None = None, *, epoch: int | None
    ) -> Awaitable[None]: ...

    def _announce_end(self, seat: int | None) -> None: ...

    def close(self, resigning: int | None = None) -> Awaitable[bool]: ...


class Endings:
    """Resigning, claiming, coming back, finishing: mixed into ``Table``."""

    finished_at: float | None  # set here at the end (``Table`` starts it as None)

    def _judge(self: Ending, ending: str, claimed_by: int | None = None) -> GameResult:
        assert self.game is not None
        return judge(
            self.game,
            ending,
            resigned=self.resigned,
            replaced=self.replaced,
            timed_out=self.timed_out,
            claimed_by=claimed_by,
        )

    async def resign(self: Ending, occupant: Occupant[Any]) -> None:
        """Resign (RULES.md section 12.1): with two players, or when nobody but
        computer players would be left, the game ends and the others win; otherwise a
        computer player plays the seat to the end and it ranks last."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can resign")
        async with self.lock:
            if self.state == FINISHED:
                raise TableError("game_over", "the game is over")
            if self.state != PLAYING or self.game is None:
                raise TableError("not_started", "there is no game running to resign")
            if seat in self.resigned:
                raise TableError("not_allowed", "you have already resigned")
            self.resigned.append(seat)
            playing = [s for s in self.seats if s.index not in self.resigned]
            if len(playing) <= 1 or not any(s.person for s in playing):
                await self._end_early(self._judge("resigned"))
                return
            await self.save_life()  # the resignation is durable before it is heard of
            self._take_over(seat)
        self.broadcast_presence()

    async def claim(self: Ending, occupant: Occupant[Any]) -> None:
        """With two players, end the game and win while the opponent is absent."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can claim")
        async with self.lock:
            if self.state != PLAYING or self.game is None:
                code = "game_over" if self.state == FINISHED else "not_started"
                raise TableError(code, "there is no game running to claim")
            other = 1 - seat
            if self.options.players != 2 or seat in self.resigned or not self.absent(other):
                raise TableError(
                    "cannot_claim", "only with two players, while your opponent is absent"
                )
            await self._end_early(self._judge("claimed", claimed_by=seat))

    async def back(self: Ending, occupant: Occupant[Any]) -> None:
        """The person takes its seat back from the computer player standing in."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can come back")
        if self.state != PLAYING:
            code = "game_over" if self.state == FINISHED else "not_started"
            raise TableError(code, "there is no game running")
        if not self.absent(seat):
            raise TableError("not_allowed", "no computer player plays your seat")
        self._back(seat)
        self.send_view_to(occupant)  # now with the takes, if the seat is to move
        self.broadcast_presence()

    async def finish(
        self: Ending, ending: str, *, only_if: Callable[[Any], bool] | None = None
    ) -> bool:
        """End the table (``played_out`` for a game whose last take was made,
        ``abandoned``): stored first, then announced. Runs under the table's lock, where
        ``only_if`` (if given) must still hold; returns whether the table ended."""
        async with self.lock:
            if self.state == FINISHED or (only_if is not None and not only_if(self)):
                return False
            if self.game is None:  # abandoned before its game started: no result
                await self._store_end(None, ending, epoch=self.epoch_held())
                self._announce_end(None)
            elif self.game.over:
                await self._store_end(self._judge("played_out"), epoch=self.epoch_held())
                self._announce_end(None)
            else:
                await self._end_early(self._judge(ending))
        return True

    async def close(self: Ending, resigning: int | None = None) -> bool:
        """An operator ends the table now (``kupferkessel admin close``): with
        ``resigning``, that seat resigns and every other seat wins (``resigned``);
        without, it ends as ``abandoned`` (nobody wins; a table in the lobby just
        closes). Stored first, then announced, as every ending; False if it had ended."""
        if resigning is None:
            return await self.finish("abandoned")
        async with self.lock:
            if self.state == FINISHED:
                return False
            if self.state != PLAYING or self.game is None:
                raise TableError("not_started", "no game runs there: close it without a seat")
            if not 0 <= resigning < self.options.players:
                raise TableError("not_seated", f"the table has no seat {resigning}")
            if resigning not in self.resigned:
                self.resigned.append(resigning)
            await self._end_early(self._judge("resigned"))
        return True

    async def end_by_operator(self: Ending, resigning: int | None = None) -> tuple[str, list[int]]:
        """``close`` for the operator's ``admin close``, here or from another node of a
        cluster: how the table ended and its winners; refused ``game_over`` if it had
        ended already."""
        if not await self.close(resigning):
            raise TableError("game_over", f"table {self.id} had ended already")
        winners = [] if self.result is None else list(self.result.winners)
        return self.finish_reason or "abandoned", winners

    async def _end_early(self: Ending, result: GameResult) -> None:
        """End a game before its last take (the lock held): stored, then everyone gets
        the final view with the result, then presence."""
        await self._store_end(result, epoch=self.epoch_held())
        made = self._views([seat for seat, _ in self.occupants()])
        for seat, occ in self.occupants():
            occ.deliver_result(self, made[seat], self.version)
        self._announce_end(result.resigned[-1] if result.ending == "resigned" else None)

    async def _store_end(
        self: Ending,
        result: GameResult | None,
        ending: str | None = None,
        *,
        epoch: int | None,
    ) -> None:
        """Store the end (the lock held) under ``epoch``, then mark the table finished."""
        await self.durable(
            self.store.finish(self.id, None if result is None else result.to_dict(), epoch=epoch)
        )
        self.state = FINISHED
        self.result = result
        if self.record is not None:
            self.record.result = result
        if self.clock is not None:
            self.clock.stop(self.now())
        self.finished_at = self.now()
        self.finish_reason = result.ending if result is not None else ending
        log.info("game finished", extra={"table": self.id, "reason": self.finish_reason})
        self.host.finished(self)
        self.host.changed(self)

    def _announce_end(self: Ending, seat: int | None) -> None:
        reason = self.finish_reason or "played_out"
        for _, occ in self.occupants():
            occ.deliver_finished(self, reason, seat)
        for stand_in in list(self.stand_ins.values()):
            later(stand_in.stop())
        self.stand_ins.clear()
