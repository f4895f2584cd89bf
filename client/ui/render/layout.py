"""The table screen's layout for a terminal size, and the screen below the minimum.

``Size`` decides once what goes where: small terminals get one-line cards with the side
panel under the grid, 80x24 two-line cards with the side panel at the right, big ones
three-line cards and a full-height log; below ``MIN_WIDTH`` x ``MIN_HEIGHT`` the app
asks for a bigger window.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.i18n import N_, _

from .cards import CELL
from .text import Line, wrap_text

__all__ = [
    "GRID_WIDTH",
    "GUTTER_L",
    "GUTTER_R",
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "Size",
    "header",
    "too_small_lines",
]


GUTTER_L = 5  # pawn marker and row label left of the grid: "Wh>1 "
GUTTER_R = 4  # row label and pawn marker right of it: "1<Wh"
GRID_WIDTH = GUTTER_L + 6 * (CELL + 1) + GUTTER_R

MIN_WIDTH, MIN_HEIGHT = 60, 20


@dataclass(frozen=True)
class Size:
    """The table screen's layout for a terminal of ``width`` x ``height``."""

    width: int
    height: int

    @property
    def too_small(self) -> bool:
        return self.width < MIN_WIDTH or self.height < MIN_HEIGHT

    @property
    def cell_h(self) -> int:
        """Lines per card: 1 on small terminals, 2 from 24 lines, 3 on big ones."""
        if self.height >= 36 and self.width >= 110:
            return 3
        return 2 if self.height >= 24 else 1

    @property
    def cell_w(self) -> int:
        return 9 if self.cell_h == 3 else 7

    @property
    def grid_width(self) -> int:
        return GUTTER_L + 6 * (self.cell_w + 1) + GUTTER_R

    @property
    def grid_height(self) -> int:
        return 2 + 6 * self.cell_h

    @property
    def side_right(self) -> bool:
        """The side panel beside the grid (else under it)."""
        return self.width - self.grid_width - 1 >= 22

    @property
    def side_width(self) -> int:
        return self.width - self.grid_width - 1 if self.side_right else self.width

    @property
    def log_right(self) -> bool:
        """The log in the right column under the side panel, down to the prompt."""
        return self.cell_h == 3 and self.side_right


def too_small_lines(width: int, height: int) -> list[Line]:
    """The whole screen when the terminal is below the minimum."""
    words = _("Make the window at least {w} x {h} (it is {width} x {height}).").format(
        w=MIN_WIDTH, h=MIN_HEIGHT, width=width, height=height
    )
    return [[("bold", t)] for t in wrap_text(words, max(1, width))]


CONNECTION_WORDS = {"connected": N_("connected")}
"""The connection's state for the top line; other states come already in words."""


def header(title: str, width: int, conn: str) -> Line:
    """The top line: the program and the screen's ``title``, and the connection."""
    style = "fg:#40c060" if conn == "connected" else "fg:#ff5f5f bold"
    right = f" {_(CONNECTION_WORDS[conn]) if conn in CONNECTION_WORDS else conn} "
    left = f" Kupferkessel Co. - {title}"
    if len(left) + len(right) >= width:  # the title matters more than the name
        left = f" {title}"
    return [("bold", left[: width - len(right) - 1].ljust(width - len(right))), (style, right)]
