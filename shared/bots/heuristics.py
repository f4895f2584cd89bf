"""What a card is worth to a seat, by the scoring rules (RULES.md section 6), and where a
pawn will land (section 4.1): the small judgements the greedy bot and the search bot's
playouts are made of. Everything here works on card indices and plain lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import CARD_COUNT, INGREDIENT_OF, INGREDIENTS, VALUE
from ..geometry import SPACES
from ..scoring import FOUR_OF_A_KIND_BONUS

__all__ = ["CARD_BIT", "GAIN", "SHIFT", "group_points", "land", "take_gain"]


def group_points(count: int, total: int, doubled: bool) -> int:
    """The score of ``count`` cards of one ingredient whose values sum to ``total``."""
    points = -total if count == 1 else 0 if count == 2 else total if count else 0
    if doubled:
        points *= 2
    return points + (FOUR_OF_A_KIND_BONUS if count == 4 else 0)


def take_gain(kettle: Sequence[int], card: int, own: Sequence[bool]) -> int:
    """How much putting ``card`` into ``kettle`` changes its ingredient score.
    ``own[i]``: ingredient ``i`` is in the kettle owner's colour (scores double)."""
    ing = INGREDIENT_OF[card]
    count = total = 0
    for c in kettle:
        if c >= 0 and INGREDIENT_OF[c] == ing:
            count += 1
            total += VALUE[c]
    doubled = own[ing]
    return group_points(count + 1, total + VALUE[card], doubled) - group_points(
        count, total, doubled
    )


CARD_BIT: tuple[int, ...] = tuple(1 << c for c in range(CARD_COUNT))
"""``CARD_BIT[card]``: the card's bit in a kettle's card set, an integer: the sum of
its distinct cards' bits (``sum(map(CARD_BIT.__getitem__, kettle))``, a loop in C)."""
SHIFT: tuple[int, ...] = tuple(4 * INGREDIENT_OF[c] for c in range(CARD_COUNT))
"""Where a card's ingredient's four bits start in a card set (card index = ingredient *
4 + value - 1, cards.py): ``bits >> SHIFT[c] & 15`` are the kettle's cards of it."""


def _gain_table(colour_doubles: Sequence[bool]) -> tuple[tuple[int, ...], ...]:
    table = []
    for card in range(CARD_COUNT):
        first = card - card % 4  # the ingredient's value-1 card
        doubled = colour_doubles[INGREDIENT_OF[card]]
        row = []
        for nib in range(16):
            held = [first + j for j in range(4) if nib >> j & 1]
            row.append(take_gain(held, card, [doubled] * len(INGREDIENTS)))
        table.append(tuple(row))
    return tuple(table)


GAIN: dict[str, tuple[tuple[int, ...], ...]] = {
    colour: _gain_table([i.colour == colour for i in INGREDIENTS])
    for colour in {i.colour for i in INGREDIENTS}
}
"""``GAIN[colour][card][bits >> SHIFT[card] & 15]``: ``take_gain`` of ``card`` for a
seat of ``colour`` whose kettle's card set is ``bits``, as a table for the playouts
(tests/shared/bots/test_fast_bots.py)."""


def land(pawns: Sequence[int], seat: int, steps: int) -> int:
    """The space ``seat``'s pawn reaches moving ``steps`` clockwise, skipping spaces where
    another pawn stands (section 4.1)."""
    pos = pawns[seat]
    while steps:
        pos = (pos + 1) % SPACES
        if pos not in pawns:
            steps -= 1
    return pos
