"""The random bot and the greedy bot.

The greedy bot looks one take ahead: for every legal take it works out, over the kettles
it remembers, how the scores change (section 6 and its own recipes, section 8), as
"my total minus the best other total", so an explosion that hurts the leader counts. To
that it adds what the new top card is worth as the next move's length: the best card in
the line the pawn will reach next (at once, with the wand's extra turn).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import CARD_IDS, CARD_INDEX, VALUE
from ..game import Take
from ..geometry import LINE_SLOTS, SPACE_LINE
from ..scoring import score_kettles
from ..view import View
from .base import BaseBot
from .heuristics import land, take_gain
from .memory import PERFECT, Recall
from .playout import own_colour_table

__all__ = ["GreedyBot", "RandomBot", "own_colour_table"]

NEXT_TURN_WEIGHT = 0.4  # the grid will have changed by then
EXTRA_TURN_WEIGHT = 0.8  # the wand's extra turn is played on this very grid
END_BONUS = 20.0  # ending the game while ahead (or not while behind)


class RandomBot(BaseBot):
    """Picks uniformly among the legal takes."""

    kind = "random"

    def choose(self, view: View, takes: list[Take]) -> Take:
        return self.rng.choice(takes)


class GreedyBot(BaseBot):
    """The best immediate take by the scoring rules (see the module docstring).
    ``blunder``: the chance of a random take instead, for an easy opponent."""

    kind = "greedy"

    def __init__(
        self, seat: int, *, seed: int | None = 0, recall: Recall = PERFECT, blunder: float = 0.0
    ) -> None:
        super().__init__(seat, seed=seed, recall=recall)
        self.blunder = blunder

    def choose(self, view: View, takes: list[Take]) -> Take:
        if len(takes) == 1:
            return takes[0]
        if self.blunder and self.rng.random() < self.blunder:
            return self.rng.choice(takes)
        kettles = [self.memory.known_kettle(s) for s in range(view.players)]
        base = self._margin(view, kettles, -1)
        noise = self.rng.random
        return max(takes, key=lambda t: self.value(view, kettles, base, t) + noise() * 1e-3)

    def value(self, view: View, kettles: list[list[int]], base: float, take: Take) -> float:
        """How much better ``take`` leaves this seat, in points (see the module docstring)."""
        me = self.seat
        c = CARD_INDEX[take.card]
        after = [k[:] for k in kettles]
        ending = any(ch.card == take.card and ch.ends_game for ch in view.choices)
        if take.keep:
            after[me].append(c)
        if take.special and take.targets is not None:
            for t in take.targets:
                if after[t]:
                    after[t].pop()
        margin = self._margin(view, after, me if ending else -1)
        value = margin - base
        if ending:
            return value + (END_BONUS if margin > 0 else -END_BONUS if margin < 0 else 0.0)
        taken = _slot_of(view, take.card)
        own = own_colour_table(view.colours[me])
        extra = take.special and any(
            ch.card == take.card and ch.symbol == "wand" for ch in view.choices
        )
        weight = EXTRA_TURN_WEIGHT if extra else NEXT_TURN_WEIGHT
        space = land(view.pawns, me, VALUE[c])  # the new top card sets the next move
        return value + weight * _best_gain(view, space, after[me], own, taken)

    def _margin(self, view: View, kettles: Sequence[Sequence[int]], ended_by: int) -> float:
        """This seat's total minus the best other total, over the remembered kettles."""
        mine = view.recipes[self.seat] or ()
        recipes = [mine if s == self.seat else () for s in range(view.players)]
        totals = [
            s.total
            for s in score_kettles(
                [[CARD_IDS[c] for c in k] for k in kettles], view.colours, recipes, ended_by
            ).scores
        ]
        own_total = totals.pop(self.seat)
        return float(own_total - max(totals))


def _slot_of(view: View, card: str) -> int:
    for ch in view.choices:
        if ch.card == card:
            return ch.row * 6 + ch.col
    raise ValueError(f"{card} is not a choice")  # pragma: no cover


def _best_gain(
    view: View, space: int, kettle: Sequence[int], own: Sequence[bool], taken: int
) -> float:
    """The best ingredient-score gain in the line next to ``space`` (0 at a corner, where
    nothing is taken). The slot just taken is refilled with an unknown card: left out."""
    line = SPACE_LINE[space]
    if line < 0:
        return 0.0
    gains = []
    for slot in LINE_SLOTS[line]:
        cid = view.grid[slot // 6][slot % 6]
        if cid is not None and slot != taken:
            gains.append(take_gain(kettle, CARD_INDEX[cid], own))
    return float(max(gains)) if gains else 0.0
