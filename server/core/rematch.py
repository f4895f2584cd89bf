"""A rematch vote (RULES.md section 12.6): after a game ends, every person seated asks
for another, and the host starts it.

``Rematches`` is that part of ``Table``, in a module of its own; its methods name what
they use of the table in ``Voting``.
"""

from __future__ import annotations

from typing import Any, Protocol

from shared.result import GameResult

from .errors import TableError
from .roles import TableHost

__all__ = ["Rematches", "Voting"]

FINISHED = "finished"


class Voting(Protocol):
    """What ``Rematches`` uses of its table (``Table`` has it all)."""

    state: str
    result: GameResult | None
    rematch_votes: set[int]

    @property
    def host(self) -> TableHost[Any]: ...

    @property
    def seats(self) -> list[Any]: ...

    def seat_of(self, occupant: Any) -> int | None: ...

    def broadcast_presence(self) -> None: ...


class Rematches:
    """Rematch votes: mixed into ``Table``."""

    async def vote_rematch(self: Voting, occupant: Any, yes: bool) -> None:
        """Ask for (or withdraw) a rematch; when every person seated asks, it starts."""
        seat = self.seat_of(occupant)
        if seat is None:
            raise TableError("not_seated", "only a seated player can ask for a rematch")
        if self.state != FINISHED or self.result is None:
            raise TableError("not_finished", "a rematch follows a game that has ended")
        if yes and any(getattr(s.occupant, "minor", 1) < 1 for s in self.seats if s.person):
            raise TableError(  # it needs every person's vote, and 1.0 has no rematch
                "not_allowed",
                "a player here speaks protocol 1.0, which has no rematch",
                "protocol_1_0",
            )
        if yes:
            self.rematch_votes.add(seat)
        else:
            self.rematch_votes.discard(seat)
        self.broadcast_presence()
        people = {s.index for s in self.seats if s.person}
        if people <= self.rematch_votes:
            self.rematch_votes.clear()
            await self.host.rematch(self)
