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

from ..game import Take
from ..view import View
from .base import SearchingBot
from .playout import playout, reward

__all__ = ["SearchBot"]


class SearchBot(SearchingBot):
    """Information-set sampling + flat UCB1 over the root takes (module docstring);
    by default 0.2 s a decision."""

    kind = "search"
    EXPLORE = 0.6
    POLICY = "plain"

    def search_take(self, view: View, takes: list[Take], start: float) -> Take:
        memory = self.memory.copy()
        draw = memory.sampler(view)
        n = len(takes)
        visits = [0] * n
        wins = [0.0] * n
        total = 0
        while self.more(total, start, n):
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
            game = draw(self.rng)
            game.apply(takes[i])
            playout(game, self.rng, self.epsilon, self.policy)
            visits[i] += 1
            wins[i] += reward(game, self.seat)
            total += 1
        self.simulations += total
        best = max(range(n), key=lambda j: (visits[j], wins[j] / max(visits[j], 1)))
        return takes[best]
