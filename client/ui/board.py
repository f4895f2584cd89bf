"""The game's board on the table screen: where the grid, the side panel, the "since
your take" lines and the log go for a terminal size, above the prompt and the keys.

``Size`` (``render.layout``) says where each part goes; this module fits the parts into
the rows there are: the grid whole (smaller cards rather than a cut grid), the side
panel beside it or under it (paged by ``SidePager`` when it does not fit), and in the
rows left the since lines before the log (``L`` holds both in full). The table screen
hands it a ``Board``: the parts it owns (the view, the pagers, the recent turns) and how
to draw the grid and the side panel for a size; nothing here reaches back into it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from client.i18n import _
from protocol import messages as m

from .log import LogPager, wrapped_log
from .pane import SidePager
from .recent import Recent
from .render import Cards, Line, Size, colour_table, side_by_side, wrap
from .table import LogEntry

__all__ = ["Board", "SideLines", "board_lines", "since_lines"]


class SideLines(Protocol):
    """Draws the side panel ``width`` wide: its lines, and how many of the first stay in
    place when it pages (``GameScreen.side_panel``, ``render.side_parts``)."""

    def __call__(self, width: int, *, compact: bool, legend: bool) -> tuple[list[Line], int]: ...


@dataclass(frozen=True)
class Board:
    """What the board is drawn from, handed over by the table screen."""

    view: m.GameView
    cards: Cards
    catalogue: m.Catalogue
    recent: Recent  # the turns since our take
    log: Sequence[LogEntry]  # the log the rules let us see
    side_pager: SidePager
    log_pager: LogPager
    grid: Callable[[Size], list[Line]]  # the grid drawn for a size
    side: SideLines
    bottom: list[Line]  # the prompt and the keys, under the board


def board_lines(board: Board, width: int, height: int, screen: int) -> list[Line]:
    """The grid, the side panel and the log in ``height`` lines (the status line is the
    last), then the prompt and the keys; ``screen``: the terminal's height, which a line
    of chat does not change."""
    b, v = board, board.view
    size = Size(width, screen)
    bottom = b.bottom
    room = height - 1 - len(bottom)  # the status line is the last
    if size.grid_height > room:  # too many lines below: smaller cards, not a cut grid
        size = Size(width, height + 1)
    grid = b.grid(size)
    side, keep = b.side(size.side_width, compact=not size.side_right, legend=size.log_right)
    lines: list[Line]
    if size.side_right:
        right = _pane(b, side, size.side_width, room, keep, with_log=size.log_right)
        if not size.log_right and len(right) <= len(grid):  # free rows under both
            lines = side_by_side(grid, right, size.grid_width)
            lines += _since(b, width, room - len(lines))  # before the log
            lines += b.log_pager.lines(b.log, width, room - len(lines))
            return lines[:room] + bottom
        # text under the grid stops a column short of it: two blanks before the
        # panel beside it, so a full line never reads on into the panel's words
        text = size.grid_width - 1
        beside = (size.side_width, room - len(side)) if size.log_right else None  # the log
        left = [*grid, *_since(b, text, room - len(grid), beside)]
        if not size.log_right:
            left += b.log_pager.lines(b.log, text, room - len(left))
        elif room - len(left) > 9:  # room under the grid: which colour is which
            table = colour_table(b.catalogue)
            left += [[], *[p for ln in table for p in wrap(ln, text, 4)]]
        lines = side_by_side(left, right, size.grid_width)
    else:
        # the panel under the grid first (whose turn; on your turn your kettle and
        # recipes), the log's newest entry whole, then what the others did (one line a
        # seat, or all in one), and in what is left the other kettles and more log
        free = room - len(grid)
        newest = len(wrapped_log(b.log[-1:], width))
        log = min(newest, max(0, free - keep))  # what happened last, at every size
        # "Black (Bob) moves 3 spaces" there: not again as "moved 3 spaces, choosing"
        moving = _move_in_log(b, width, log)
        short = b.recent.lines(v.players, v.colours, b.cards, width, one_line=True, moving=moving)
        panel = max(2, keep)
        want = max(free - len(side) - log, min(len(short), free - panel - log))
        since = since_lines(b.recent, v, b.cards, width, want, moving=moving)
        pane = b.side_pager.pane(side, free - len(since) - log, None, keep, width)
        rest = free - len(pane) - len(since)
        lines = grid + pane + b.log_pager.lines(b.log, width, rest) + since
    return lines[:room] + bottom


def _move_in_log(b: Board, width: int, rows: int) -> bool:
    """Whether the log in ``rows`` lines of ``width`` shows as its newest line the move
    of the seat choosing now ("Black (Bob) moves 3 spaces"): the since lines then need
    not say it again ("moved 3 spaces, choosing")."""
    if not b.log or b.log_pager.scroll or b.recent.choosing() is None:
        return False
    moved = b.log[-1].turn == b.recent.choosing()  # the move starts the seat's turn
    return moved and rows >= len(wrapped_log(b.log[-1:], width))


def _since(b: Board, width: int, rows: int, beside: tuple[int, int] | None = None) -> list[Line]:
    """The since lines in at most ``rows`` lines, with the log under them in the rows
    they leave (or ``beside`` them: its width and rows): without the move of the seat
    choosing now where the log's newest line says it."""
    v = b.view
    fewer = since_lines(b.recent, v, b.cards, width, rows, moving=True)
    log_width, log_rows = beside or (width, rows - len(fewer))
    if _move_in_log(b, log_width, log_rows):
        return fewer
    return since_lines(b.recent, v, b.cards, width, rows)


def since_lines(
    recent: Recent, v: m.GameView, cards: Cards, width: int, rows: int, *, moving: bool = False
) -> list[Line]:
    """The "since your take" lines in at most ``rows`` lines: the newest stay, the log
    (``L``) holds everything; ``moving``: the log's newest line shows the move of the
    seat choosing now, which they then do not say again."""
    since = recent.lines(v.players, v.colours, cards, width, moving=moving)
    if len(since) <= rows:
        return since
    if rows <= 0:
        return []
    since = recent.lines(v.players, v.colours, cards, width, one_line=True, moving=moving)
    if len(since) <= rows:
        return since
    # the seats that did something longest ago, their newest takes in one row, rather
    # than a pointer to L (one row: every seat's)
    older = len(since) - rows + 1
    merged = recent.merged(v.players, v.colours, cards, width, moving, older)
    more: Line = [("fg:#808080 italic", _("since your take, more: L"))]
    return [merged or more, *since[older:]]


def _pane(
    b: Board, side: list[Line], width: int, rows: int, keep: int, *, with_log: bool
) -> list[Line]:
    """The side panel in ``rows`` lines, its first ``keep`` on every page, the log under
    it ``with_log``."""
    log = (lambda n: b.log_pager.lines(b.log, width, n)) if with_log else None
    return b.side_pager.pane(side, rows, log, keep, width)
