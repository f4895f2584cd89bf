"""The computer players standing in at a table: one started for a person's seat once
its ``Lineup`` says so (away past the grace period, timed out too often, resigned),
stopped once its person is back or the game ends.

``StandIns`` is that I/O beside the lineup's decisions, as a plain object a ``Table``
holds: it is handed the lineup, the seating and the telling, and a ``start`` callable
(the table asks its host for a computer player); it never waits for anything, and a
stand-in's ``stop`` runs on its own (``later``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any, TypeAlias

from shared.bots import make_bot
from shared.game import Take

from ..aio import later
from .lineup import Lineup
from .roles import StandIn as _StandIn
from .seating import Seating
from .telling import Scene, Telling

__all__ = ["EXPIRY_BOT", "StandIns"]

log = logging.getLogger("kupferkessel.table")

StandIn: TypeAlias = "_StandIn[Any]"

EXPIRY_BOT = "easy"
"""The computer player that makes a move whose time ran out: quick and sound."""


class StandIns:
    """Start and stop the computer players of ``lineup`` (see the module docstring);
    ``start(seat)`` gives a started one for ``seat``, or None if there are none."""

    def __init__(
        self,
        lineup: Lineup[Any],
        seating: Seating,
        telling: Telling,
        start: Callable[[int], StandIn | None],
        table_id: str,
    ) -> None:
        self.lineup = lineup
        self.seating = seating
        self.telling = telling
        self.start = start
        self.table_id = table_id

    def take_over(self, scene: Scene, seat: int) -> None:
        """A computer player plays ``seat`` from now on (until its person is back)."""
        if seat in self.lineup.stand_ins:
            return
        stand_in = self.start(seat)
        if stand_in is None:
            return
        self.lineup.stood_in(seat, stand_in)
        person = self.seating.seats[seat].occupant
        game = scene.game
        to_move = game is not None and not game.over and game.to_move == seat
        # 1.1 only: 1.0 knows no takes, so nothing is taken back from it
        if person is not None and to_move and person.minor >= 1:
            self.telling.view_to(scene, person)  # the same state, its takes gone

    def plays(self, seat: int, by: object) -> bool:
        """Whether the computer player ``by`` still plays ``seat`` (as its stand-in or
        as the bot seated there). A stand-in decides its move away from the table's
        lock: by the time the move arrives its person may be back, or a newer stand-in
        may play the seat, and the move is then no one's to make (logged, dropped)."""
        if self.lineup.plays(seat, by) or self.seating.seats[seat].occupant is by:
            return True
        log.debug(
            "a computer player's take dropped: it no longer plays the seat",
            extra={"table": self.table_id, "seat": seat},
        )
        return False

    def expiry_move(self, scene: Scene, seat: int) -> Take:
        """The move a computer player makes for ``seat``, whose time ran out."""
        bot = make_bot(EXPIRY_BOT, seat, seed=secrets.randbits(32))
        return bot.decide(self.telling.view_for(scene, seat))

    def back(self, seat: int) -> None:
        """The person of ``seat`` is back: no more stand-in, the time-outs forgiven."""
        stand_in = self.lineup.back(seat)
        if stand_in is not None:
            later(stand_in.stop())

    def dismiss(self) -> None:
        """The game's end is told: every stand-in stops."""
        for stand_in in self.lineup.dismiss():
            later(stand_in.stop())
