"""Protocol 1.5: the expert's analysis of a finished game, and hints during one.

Why: after a game a person can step through it take by take; the analysis says, for
every decision of every seat, which take the expert would have made and what the take
made cost in expected final points, weighed only from what that seat knew then
(docs/BOTS.md, "Analysis"). ``analyse_game`` asks for it by the table's id, as
``get_record`` asks for the record, and is refused as ``get_record`` is; ``analysis``
answers with plain numbers and the takes as a record writes them, so a client needs
no engine to show it beside its replay of the record.
"""

from __future__ import annotations

from typing import Literal

from .base import Model
from .envelope import ClientMsg as _ClientMsg
from .envelope import ServerMsg as _ServerMsg
from .fields import TableId
from .players import RecordActionInfo

__all__ = [
    "AnalyseGameMsg",
    "AnalysisMsg",
    "AskHintMsg",
    "DecisionInfo",
    "HintMsg",
    "Mark",
    "SeatAnalysis",
    "Thresholds",
]

Mark = Literal["inaccuracy", "mistake", "blunder"]
"""A decision's mark by its loss (``Thresholds``)."""


class AnalyseGameMsg(_ClientMsg):
    """1.5: the analysis of a finished game (answered by ``analysis``), by the id
    ``get_record`` takes. Refused exactly as ``get_record`` is (``no_such_game`` for a
    game that is not finished, or private and not yours). The first request of a game
    makes the analysis (costly: see "Costs"), later ones are answered from the store."""

    type: Literal["analyse_game"] = "analyse_game"
    table: TableId


class Thresholds(Model):
    """1.5: the least loss (in points) of each mark."""

    inaccuracy: float
    mistake: float
    blunder: float


class DecisionInfo(Model):
    """1.5: one decision of a seat, weighed from what that seat knew then."""

    ply: int
    """The index of the record's action this decision made (0: the first take)."""
    seat: int
    take: RecordActionInfo
    """The take made, as the record writes it."""
    best: RecordActionInfo
    """The expert's choice (the take made itself when it was the best)."""
    loss: float
    """Expected final points (of margin over the best other seat) the take made cost
    against the expert's choice; 0 when it was the expert's choice."""
    noise: float = 0.0
    """The loss's standard error over the sampled deals."""
    mark: Mark | None = None
    """Absent: a loss below every threshold."""
    value: float = 0.0
    """The expected final margin after the take made: the graph's point."""
    points: float = 0.0
    """The expected own final total after the take made."""


class SeatAnalysis(Model):
    """1.5: one seat's summary over its decisions."""

    seat: int
    decisions: int
    lost: float
    """Points lost in all (the sum of the losses)."""
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    best: int | None = None
    """The ``ply`` of the seat's best decision (its take most clearly better than every
    other); absent if none was."""
    worst: int | None = None
    """The ``ply`` of its costliest decision; absent if nothing was lost."""
    final: int | None = None
    """The margin the game ended with for this seat."""
    series: tuple[tuple[int, float], ...] = ()
    """``[ply, value]`` after each of the seat's decisions: its expected final margin
    over the game, for a graph."""


class AnalysisMsg(_ServerMsg):
    """1.5: the answer to ``analyse_game``: every seat's decisions, in the order made."""

    type: Literal["analysis"] = "analysis"
    table: str
    budget: int
    """Sampled deals each decision was weighed over."""
    thresholds: Thresholds
    decisions: tuple[DecisionInfo, ...] = ()
    seats: tuple[SeatAnalysis, ...] = ()


class AskHintMsg(_ClientMsg):
    """1.5, seated, on your turn at a table whose options allow ``hints``: the expert's
    suggestion for your decision, weighed only from what your seat knows (answered by
    ``hint``). Refused with ``not_allowed`` (``detail`` ``hints``) where the table's
    options do not allow hints, ``not_your_turn`` on another seat's turn."""

    type: Literal["ask_hint"] = "ask_hint"


class HintMsg(_ServerMsg):
    """1.5: the answer to ``ask_hint``: the take the expert suggests in state
    ``state_version`` (a take of that view's ``takes``), and what it expects of it."""

    type: Literal["hint"] = "hint"
    state_version: int
    take: RecordActionInfo
    """The suggested take, as a record writes it (``card`` is its ``take``)."""
    value: float = 0.0
    """The expected final margin after it (own total minus the best other total)."""
    points: float = 0.0
    """The expected own final total after it."""
    budget: int = 0
    """Sampled deals it was weighed over."""
