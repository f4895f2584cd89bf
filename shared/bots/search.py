"""The search bot: determinized flat Monte Carlo with UCB1 at the root.

Each iteration samples a full position consistent with what the seat knows
(``Memory.sample``: the deck order, the kettle cards it never saw or forgot, the other
seats' recipes), plays one of its legal takes chosen by UCB1, then plays the game out to
the end with a fast greedy playout policy and scores it by the rules. The take played
most often is chosen. Sampling a fresh world every iteration averages over the hidden
information instead of trusting one guess; the legal takes depend only on public
information, so they are the same in every sampled world.

Work is bounded by ``iterations`` (deterministic, for tests) or by ``budget`` seconds per
decision, measured with the injected ``clock``. All randomness comes from the seed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ..game import Take
from ..view import View
from .base import BaseBot
from .memory import PERFECT, Recall
from .playout import playout, reward

__all__ = ["SearchBot"]


class SearchBot(BaseBot):
    """Information-set sampling + flat UCB1 over the root takes (module docstring).

    ``budget``: seconds per decision (ignored when ``iterations`` is given);
    ``explore``: the UCB1 constant; ``epsilon``: how often a playout move is random.
    ``simulations``, ``thinking`` and ``searches``: the playouts, clock time and decisions
    searched so far (a decision with one legal take needs no search)."""

    kind = "search"

    def __init__(
        self,
        seat: int,
        *,
        seed: int | None = 0,
        recall: Recall = PERFECT,
        budget: float = 0.2,
        iterations: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        explore: float = 0.6,
        epsilon: float = 0.1,
    ) -> None:
        super().__init__(seat, seed=seed, recall=recall)
        self.budget = budget
        self.iterations = iterations
        self.clock = clock
        self.explore = explore
        self.epsilon = epsilon
        self.simulations = 0
        self.thinking = 0.0
        self.searches = 0

    def choose(self, view: View, takes: list[Take]) -> Take:
        if len(takes) == 1:
            return takes[0]
        start = self.clock()
        memory = self.memory.copy()
        n = len(takes)
        visits = [0] * n
        wins = [0.0] * n
        total = 0
        while True:
            if self.iterations is not None:
                if total >= self.iterations:
                    break
            elif total >= n and self.clock() - start >= self.budget:
                break
            if total < n:
                i = total
            else:
                log_total = math.log(total)
                i = max(
                    range(n),
                    key=lambda j: (
                        wins[j] / visits[j] + self.explore * math.sqrt(log_total / visits[j])
                    ),
                )
            game = memory.sample(view, self.rng)
            game.apply(takes[i])
            playout(game, self.rng, self.epsilon, "plain")
            visits[i] += 1
            wins[i] += reward(game, self.seat)
            total += 1
        self.simulations += total
        self.searches += 1
        self.thinking += self.clock() - start
        best = max(range(n), key=lambda j: (visits[j], wins[j] / max(visits[j], 1)))
        return takes[best]
