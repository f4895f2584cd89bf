"""Playout policies: how a search plays a sampled position to the end, fast.

Both policies are greedy on the ingredient scores of section 6 (``take_gain``): each
player takes the card of its line that adds most to its own kettle, now and then (with
chance ``epsilon``) a random one, and keeps the game-ending card if it helps.

- ``plain`` (the policy of the flat ``search`` bot): every symbol is used, whatever it
  does.
- ``aware`` (the ISMCTS levels): a symbol is weighed. An explosion is aimed only at
  kettles whose top card is worth something to their owner (blowing away a lone card, a
  penalty, would help them), and the points it takes from them count towards the card's
  worth; the wand's extra turn counts ``WAND_WORTH`` points. Measured in docs/BOTS.md:
  with the same number of iterations, a search with ``aware`` playouts beats one with
  ``plain`` playouts.

``reward`` turns a finished game into each seat's result in [0, 1].
"""

from __future__ import annotations

import random

from ..cards import CARD_IDS, INGREDIENTS, IS_EXPLODE, IS_WAND
from ..game import Game, Take
from ..scoring import score_game
from .heuristics import take_gain

__all__ = ["POLICIES", "WAND_WORTH", "own_colour_table", "playout", "reward", "rewards"]

POLICIES = ("plain", "aware")
WAND_WORTH = 3  # points an extra turn is worth to a playout (about one good take)


def own_colour_table(colour: str) -> tuple[bool, ...]:
    """``table[ingredient]``: that ingredient scores double for a seat of ``colour``."""
    return tuple(i.colour == colour for i in INGREDIENTS)


_OWN = {c: own_colour_table(c) for c in {i.colour for i in INGREDIENTS}}


def playout(game: Game, rng: random.Random, epsilon: float, policy: str = "aware") -> None:
    """Play ``game`` to the end with ``policy`` (module docstring)."""
    aware = policy == "aware"
    grid = game.grid
    kettles = game.kettles
    owns = [_OWN[c] for c in game.options.colours]
    players = range(game.players)
    while not game.over:
        me = game.to_move
        slots = game.line_slots()
        kettle = kettles[me]
        own = owns[me]
        hurt = 0
        targets: list[int] = []
        if aware:  # what an explosion would take from the others now
            for t in players:
                k = kettles[t]
                if t != me and len(k) > 1:
                    loss = take_gain(k[:-1], k[-1], owns[t])
                    if loss > 0:
                        hurt += loss
                        targets.append(t)
        if rng.random() < epsilon:
            slot = rng.choice(slots)
            gain = take_gain(kettle, grid[slot], own)
        else:
            slot, gain, best = slots[0], -1000, -1000
            for s in slots:
                c = grid[s]
                g = take_gain(kettle, c, own)
                worth = g
                if aware:
                    if IS_EXPLODE[c]:
                        worth += hurt
                    elif IS_WAND[c] and game.turn_in_row == 1:
                        worth += WAND_WORTH
                if worth > best:
                    slot, gain, best = s, g, worth
        card = grid[slot]
        if game.ends_game(slot):
            game.apply(Take(CARD_IDS[card], False, None, gain >= 0))
        elif aware and IS_EXPLODE[card]:
            game.apply(Take(CARD_IDS[card], bool(targets), tuple(targets) if targets else None))
        else:
            game.apply(Take(CARD_IDS[card]))


def rewards(game: Game) -> list[float]:
    """Every seat's result of a finished game, in [0, 1]: mostly the win (a shared win
    counts half), a little the margin over the best other seat, so that few playouts
    still separate takes."""
    totals = [s.total for s in score_game(game).scores]
    out = []
    for seat, mine in enumerate(totals):
        best_other = max(t for s, t in enumerate(totals) if s != seat)
        win = 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
        margin = min(1.0, max(0.0, 0.5 + (mine - best_other) / 60.0))
        out.append(0.75 * win + 0.25 * margin)
    return out


def reward(game: Game, seat: int) -> float:
    """``seat``'s result of a finished game (``rewards``)."""
    return rewards(game)[seat]
