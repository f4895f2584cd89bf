"""The bot interface: a bot plays one seat over exactly what a person in that seat sees.

A bot is created for a seat. The host (server, arena, test) then calls
``observe(events, view)`` with each batch of public events (``shared.events``) and the
seat's view after them, and ``decide(view)`` whenever the seat is to move; ``decide``
returns a ``Take`` that is legal in that view. A bot never receives the ``Game``: it can
only know what ``view(game, seat)`` and the public events tell it (RULES.md section 9).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Protocol, runtime_checkable

from ..events import Event
from ..game import Take
from ..view import View
from .memory import PERFECT, Memory, Recall

__all__ = ["BaseBot", "Bot", "SearchingBot", "legal_takes"]


@runtime_checkable
class Bot(Protocol):
    """What a host needs from a bot. ``seat`` is the seat it plays (0-based)."""

    seat: int

    def observe(self, events: Sequence[Event], view: View | None = None) -> None:
        """Public events since the last call, in order, and the seat's view after them."""

    def decide(self, view: View) -> Take:
        """The take to make; called only when ``view.to_move == seat``."""


class BaseBot:
    """Keeps the seat's ``Memory`` up to date and its own seeded randomness."""

    kind = "base"

    def __init__(self, seat: int, *, seed: int | None = 0, recall: Recall = PERFECT) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.memory = Memory(seat, recall)

    def observe(self, events: Sequence[Event], view: View | None = None) -> None:
        self.memory.observe(events)
        if view is not None:
            self.memory.sync(view)

    def decide(self, view: View) -> Take:
        if view.seat != self.seat or view.to_move != self.seat:
            raise ValueError(f"seat {self.seat} is not to move in this view")
        self.memory.sync(view)
        return self.choose(view, legal_takes(view))

    def choose(self, view: View, takes: list[Take]) -> Take:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seat={self.seat}>"


class SearchingBot(BaseBot):
    """A bot that searches sampled positions. Its work per decision is ``iterations``
    (deterministic, whatever the machine's load) or, when that is None, ``budget``
    seconds read from the injected ``clock``. ``explore``: the UCB1 constant (default
    ``EXPLORE``); ``epsilon``: how often a playout move is random; ``policy``: the playout
    policy (default ``POLICY``, see ``playout.py``). ``simulations``, ``thinking`` and
    ``searches``: the iterations, clock time and decisions searched so far (a decision
    with one legal take needs no search)."""

    EXPLORE = 0.7
    POLICY = "aware"

    def __init__(
        self,
        seat: int,
        *,
        seed: int | None = 0,
        recall: Recall = PERFECT,
        iterations: int | None = None,
        budget: float = 0.2,
        clock: Callable[[], float] = time.perf_counter,
        explore: float | None = None,
        epsilon: float = 0.1,
        policy: str | None = None,
    ) -> None:
        super().__init__(seat, seed=seed, recall=recall)
        self.iterations = iterations
        self.budget = budget
        self.clock = clock
        self.explore = self.EXPLORE if explore is None else explore
        self.epsilon = epsilon
        self.policy = self.POLICY if policy is None else policy
        self.simulations = 0
        self.thinking = 0.0
        self.searches = 0

    def choose(self, view: View, takes: list[Take]) -> Take:
        if len(takes) == 1:
            return takes[0]
        start = self.clock()
        take = self.search_take(view, takes, start)
        self.searches += 1
        self.thinking += self.clock() - start
        return take

    def more(self, done: int, start: float, least: int = 1) -> bool:
        """Whether to run another iteration, ``done`` of them since ``start``; a time
        budget runs at least ``least`` before it reads the clock."""
        if self.iterations is not None:
            return done < self.iterations
        return done < least or self.clock() - start < self.budget

    def search_take(self, view: View, takes: list[Take], start: float) -> Take:
        raise NotImplementedError


def legal_takes(view: View) -> list[Take]:
    """Every distinct legal take of the player to move, from public information alone
    (the choices and explodable seats of the view), in the order of
    ``Game.legal_actions``: keep/discard for the game-ending card, the explosion's target
    sets, the wand used or declined."""
    takes: list[Take] = []
    for ch in view.choices:
        if ch.ends_game:
            takes += [Take(ch.card, False, None, True), Take(ch.card, False, None, False)]
            continue
        takes.append(Take(ch.card, False))
        if ch.symbol == "explode":
            hit = view.explodable
            for n in range(1, len(hit) + 1):
                takes += [Take(ch.card, True, t) for t in combinations(hit, n)]
        elif ch.symbol == "wand":
            takes.append(Take(ch.card, True))
    return takes
