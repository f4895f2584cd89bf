"""Computer opponents that play over exactly the views people get (docs/BOTS.md).

Create one bot per seat with ``make_bot(level_or_kind, seat, seed=...)``, then feed it
``bot.observe(events, view)`` after every batch of public events and ask
``bot.decide(view)`` for a ``Take`` when the seat is to move::

    >>> from shared.bots import make_bot, play
    >>> from shared.options import Options
    >>> bots = [make_bot("easy", 0, seed=1), make_bot("greedy", 1, seed=2)]
    >>> play(Options(seed=7), bots).over
    True

Levels, for people: ``easy`` (greedy, forgets most kettle cards, now and then a random
take), ``medium`` (short search, remembers only the last few cards of each kettle),
``hard`` (search with perfect memory). Kinds, for benchmarks: ``random``, ``greedy``,
``search``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .base import BaseBot, Bot, legal_takes
from .greedy import GreedyBot, RandomBot
from .match import play
from .memory import PERFECT, Memory, Recall
from .search import SearchBot

__all__ = [
    "KINDS",
    "LEVELS",
    "PERFECT",
    "BaseBot",
    "Bot",
    "GreedyBot",
    "Memory",
    "RandomBot",
    "Recall",
    "SearchBot",
    "legal_takes",
    "make_bot",
    "play",
]

LEVELS: dict[str, str] = {
    "easy": "greedy one take ahead; remembers its own last 3 kettle cards and only the "
    "other tops; a random take one time in five",
    "medium": "search, about 0.1 s a move; remembers the last 6 cards of its own kettle "
    "and the last 3 of the others, and the cards exploded under the deck",
    "hard": "search, about 0.5 s a move, with perfect memory",
}
KINDS = ("random", "greedy", "search")

EASY_RECALL = Recall(own=3, others=0, deck=False)
MEDIUM_RECALL = Recall(own=6, others=3, deck=True)


def make_bot(
    name: str,
    seat: int,
    *,
    seed: int | None = None,
    budget: float | None = None,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> BaseBot:
    """A bot for ``seat``: a level (``easy``, ``medium``, ``hard``) or a kind (``random``,
    ``greedy``, ``search``). ``budget`` (seconds) or ``iterations`` bound a search bot's
    work per decision; ``seed`` fixes its choices (None: fresh randomness)."""
    if name == "random":
        return RandomBot(seat, seed=seed)
    if name == "greedy":
        return GreedyBot(seat, seed=seed)
    if name == "easy":
        return GreedyBot(seat, seed=seed, recall=EASY_RECALL, blunder=0.2)
    defaults = {"search": (0.2, PERFECT), "medium": (0.1, MEDIUM_RECALL), "hard": (0.5, PERFECT)}
    if name not in defaults:
        raise ValueError(f"unknown bot {name!r}: one of {', '.join([*LEVELS, *KINDS])}")
    default_budget, recall = defaults[name]
    return SearchBot(
        seat,
        seed=seed,
        recall=recall,
        budget=default_budget if budget is None else budget,
        iterations=iterations,
        clock=clock,
    )
