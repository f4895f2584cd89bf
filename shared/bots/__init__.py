"""Computer opponents that play over exactly the views people get (docs/BOTS.md).

Create one bot per seat with ``make_bot(level_or_kind, seat, seed=...)``, then feed it
``bot.observe(events, view)`` after every batch of public events and ask
``bot.decide(view)`` for a ``Take`` when the seat is to move::

    >>> from shared.bots import make_bot, play
    >>> from shared.options import Options
    >>> bots = [make_bot("easy", 0, seed=1), make_bot("greedy", 1, seed=2)]
    >>> play(Options(seed=7), bots).over
    True

Levels, for people (``LADDER``, weakest first, each with a lobby title and description):
``beginner``, ``easy`` and ``medium`` play greedily one take ahead with more and more
memory and fewer careless takes; ``hard`` and ``expert`` search with information-set
Monte Carlo tree search (``ismcts.py``) over a fixed number of iterations per move.
Kinds, for benchmarks: ``random``, ``greedy`` (perfect memory) and ``search`` (the flat
Monte Carlo search the levels used to be, 0.2 s a move).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..events import Event
from ..game import Take
from ..view import View
from .base import BaseBot, Bot, legal_takes
from .greedy import GreedyBot, RandomBot
from .ismcts import IsmctsBot
from .match import play
from .memory import PERFECT, Memory, Recall
from .search import SearchBot

__all__ = [
    "KINDS",
    "LADDER",
    "LEVELS",
    "PERFECT",
    "BaseBot",
    "Bot",
    "GreedyBot",
    "IsmctsBot",
    "Level",
    "Memory",
    "RandomBot",
    "Recall",
    "SearchBot",
    "legal_takes",
    "make_bot",
    "play",
    "think",
]


@dataclass(frozen=True, slots=True)
class Level:
    """A level of the ladder: its lobby ``title`` and ``description``, what it
    remembers and how it plays (``kind``: greedy or ismcts; ``blunder``: chance of a
    random take; ``iterations``: search iterations per decision)."""

    name: str
    title: str
    description: str
    kind: str
    recall: Recall
    blunder: float = 0.0
    iterations: int = 0


LADDER: tuple[Level, ...] = (
    Level(
        "beginner",
        "Beginner",
        "Takes what looks good for its kettle right now half the time and any card the "
        "other half, and remembers nothing under the kettle tops. For learning the rules.",
        "greedy",
        Recall(own=1, others=0, deck=False),
        blunder=0.5,
    ),
    Level(
        "easy",
        "Easy",
        "Takes the best card for its kettle, one time in five carelessly; remembers its own "
        "last 3 cards and only the tops of the other kettles. For a first game.",
        "greedy",
        Recall(own=3, others=0, deck=False),
        blunder=0.2,
    ),
    Level(
        "medium",
        "Medium",
        "Weighs every take by the scores, explosions included, and where its pawn goes "
        "next; remembers its own last 8 cards, the others' last 4 and the cards exploded "
        "under the deck.",
        "greedy",
        Recall(own=8, others=4, deck=True),
    ),
    Level(
        "hard",
        "Hard",
        "Looks a few takes ahead, for the others too, over a hundred possible futures a "
        "move; remembers its whole kettle and the others' last 8 cards.",
        "ismcts",
        Recall(own=None, others=8, deck=True),
        iterations=100,
    ),
    Level(
        "expert",
        "Expert",
        "Searches hundreds of possible futures a move and remembers every card played. "
        "Hard to beat.",
        "ismcts",
        PERFECT,
        iterations=400,
    ),
)
LEVELS: dict[str, str] = {lv.name: lv.description for lv in LADDER}
"""Each level's lobby description, weakest first."""
KINDS = ("random", "greedy", "search")
"""Bots for benchmarks: uniform, greedy with perfect memory, flat Monte Carlo search."""
_BY_NAME = {lv.name: lv for lv in LADDER}


def make_bot(
    name: str,
    seat: int,
    *,
    seed: int | None = None,
    budget: float | None = None,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> BaseBot:
    """A bot for ``seat``: a level of ``LADDER`` or a kind of ``KINDS``. A searching
    bot's work per decision is the level's iteration budget, or ``iterations`` if
    given, or ``budget`` seconds if given (a time budget, for benchmarks: strength then
    depends on the machine). ``seed`` fixes its choices (None: fresh randomness)."""
    if name == "random":
        return RandomBot(seat, seed=seed)
    if name == "greedy":
        return GreedyBot(seat, seed=seed)
    seconds = 0.2 if budget is None else budget
    if name == "search":
        return SearchBot(seat, seed=seed, iterations=iterations, budget=seconds, clock=clock)
    level = _BY_NAME.get(name)
    if level is None:
        raise ValueError(f"unknown bot {name!r}: one of {', '.join([*LEVELS, *KINDS])}")
    if level.kind == "greedy":
        return GreedyBot(seat, seed=seed, recall=level.recall, blunder=level.blunder)
    if iterations is None and budget is None:
        iterations = level.iterations
    return IsmctsBot(
        seat,
        seed=seed,
        recall=level.recall,
        iterations=iterations,
        budget=seconds,
        clock=clock,
    )


def think(
    name: str,
    view: View,
    events: Sequence[Event] = (),
    *,
    seed: int,
    budget: float | None = None,
    iterations: int | None = None,
) -> Take:
    """One decision from scratch, for a host that keeps no bot between moves (say, in a
    worker process): a fresh bot of ``name`` for the view's seat is told ``events``, the
    game's public events so far in order, then decides in ``view``. It remembers what
    its level would of that history, except the start cards no event names. With an
    iteration budget (every level's default) the same arguments give the same take."""
    if view.seat is None:
        raise ValueError("a spectator's view: a bot needs a seat's")
    bot = make_bot(name, view.seat, seed=seed, budget=budget, iterations=iterations)
    bot.observe(events, view)
    return bot.decide(view)
