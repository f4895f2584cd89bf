"""The public events of a game (``events`` and ``update`` messages), tagged by ``kind``.

They mirror ``shared.events`` field for field; every seat and spectator receives the
same events, so none of them carries a secret.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from shared.events import ExplodedTo

from .base import Tagged, by_tag
from .view import Score

__all__ = [
    "EVENT_MODELS",
    "DiscardedEvent",
    "ExplodedEvent",
    "ExtraTurnEvent",
    "GameEvent",
    "GameOverEvent",
    "MovedEvent",
    "PassedCornerEvent",
    "RefilledEvent",
    "TimedOutEvent",
    "TookEvent",
    "TurnPassedEvent",
]


class MovedEvent(Tagged):
    """A pawn moved clockwise (forced: movement is not an action)."""

    kind: Literal["moved"] = "moved"
    seat: int
    from_space: int
    to_space: int
    skipped: tuple[int, ...]
    """Occupied spaces passed over, not counted."""


class PassedCornerEvent(Tagged):
    """The pawn stopped next to a corner: the turn ends with nothing taken."""

    kind: Literal["passed_corner"] = "passed_corner"
    seat: int
    space: int


class TookEvent(Tagged):
    """A card was taken from the grid."""

    kind: Literal["took"] = "took"
    seat: int
    card: str
    line: str
    row: int
    col: int
    special: bool
    """Whether the card's symbol was used."""
    ends_game: bool


class ExplodedEvent(Tagged):
    """An exploding kettle sent ``target``'s top kettle card away."""

    kind: Literal["exploded"] = "exploded"
    seat: int
    """The seat that exploded."""
    target: int
    """The seat whose top kettle card went."""
    card: str
    to: ExplodedTo
    """``deck`` (under it) or ``removed`` (the deck was empty: out of the game, listed
    in ``view.removed``)."""


class ExtraTurnEvent(Tagged):
    """A wand: ``seat`` plays again at once."""

    kind: Literal["extra_turn"] = "extra_turn"
    seat: int


class RefilledEvent(Tagged):
    """The deck's top card filled the slot at ``row``, ``col``."""

    kind: Literal["refilled"] = "refilled"
    row: int
    col: int
    card: str
    """The deck's top card, now in the slot just emptied."""


class DiscardedEvent(Tagged):
    """The game-ending card was discarded instead of kept."""

    kind: Literal["discarded"] = "discarded"
    seat: int
    card: str


class TurnPassedEvent(Tagged):
    """It is now ``seat``'s turn."""

    kind: Literal["turn_passed"] = "turn_passed"
    seat: int
    """The seat whose turn it now is."""


class TimedOutEvent(Tagged):
    """1.1: ``seat``'s time ran out; a computer player made its move (the events that
    follow)."""

    kind: Literal["timed_out"] = "timed_out"
    seat: int


class GameOverEvent(Tagged):
    """The game ended: every kettle and recipe revealed with the scores."""

    kind: Literal["game_over"] = "game_over"
    ended_by: int
    """The seat that took the last card."""
    winners: tuple[int, ...]
    """The seats that won, as ``view.winners`` (a seat that resigned cannot win)."""
    scores: tuple[Score, ...]


GameEvent = Annotated[
    MovedEvent
    | PassedCornerEvent
    | TookEvent
    | ExplodedEvent
    | ExtraTurnEvent
    | RefilledEvent
    | DiscardedEvent
    | TurnPassedEvent
    | GameOverEvent
    | TimedOutEvent,
    Field(discriminator="kind"),
]

EVENT_MODELS: dict[str, type[BaseModel]] = by_tag(GameEvent, "kind")
"""Event models by ``kind``."""
