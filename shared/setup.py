"""Starting positions: the deal of a seed and explicit set-ups (RULES.md sections 3, 7, 8
and 11.2), read into the card indices the engine plays on.

Why a module of its own: set-up is validated and converted once per game, the turn many
thousand times a second; ``shared.game`` keeps the turn and builds a ``Game`` from the
``Start`` made here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import (
    CARD_COUNT,
    CARD_INDEX,
    COLOUR_OF,
    COLOURS,
    IS_PLAYER_COLOUR,
    RECIPES,
)
from .errors import SetupError
from .geometry import CORNER_SLOTS, INGREDIENT_SLOTS, LINE_IDS, LINE_SLOTS, SPACES
from .options import START_CARD_MODES, Options

__all__ = ["EMPTY", "START_PAWNS", "Setup", "Start", "deal", "read_setup", "shuffle"]

EMPTY = -1
"""An empty grid slot (and the corner slots, which never hold an ingredient)."""

START_PAWNS = (0, 10, 5)


@dataclass(frozen=True, slots=True)
class Setup:
    """An explicit position to start from (section 11.2): card ids; deck top first,
    kettles bottom first; ``None`` marks an empty slot (and the corners)."""

    grid: tuple[tuple[str | None, ...], ...]
    deck: tuple[str, ...]
    kettles: tuple[tuple[str, ...], ...]
    pawns: tuple[int, ...]
    recipes: tuple[tuple[str, ...], ...] = ()
    to_move: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "grid": [list(r) for r in self.grid],
            "deck": list(self.deck),
            "kettles": [list(k) for k in self.kettles],
            "pawns": list(self.pawns),
            "recipes": [list(r) for r in self.recipes],
            "to_move": self.to_move,
        }


class Start(NamedTuple):
    """A starting position in card indices, as ``Game`` holds it: grid slots (``EMPTY``
    for gaps), the deck with its top at the END, kettles bottom first, the cards out of
    the game, each seat's recipe ids, the seat to move."""

    grid: list[int]
    deck: list[int]
    kettles: list[list[int]]
    pawns: list[int]
    out: list[int]
    recipes: list[tuple[str, ...]]
    to_move: int


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``, the same permutation from the same random state, in about
    half the time: the deal and every search iteration shuffle cards.

    Why: ``Random.shuffle`` draws each index through a Python-level helper
    (``_randbelow``); this is the same Fisher-Yates loop over ``getrandbits`` with the
    helper inlined (rejection sampling of ``k``-bit numbers). Python does not promise
    that ``shuffle`` stays the same between versions; tests/shared/test_fast_paths.py
    checks that this is the interpreter's ``shuffle``, so a change there shows."""
    bits = _BITS
    if len(x) > len(bits):
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        k = bits[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


_BITS = tuple((i + 1).bit_length() for i in range(CARD_COUNT + 1))
"""``_BITS[i]``: the bits of a random index 0..i."""


def deal(options: Options) -> Start:
    """The deal of ``options.seed`` (sections 3, 7, 8): same seed and options, same deal."""
    rng = random.Random(options.seed)
    cards = list(range(CARD_COUNT))
    shuffle(rng, cards)
    # The first 32 cards fill the ingredient slots row by row (the corners 0, 5, 30 and
    # 35 stay empty); the rest is the deck, cards[32] on top (the END of the list).
    grid = [EMPTY, *cards[0:4], EMPTY, *cards[4:28], EMPTY, *cards[28:32], EMPTY]
    deck = cards[:31:-1]
    players = options.players
    refused = _REFUSED[options.start_card]
    colours = options.colours
    kettles = []
    for seat in range(players):
        no = refused[colours[seat]]
        card = deck.pop()
        while no[card]:  # a refused start card goes under the deck (section 3.3)
            deck.insert(0, card)
            card = deck.pop()
        kettles.append([card])
    recipes: list[tuple[str, ...]]
    if options.recipes:
        pool = sorted(r.id for r in RECIPES.values() if players == 2 or r.three_players)
        shuffle(rng, pool)
        per = 2 if players == 2 else 1
        recipes = [tuple(pool[i * per : (i + 1) * per]) for i in range(players)]
    else:
        recipes = [()] * players
    return Start(grid, deck, kettles, list(START_PAWNS[:players]), [], recipes, 0)


def read_setup(options: Options, setup: Setup) -> Start:
    """An explicit position checked and read into card indices (section 11.2); every
    card not in it is out of the game. Raises ``SetupError`` naming the problem for a
    position play can never reach."""
    n = options.players
    seen: set[int] = set()

    def card(cid: Any, where: str) -> int:
        if not isinstance(cid, str) or cid not in CARD_INDEX:
            raise SetupError(f"{where}: unknown card {cid!r}", "unknown_card")
        c = CARD_INDEX[cid]
        if c in seen:
            raise SetupError(f"{where}: card {cid} appears twice", "duplicate_card")
        seen.add(c)
        return c

    if len(setup.grid) != 6 or any(len(r) != 6 for r in setup.grid):
        raise SetupError("grid: must be 6 rows of 6 slots", "bad_grid")
    grid = [EMPTY] * 36
    for r, row in enumerate(setup.grid):
        for c, cid in enumerate(row):
            slot = r * 6 + c
            if cid is None:
                continue
            if slot in CORNER_SLOTS:
                raise SetupError(f"grid[{r}][{c}]: a corner holds a card", "bad_grid")
            grid[slot] = card(cid, f"grid[{r}][{c}]")
    deck = [card(cid, f"deck[{i}]") for i, cid in enumerate(setup.deck)]
    deck.reverse()
    if len(setup.kettles) != n:
        raise SetupError(f"kettles: need {n}, got {len(setup.kettles)}", "bad_kettles")
    kettles = []
    for s, k in enumerate(setup.kettles):
        if not k:
            raise SetupError(f"kettles[{s}]: a kettle holds at least one card", "bad_kettles")
        kettles.append([card(cid, f"kettles[{s}][{i}]") for i, cid in enumerate(k)])
    if len(setup.pawns) != n:
        raise SetupError(f"pawns: need {n}, got {len(setup.pawns)}", "bad_pawns")
    for i, p in enumerate(setup.pawns):
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < SPACES:
            raise SetupError(f"pawns[{i}]: space must be 0..19", "bad_pawns")
    if len(set(setup.pawns)) != n:
        raise SetupError("pawns: two pawns share a space", "bad_pawns")
    for li, slots in enumerate(LINE_SLOTS):
        if all(grid[s] == EMPTY for s in slots):
            raise SetupError(f"grid: line {LINE_IDS[li]} is already empty", "bad_grid")
    if deck and any(grid[s] == EMPTY for s in INGREDIENT_SLOTS):
        raise SetupError("grid: a gap while the deck still holds cards", "bad_grid")
    recipes: list[tuple[str, ...]] = [() for _ in range(n)]
    if options.recipes:
        if len(setup.recipes) != n:
            raise SetupError(f"recipes: need {n} hands", "bad_recipes")
        dealt: set[str] = set()
        for s, hand in enumerate(setup.recipes):
            for rid in hand:
                if not isinstance(rid, str) or rid not in RECIPES:
                    raise SetupError(f"recipes[{s}]: unknown recipe {rid!r}", "bad_recipes")
                if rid in dealt:
                    raise SetupError(f"recipes[{s}]: {rid} dealt twice", "bad_recipes")
                dealt.add(rid)
            recipes[s] = tuple(hand)
    elif any(setup.recipes):
        raise SetupError("recipes: dealt but the recipes option is off", "bad_recipes")
    to_move = setup.to_move
    if isinstance(to_move, bool) or not isinstance(to_move, int) or to_move not in range(n):
        raise SetupError(f"to_move: must be a seat 0..{n - 1}", "bad_setup")
    return Start(
        grid,
        deck,
        kettles,
        list(setup.pawns),
        [c for c in range(CARD_COUNT) if c not in seen],
        recipes,
        to_move,
    )


def _refused_start_card(card: int, colour: str, mode: str) -> bool:
    """Section 3.3: a start card may not be black or white (rulebook), or under the
    ``not_own_color`` option, not the player's own colour."""
    if mode == "no_player_colors":
        return IS_PLAYER_COLOUR[card]
    return COLOUR_OF[card] == colour


_REFUSED: dict[str, dict[str, tuple[bool, ...]]] = {
    mode: {
        colour: tuple(_refused_start_card(c, colour, mode) for c in range(CARD_COUNT))
        for colour in COLOURS
    }
    for mode in START_CARD_MODES
}
"""``_REFUSED[mode][colour][card]``: ``_refused_start_card``, as a table for the deal."""
