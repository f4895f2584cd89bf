"""How a table's game ends: its end stored, then told (docs/ARCHITECTURE.md, "Durable,
then announce"), and what is known of it since: whether it ended, its result, when
and how.

``Ending`` is that, as a plain object a ``Table`` holds: handed the table's
``Writes``, its ``Lineup`` (which judges the result), ``Telling`` and ``StandIns``,
and ``stored``, what the table does once its end is stored (it tells its host). Each
call runs under the table's lock and is handed the ``Over`` it ends: the table, as
its occupants are told of it, and its record.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from shared.record import Record
from shared.result import GameResult

from .lineup import Ends, Lineup
from .standins import StandIns
from .telling import Scene, Telling
from .writes import Writes

__all__ = ["Ending", "Over"]

log = logging.getLogger("kupferkessel.table")


class Over(Scene, Protocol):
    """A table whose game ends: what its occupants are told of, and its record (its
    result is written into it)."""

    @property
    def record(self) -> Record | None: ...


class Ending:
    """The end of the game of the table of ``writes`` (see the module docstring)."""

    def __init__(
        self,
        writes: Writes,
        lineup: Lineup[Any],
        telling: Telling,
        stand_ins: StandIns,
        now: Callable[[], float],
        stored: Callable[[], None],
        *,
        rated: bool = False,
    ) -> None:
        self.writes = writes
        self.rated = rated
        self.lineup = lineup
        self.telling = telling
        self.stand_ins = stand_ins
        self.now = now
        self.stored = stored
        self.done = False  # the end is stored
        self.result: GameResult | None = None  # None: abandoned before its game started
        self.at: float | None = None
        self.reason: str | None = None  # the result's ending (or abandoned)
        # 1.4: at a finished rated table, each rated seat's rating before (None: its
        # first rated game) and after the game, as shown (``Store.rating_changes``)
        self.ratings: dict[int, tuple[float | None, float]] = {}

    def restored(
        self,
        result: GameResult | None,
        at: float | None,
        ratings: dict[int, tuple[float | None, float]] | None = None,
    ) -> None:
        """A finished table read from the store: it ended ``at``, as ``result`` says,
        changing ``ratings`` (``self.ratings``)."""
        self.done, self.result, self.at = True, result, at
        self.ratings = ratings or {}
        self.reason = result.ending if result is not None else "played_out"
        self.lineup.resigned = list(result.resigned) if result is not None else []

    async def store_end(
        self,
        scene: Over,
        result: GameResult | None,
        ending: str | None = None,
        *,
        epoch: int | None,
    ) -> None:
        """Store the end (``result``; None: ``ending`` without a game) under ``epoch``,
        then mark the game ended; ``stored`` follows."""
        await self.writes.finish(None if result is None else result.to_dict(), epoch=epoch)
        self.done = True
        self.result = result
        if self.rated:  # rated once ``finish`` was durable (``Store.when_finished``)
            self.ratings = self.writes.rating_shown()
        if scene.record is not None:
            scene.record.result = result
        self.lineup.finished(self.now())
        self.at = self.now()
        self.reason = result.ending if result is not None else ending
        log.info("game finished", extra={"table": self.writes.table_id, "reason": self.reason})
        self.stored()

    def tell(self, scene: Scene, seat: int | None = None) -> None:
        """The end, told to everyone (``seat``: who resigned); the stand-ins stop."""
        self.telling.finished(scene, self.reason or "played_out", seat)
        self.stand_ins.dismiss()

    async def early(self, scene: Over, ends: Ends) -> None:
        """End a game before its last take as ``ends`` says: stored, then everyone
        gets the final view with the result, then the end."""
        assert scene.game is not None
        result = self.lineup.judge(scene.game, ends.ending, ends.claimed_by)
        await self.store_end(scene, result, epoch=self.writes.epoch_held())
        self.telling.result(scene)
        self.tell(scene, result.resigned[-1] if result.ending == "resigned" else None)

    async def end(self, scene: Over, ending: str) -> None:
        """End the table as ``ending`` now: a game not started ends without a result, a
        played-out one as ``played_out``, any other early (``early``)."""
        if scene.game is None:
            await self.store_end(scene, None, ending, epoch=self.writes.epoch_held())
            self.tell(scene)
        elif scene.game.over:
            result = self.lineup.judge(scene.game, "played_out")
            await self.store_end(scene, result, epoch=self.writes.epoch_held())
            self.tell(scene)
        else:
            await self.early(scene, Ends(ending))
