"""What a card is worth to a seat, by the scoring rules (RULES.md section 6), and where a
pawn will land (section 4.1): the small judgements the greedy bot and the search bot's
playouts are made of. Everything here works on card indices and plain lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import INGREDIENT_OF, VALUE
from ..geometry import SPACES
from ..scoring import FOUR_OF_A_KIND_BONUS

__all__ = ["GAIN", "group_points", "land", "take_gain"]


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


GAIN: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(
                group_points(count + 1, total + value, doubled)
                - group_points(count, total, doubled)
                for value in range(5)
            )
            for total in range(11)
        )
        for count in range(5)
    )
    for doubled in (False, True)
)
"""``GAIN[doubled][count][total][value]``: ``take_gain`` of a card of ``value`` for an
ingredient of which the kettle holds ``count`` cards worth ``total``, as a table for
the playouts (tests/shared/bots/test_fast_bots.py)."""


def land(pawns: Sequence[int], seat: int, steps: int) -> int:
    """The space ``seat``'s pawn reaches moving ``steps`` clockwise, skipping spaces where
    another pawn stands (section 4.1)."""
    pos = pawns[seat]
    while steps:
        pos = (pos + 1) % SPACES
        if pos not in pawns:
            steps -= 1
    return pos
