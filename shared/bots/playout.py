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
from ..geometry import LINE_SLOTS, SPACE_LINE
from ..scoring import totals as seat_totals
from .heuristics import CARD_BIT, GAIN, SHIFT

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


def playout(game: Game, rng: random.Random, epsilon: float, policy: str = "aware") -> None:
    """Play ``game`` to the end with ``policy`` (module docstring)."""
    while not game.over:
        game.apply(policy_take(game, rng, epsilon, policy))


def policy_take(game: Game, rng: random.Random, epsilon: float, policy: str) -> Take:
    """The take ``policy`` makes for the player to move, written as
    ``Game.legal_actions`` lists it (``epsilon`` 0: the policy's own choice)."""
    grid = game.grid
    kettles = game.kettles
    colours = game.options.colours
    me = game.to_move
    slots = [s for s in LINE_SLOTS[SPACE_LINE[game.pawns[me]]] if grid[s] >= 0]
    aware = policy == "aware"
    aim: tuple[int, list[int]] | None = None  # an explosion's worth and targets, once asked
    gains = GAIN[colours[me]]
    mine = sum(map(_BIT, kettles[me]))
    wand = game.turn_in_row == 1
    if epsilon and rng.random() < epsilon:
        slot = rng.choice(slots)
        c = grid[slot]
        gain = gains[c][mine >> SHIFT[c] & 15]
    else:
        slot, gain, best = slots[0], -1000, -1000
        for s in slots:
            c = grid[s]
            g = gains[c][mine >> SHIFT[c] & 15]
            worth = g
            if aware:
                if IS_EXPLODE[c]:
                    if aim is None:
                        aim = _aim(kettles, colours, me, aware)
                    worth += aim[0]
                elif wand and IS_WAND[c]:
                    worth += WAND_WORTH
            if worth > best:
                slot, gain, best = s, g, worth
    card = grid[slot]
    if game.ends_game(slot):
        return _ENDING[card][gain >= 0]
    if IS_EXPLODE[card]:
        targets = (aim or _aim(kettles, colours, me, aware))[1]
        if targets:
            return Take(CARD_IDS[card], True, tuple(targets))
    return _USED[card] if wand and IS_WAND[card] else _PLAIN[card]


def _aim(
    kettles: list[list[int]], colours: tuple[str, ...], me: int, aware: bool
) -> tuple[int, list[int]]:
    """Whom an explosion of seat ``me`` hits and what it takes from them (module
    docstring): every kettle it can hit, or with ``aware`` those whose top card is worth
    something to their owner, and the sum of those worths."""
    hurt = 0
    targets: list[int] = []
    for t in range(len(kettles)):
        k = kettles[t]
        if t != me and len(k) > 1:
            if not aware:
                targets.append(t)
                continue
            top = k[-1]  # what an explosion takes: take_gain(k[:-1], top, its owner's)
            below = sum(map(_BIT, k)) ^ CARD_BIT[top]
            loss = GAIN[colours[t]][top][below >> SHIFT[top] & 15]
            if loss > 0:
                hurt += loss
                targets.append(t)
    return hurt, targets


_BIT = CARD_BIT.__getitem__
_PLAIN = tuple(Take(cid, False) for cid in CARD_IDS)
_USED = tuple(Take(cid, True) for cid in CARD_IDS)
_ENDING = tuple((Take(cid, False, None, False), Take(cid, False, None, True)) for cid in CARD_IDS)
"""The takes the policy makes, made once: ``_ENDING[card][keep]``."""


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
