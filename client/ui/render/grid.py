"""The 6x6 grid with the pawns around it, cards clickable.

Drawn from the view alone (the cursor and a click handler from the screen), so the
grid reads the same in every screen and test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from client.i18n import pgettext
from protocol import messages as m

from .cards import COLOUR_STYLE, PAWN_STYLE, PAWN_TAG, Cards
from .layout import GUTTER_L, Size
from .text import Line

LAST_STYLE = "fg:#d7af00 bold"
"""The mark of another seat's last move (brackets, dots: it reads without colour)."""

__all__ = ["OnClick", "render_grid"]


OnClick = Callable[[int, int], None]


def _click(on_click: OnClick, row: int, col: int) -> Callable[[MouseEvent], object]:
    def handler(event: MouseEvent) -> object:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_click(row, col)
            return None
        return NotImplemented

    return handler


# ----------------------------------------------------------------------------- grid
def _space_side(space: int) -> tuple[str, int]:
    """Where perimeter space ``space`` is drawn: (side, column or row) (RULES.md section 2.2)."""
    if space <= 5:
        return "top", space
    if space < 10:
        return "right", space - 5
    if space <= 15:
        return "bottom", 15 - space
    return "left", 20 - space


def render_grid(
    view: m.GameView,
    cards: Cards,
    cursor: tuple[int, int] | None = None,
    on_click: OnClick | None = None,
    size: Size | None = None,
    last: tuple[int, int] | None = None,
    path: Sequence[int] = (),
) -> list[Line]:
    """The 6x6 grid with the pawns around it (``size.grid_height`` lines,
    ``size.grid_width`` wide; 80x24 by default). The columns and rows one takes from are
    labelled ``col 0``..``5`` and ``row 0``..``5`` (the lines one takes from are 1-4, the
    words of the prompt: ``column 3``). The cells of
    the line the player to move takes from are underlined; cards that may be taken are
    bold, the one under the cursor reversed. The last move of another seat is marked:
    ``last``, the cell it took from, in brackets (``[Moss 2]``: the card now there
    refilled it), and ``path``, the spaces its pawn passed, dotted (``·``)."""
    size = size or Size(80, 24)
    w, h = size.cell_w, size.cell_h
    marks: dict[tuple[str, int], int] = {}
    for seat, space in enumerate(view.pawns):
        marks[_space_side(space)] = seat
    passed = {_space_side(space) for space in path}
    choices = {(c.row, c.col) for c in view.choices}
    line_cells: set[tuple[int, int]] = set()
    if view.line:
        n = int(view.line[3:])
        line_cells = (
            {(r, n) for r in range(6)}
            if view.line.startswith("col")
            else {(n, c) for c in range(6)}
        )

    def pawn(side: str, idx: int, arrow: str, before: bool) -> tuple[str, str]:
        seat = marks.get((side, idx))
        if seat is None:
            return (LAST_STYLE, " · ") if (side, idx) in passed else ("", "   ")
        colour = view.colours[seat]
        tag = PAWN_TAG.get(colour, colour[:2])
        text = arrow + tag if before else tag + arrow
        if seat == view.to_move:
            return (PAWN_STYLE.get(colour, "") + " underline", text)
        return (PAWN_STYLE.get(colour, ""), text)

    def edge(side: str, arrow: str) -> Line:
        col_label = pgettext("at most 3 letters", "col").rjust(GUTTER_L)
        line: Line = [("fg:#a0a0a0", col_label if side == "top" else " " * GUTTER_L)]
        for col in range(6):
            style, text = pawn(side, col, arrow, True)
            label = str(col)
            line += [("fg:#a0a0a0", f"{label} "), (style, text), ("", " " * (w + 1 - 5))]
        return line

    lines: list[Line] = [edge("top", "v")]
    for row in range(6):
        for half in range(h):
            line: Line = []
            label = str(row) if half == 0 else " "
            if half == 0 and 1 <= row <= 4:
                style, text = pawn("left", row, ">", False)
                line += [(style, text), ("fg:#a0a0a0", label + " ")]
            else:
                row_label = pgettext("at most 3 letters", "row").ljust(3)
                first = row_label if row == 0 and half == 0 else "   "
                line.append(("fg:#a0a0a0", f"{first}{label} "))
            for col in range(6):
                card = view.grid[row][col] if row < len(view.grid) else None
                corner = (row, col) in {(0, 0), (0, 5), (5, 0), (5, 5)}
                if corner:
                    corner_word = pgettext("at most 7 letters", "corner")
                    text = (corner_word, " (())", "")[half] if h > 1 else corner_word
                    style = "fg:#8a6d3b"
                elif card is None:
                    text, style = ("  ." if half == 0 else ""), "fg:#606060"
                else:
                    text = cards.cell(card, h)[half]
                    style = COLOUR_STYLE.get(cards.colour(card), "")
                if (row, col) in line_cells:
                    style += " underline"
                if (row, col) in choices:
                    style += " bold"
                if cursor == (row, col):
                    style += " reverse"
                frag_text = text.ljust(w)[:w]
                if (row, col) == last:  # the blank before the cell becomes "["
                    before = line[-1]
                    line[-1] = (before[0], before[1][:-1], *before[2:])
                    line.append((LAST_STYLE, "["))
                if on_click is not None and (row, col) in choices:
                    line.append((style, frag_text, _click(on_click, row, col)))
                else:
                    line.append((style, frag_text))
                line.append((LAST_STYLE, "]") if (row, col) == last else ("", " "))
            if half == 0 and 1 <= row <= 4:
                style, text = pawn("right", row, "<", True)
                line += [("fg:#a0a0a0", label), (style, text)]
            elif half == 0:
                line.append(("fg:#a0a0a0", label))
            lines.append(line)
    lines.append(edge("bottom", "^"))
    return lines
