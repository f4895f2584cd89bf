"""The 6x6 grid and the 20 perimeter spaces around it, as tables (RULES.md section 2).

Slots are numbered ``row * 6 + column``. Spaces are numbered clockwise from the
top-left corner. The eight selectable lines are ``col1``..``col4`` and ``row1``..``row4``;
line index 0..3 are columns 1..4 and 4..7 are rows 1..4.
"""

from __future__ import annotations

from collections.abc import Collection

__all__ = [
    "CORNER_SLOTS",
    "CORNER_SPACES",
    "INGREDIENT_SLOTS",
    "LAND2",
    "LINE_IDS",
    "LINE_SLOTS",
    "SIZE",
    "SLOT_LINES",
    "SLOT_PAIR",
    "SPACES",
    "SPACE_LINE",
    "SPACE_SLOT",
    "land",
    "walk",
]

SIZE = 6
SPACES = 20
CORNER_SPACES = frozenset({0, 5, 10, 15})
CORNER_SLOTS = frozenset({0, 5, 35, 30})
INGREDIENT_SLOTS: tuple[int, ...] = tuple(s for s in range(36) if s not in CORNER_SLOTS)

LINE_IDS: tuple[str, ...] = ("col1", "col2", "col3", "col4", "row1", "row2", "row3", "row4")
LINE_SLOTS: tuple[tuple[int, ...], ...] = tuple(
    [tuple(r * SIZE + c for r in range(SIZE)) for c in (1, 2, 3, 4)]
    + [tuple(r * SIZE + c for c in range(SIZE)) for r in (1, 2, 3, 4)]
)
SLOT_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINE_SLOTS) if s in line) for s in range(36)
)
SLOT_PAIR: tuple[tuple[int, int], ...] = tuple(
    ((*lines, 8)[0], (*lines, 8, 8)[1]) for lines in SLOT_LINES
)
"""The two lines through each slot, padded with 8 (a ninth, never-counted line): so a
hot path reads ``a, b = SLOT_PAIR[s]`` instead of looping over ``SLOT_LINES[s]``."""


def _space_table() -> tuple[tuple[int, ...], tuple[int, ...]]:
    slot: list[int] = []
    line: list[int] = []
    for p in range(SPACES):
        if p in CORNER_SPACES:
            slot.append({0: 0, 5: 5, 10: 35, 15: 30}[p])
            line.append(-1)
        elif p < 5:  # top edge: slot (0, p), column p
            slot.append(p)
            line.append(p - 1)
        elif p < 10:  # right edge: slot (p-5, 5), row p-5
            slot.append((p - 5) * SIZE + 5)
            line.append(4 + (p - 5) - 1)
        elif p < 15:  # bottom edge: slot (5, 15-p), column 15-p
            slot.append(5 * SIZE + 15 - p)
            line.append(15 - p - 1)
        else:  # left edge: slot (20-p, 0), row 20-p
            slot.append((20 - p) * SIZE)
            line.append(4 + (20 - p) - 1)
    return tuple(slot), tuple(line)


SPACE_SLOT, SPACE_LINE = _space_table()
"""``SPACE_SLOT[p]``: the slot next to space p; ``SPACE_LINE[p]``: its line index, -1 at corners."""


def walk(start: int, steps: int, others: Collection[int]) -> tuple[int, tuple[int, ...]]:
    """Where a pawn on space ``start`` stops after ``steps`` spaces clockwise, jumping
    the spaces of the ``others`` pawns without counting them (RULES.md 4.1): the space
    and the spaces jumped."""
    pos = start
    skipped: list[int] = []
    while steps:
        pos = (pos + 1) % SPACES
        if pos in others:
            skipped.append(pos)
        else:
            steps -= 1
    return pos, tuple(skipped)


def land(start: int, steps: int, pawns: list[int], me: int) -> int:
    """Where ``walk`` stops pawn ``me`` (on ``start``) with the other ``pawns`` (two or
    three seats, all on different spaces), without listing the jumped spaces: the same
    answer by arithmetic, for the engine's hot path (tests/shared/test_fast_paths.py).

    Each other pawn at a distance ``d`` (1..19) ahead is jumped exactly when ``d`` is
    at most the distance walked so far, nearest first."""
    if len(pawns) == 2:
        d = (pawns[1 - me] - start) % SPACES
        return (start + steps + (d <= steps)) % SPACES
    d1 = (pawns[(me + 1) % 3] - start) % SPACES
    d2 = (pawns[(me + 2) % 3] - start) % SPACES
    if d1 > d2:
        d1, d2 = d2, d1
    if d1 <= steps:
        steps += 1
        if d2 <= steps:
            steps += 1
    return (start + steps) % SPACES


LAND2: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(land(start, steps, [start, other], 0) if other != start else -1 for steps in range(5))
        for other in range(SPACES)
    )
    for start in range(SPACES)
)
"""``LAND2[start][other][steps]``: ``land`` with two players (the other pawn on
``other``), as a table for the engine's hot path; -1 where the pawns would share a space."""
