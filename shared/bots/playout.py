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

from ..cards import CARD_IDS, INGREDIENT_OF, INGREDIENTS, IS_EXPLODE, IS_WAND, VALUE
from ..game import Game, Take
from ..scoring import totals as seat_totals
from .heuristics import GAIN

__all__ = [
    "POLICIES",
    "WAND_WORTH",
    "own_colour_table",
    "playout",
    "policy_take",
    "reward",
    "rewards",
]

POLICIES = ("plain", "aware")
WAND_WORTH = 3  # points an extra turn is worth to a playout (about one good take)


def own_colour_table(colour: str) -> tuple[bool, ...]:
    """``table[ingredient]``: that ingredient scores double for a seat of ``colour``."""
    return tuple(i.colour == colour for i in INGREDIENTS)


_OWN = {c: own_colour_table(c) for c in {i.colour for i in INGREDIENTS}}
_KINDS = len(INGREDIENTS)


def playout(game: Game, rng: random.Random, epsilon: float, policy: str = "aware") -> None:
    """Play ``game`` to the end with ``policy`` (module docstring)."""
    while not game.over:
        game.apply(policy_take(game, rng, epsilon, policy))


def policy_take(game: Game, rng: random.Random, epsilon: float, policy: str) -> Take:
    """The take ``policy`` makes for the player to move, written as
    ``Game.legal_actions`` lists it (``epsilon`` 0: the policy's own choice)."""
    aware = policy == "aware"
    grid = game.grid
    kettles = game.kettles
    colours = game.options.colours
    me = game.to_move
    slots = game.line_slots()
    kettle = kettles[me]
    own = _OWN[colours[me]]
    hurt = 0
    targets: list[int] = []
    for t in range(len(kettles)):
        k = kettles[t]
        if t != me and len(k) > 1:
            if not aware:
                targets.append(t)
                continue
            top = k[-1]  # what an explosion takes: take_gain(k[:-1], top, its owner's)
            ing = INGREDIENT_OF[top]
            count = total = 0
            for c in k:
                if INGREDIENT_OF[c] == ing:
                    count += 1
                    total += VALUE[c]
            value = VALUE[top]
            loss = GAIN[_OWN[colours[t]][ing]][count - 1][total - value][value]
            if loss > 0:
                hurt += loss
                targets.append(t)
    # My kettle's cards and points of each ingredient, for take_gain by table.
    counts = [0] * _KINDS
    totals = [0] * _KINDS
    for c in kettle:
        ing = INGREDIENT_OF[c]
        counts[ing] += 1
        totals[ing] += VALUE[c]
    wand = game.turn_in_row == 1
    if epsilon and rng.random() < epsilon:
        slot = rng.choice(slots)
        c = grid[slot]
        ing = INGREDIENT_OF[c]
        gain = GAIN[own[ing]][counts[ing]][totals[ing]][VALUE[c]]
    else:
        slot, gain, best = slots[0], -1000, -1000
        for s in slots:
            c = grid[s]
            ing = INGREDIENT_OF[c]
            g = GAIN[own[ing]][counts[ing]][totals[ing]][VALUE[c]]
            worth = g
            if aware:
                if IS_EXPLODE[c]:
                    worth += hurt
                elif wand and IS_WAND[c]:
                    worth += WAND_WORTH
            if worth > best:
                slot, gain, best = s, g, worth
    card = grid[slot]
    cid = CARD_IDS[card]
    if game.ends_game(slot):
        return Take(cid, False, None, gain >= 0)
    if IS_EXPLODE[card] and targets:
        return Take(cid, True, tuple(targets))
    return Take(cid, wand and IS_WAND[card])


def rewards(game: Game) -> list[float]:
    """Every seat's result of a finished game, in [0, 1]: mostly the win (a shared win
    counts half), a little the margin over the best other seat, so that few playouts
    still separate takes."""
    totals = seat_totals(game)
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
