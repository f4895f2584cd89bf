"""The expert's appraisal of one decision: what every legal take is worth to the seat,
in expected final points, from what the seat knows (docs/BOTS.md, "Analysis").

Like a bot's search, the appraisal gets the seat's ``View`` and its ``Memory`` (the
public events it followed), never the game: the hidden cards are sampled from the
seat's information set (``Memory.sampler``), never read. Every take is searched over the
**same** samples:

1. ``samples`` determinizations are drawn in turn from ``random.Random(seed)``;
2. in each, every legal take is made and the game is continued as the expert's search
   continues it: one ISMCTS walk (``ismcts.descend``) in a tree of its own under that
   take, where every seat plays for itself, then the ``aware`` playout policy to the
   end; each take's continuation draws its random numbers from one source seeded per
   sample, the same source for every take of that sample;
3. the finished game is scored by the rules (section 6): the seat's **margin**, its
   total minus the best other seat's total, and its own total are noted.

A take's value is its mean margin over the samples. The margin is what decides the
game (the highest total wins), and unlike the own total it counts what a take does to
the others (an explosion, the card that ends the game). Since all takes share the
samples, the difference between two values is measured on the same deals and the same
continuations' random numbers: its noise is much smaller than either value's, and the
best value is best by construction, so no cost is ever negative.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..game import Take
from ..scoring import totals as seat_totals
from ..view import View
from .base import SearchingBot, legal_takes
from .ismcts import Node, back_up, descend
from .memory import Memory
from .playout import playout, rewards

__all__ = ["Appraisal", "appraise", "as_listed"]


@dataclass(frozen=True, slots=True)
class Appraisal:
    """Every legal take of one decision (``takes``, in the order of ``legal_takes``)
    with its mean final margin (``values``) and mean own total (``totals``) over
    ``samples`` sampled deals; ``margins[i][k]``: take ``i``'s margin in sample ``k``."""

    takes: tuple[Take, ...]
    values: tuple[float, ...]
    totals: tuple[float, ...]
    margins: tuple[tuple[int, ...], ...]
    samples: int

    @property
    def best(self) -> int:
        """The index of the take with the highest value (the first of equals)."""
        return max(range(len(self.takes)), key=lambda i: (self.values[i], -i))

    def index(self, take: Take) -> int:
        """The index of ``take``: ``ValueError`` if it is not a legal take here."""
        return self.takes.index(take)

    def cost(self, take: Take) -> float:
        """How much less ``take`` is worth than the best take (0 for the best itself)."""
        return self.values[self.best] - self.values[self.index(take)]

    def noise(self, take: Take) -> float:
        """The standard error of ``cost(take)``: of the mean of the per-sample
        differences from the best take (0 for the best itself, or with one sample)."""
        best, mine = self.margins[self.best], self.margins[self.index(take)]
        n = len(best)
        if n < 2 or best is mine:
            return 0.0
        diffs = [b - m for b, m in zip(best, mine, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return math.sqrt(var / n)


def appraise(
    view: View,
    memory: Memory,
    *,
    samples: int,
    seed: int,
    explore: float = SearchingBot.EXPLORE,
    epsilon: float = 0.1,
    policy: str = SearchingBot.POLICY,
) -> Appraisal:
    """Appraise every legal take of ``view.seat``, which is to move in ``view``, from
    ``memory`` (what the seat knows: the public events it followed and its views; the
    memory given is not changed) over ``samples`` sampled deals (module docstring).
    The same view, memory, ``samples`` and ``seed`` give the same appraisal."""
    seat = view.seat
    if seat is None or view.to_move != seat:
        raise ValueError("the seat of the view is not to move")
    if samples < 1:
        raise ValueError("samples must be at least 1")
    memory = memory.copy()
    memory.sync(view)
    draw = memory.sampler(view)
    takes = legal_takes(view)
    trees = [Node(seat) for _ in takes]
    margins: list[list[int]] = [[] for _ in takes]
    totals = [0] * len(takes)
    rng = random.Random(seed)
    for _ in range(samples):
        deal = draw(rng)
        stream = rng.getrandbits(64)
        for i, take in enumerate(takes):
            game = deal.copy()
            continuation = random.Random(stream)
            game.apply(take)
            path = descend(trees[i], game, continuation, explore, policy)
            playout(game, continuation, epsilon, policy)
            back_up(path, rewards(game))
            points = seat_totals(game)
            mine = points[seat]
            margins[i].append(mine - max(p for s, p in enumerate(points) if s != seat))
            totals[i] += mine
    return Appraisal(
        tuple(takes),
        tuple(sum(m) / samples for m in margins),
        tuple(t / samples for t in totals),
        tuple(tuple(m) for m in margins),
        samples,
    )


def as_listed(view: View, take: Take) -> Take:
    """``take`` as ``legal_takes(view)`` lists the take with its effect (RULES.md
    section 4.4: a symbol that cannot act does nothing; section 4.6: the ending card
    only keeps or discards; ``targets`` None hits every seat it can). Explosion targets
    are put in seat order: a different order only changes the order of the knocked-off
    cards under the deck. ``ValueError`` if the card is not in the line."""
    for ch in view.choices:
        if ch.card != take.card:
            continue
        if ch.ends_game:
            return Take(take.card, False, None, take.keep)
        if ch.symbol == "explode" and take.special:
            aimed = range(view.players) if take.targets is None else take.targets
            hit = tuple(s for s in view.explodable if s in aimed)
            return Take(take.card, True, hit) if hit else Take(take.card, False)
        return Take(take.card, ch.symbol == "wand" and take.special)
    raise ValueError(f"{take.card} is not in the line")
