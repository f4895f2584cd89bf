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
import random
import time
from collections.abc import Callable

from ..cards import CARD_IDS, INGREDIENTS
from ..game import Game, Take
from ..scoring import score_game
from ..view import View
from .base import BaseBot
from .greedy import own_colour_table
from .heuristics import take_gain
from .memory import PERFECT, Recall

__all__ = ["SearchBot", "playout"]

_OWN = {c: own_colour_table(c) for c in {i.colour for i in INGREDIENTS}}


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
            playout(game, self.rng, self.epsilon)
            visits[i] += 1
            wins[i] += reward(game, self.seat)
            total += 1
        self.simulations += total
        self.searches += 1
        self.thinking += self.clock() - start
        best = max(range(n), key=lambda j: (visits[j], wins[j] / max(visits[j], 1)))
        return takes[best]


def playout(game: Game, rng: random.Random, epsilon: float) -> None:
    """Play ``game`` to the end: each player takes the card that adds most to their own
    ingredient scores (now and then, with chance ``epsilon``, a random one), uses every
    symbol, and keeps the game-ending card if it helps."""
    grid = game.grid
    while not game.over:
        me = game.to_move
        slots = game.line_slots()
        kettle = game.kettles[me]
        own = _OWN[game.options.colours[me]]
        if rng.random() < epsilon:
            slot = rng.choice(slots)
            gain = take_gain(kettle, grid[slot], own)
        else:
            slot, gain = slots[0], -1000
            for s in slots:
                g = take_gain(kettle, grid[s], own)
                if g > gain:
                    slot, gain = s, g
        card = CARD_IDS[grid[slot]]
        if game.ends_game(slot):
            game.apply(Take(card, False, None, gain >= 0))
        else:
            game.apply(Take(card))


def reward(game: Game, seat: int) -> float:
    """The result for ``seat`` of a finished game, in [0, 1]: mostly the win (a shared
    win counts in part), a little the margin, so that few playouts still separate takes."""
    totals = [s.total for s in score_game(game).scores]
    mine = totals[seat]
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    win = 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
    margin = min(1.0, max(0.0, 0.5 + (mine - best_other) / 60.0))
    return 0.75 * win + 0.25 * margin
