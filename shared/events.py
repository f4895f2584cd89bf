"""Public events: what everyone at the table sees happen (RULES.md section 9).

The engine appends these to a list when asked (``Game.apply(..., events=list)``). They
carry only public facts, so the server may send them to every seat and spectator.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal, get_args

from .frozen import quick

__all__ = [
    "EXPLODED_TO",
    "Discarded",
    "Event",
    "Exploded",
    "ExplodedTo",
    "ExtraTurn",
    "GameOver",
    "Moved",
    "PassedCorner",
    "Refilled",
    "TimedOut",
    "Took",
    "TurnPassed",
]

ExplodedTo = Literal["deck", "removed"]
"""Where an exploded card went: under the deck, or out of the game (empty deck)."""
EXPLODED_TO: tuple[ExplodedTo, ...] = get_args(ExplodedTo)


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["kind"] = self.kind
        return d


@quick
@dataclass(frozen=True, slots=True)
class Moved(Event):
    """A pawn moved clockwise; ``skipped`` lists occupied spaces passed over uncounted."""

    kind: ClassVar[str] = "moved"
    seat: int
    from_space: int
    to_space: int
    skipped: tuple[int, ...]


@quick
@dataclass(frozen=True, slots=True)
class PassedCorner(Event):
    """The pawn stopped next to a corner: the turn ends with nothing taken (section 4.2)."""

    kind: ClassVar[str] = "passed_corner"
    seat: int
    space: int


@quick
@dataclass(frozen=True, slots=True)
class Took(Event):
    """A card was taken from the grid. ``special`` says whether its symbol was used."""

    kind: ClassVar[str] = "took"
    seat: int
    card: str
    line: str
    row: int
    col: int
    special: bool
    ends_game: bool


@quick
@dataclass(frozen=True, slots=True)
class Exploded(Event):
    """``target``'s top kettle card went under the deck (``to="deck"``) or, the deck
    being empty, out of the game (``to="removed"``, listed in ``View.removed``)."""

    kind: ClassVar[str] = "exploded"
    seat: int
    target: int
    card: str
    to: ExplodedTo


@quick
@dataclass(frozen=True, slots=True)
class ExtraTurn(Event):
    kind: ClassVar[str] = "extra_turn"
    seat: int


@quick
@dataclass(frozen=True, slots=True)
class Refilled(Event):
    """The deck's top card filled the slot just emptied."""

    kind: ClassVar[str] = "refilled"
    row: int
    col: int
    card: str


@quick
@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """The game-ending card was discarded instead of kept (section 5)."""

    kind: ClassVar[str] = "discarded"
    seat: int
    card: str


@quick
@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """It is now ``seat``'s turn."""

    kind: ClassVar[str] = "turn_passed"
    seat: int


@quick
@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat``'s time ran out: a computer player made its move (the events that follow).
    A table's event, not the engine's: the server adds it (section 12.5)."""

    kind: ClassVar[str] = "timed_out"
    seat: int


@quick
@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended; ``scores`` is the full public breakdown (``scoring.Score.to_dict``)."""

    kind: ClassVar[str] = "game_over"
    ended_by: int
    winners: tuple[int, ...]
    scores: tuple[dict[str, Any], ...]
