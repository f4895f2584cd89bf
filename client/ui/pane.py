"""The side panel in the rows it has: whole when it fits (with the log below it, when
asked), else paged with PgUp/PgDn, its first line (whose turn) kept in place.

Apart from the table screen so that the paging, its own small state, reads on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from client.i18n import _, ngettext

from .render import Line

__all__ = ["SidePager", "is_rule"]


def is_rule(line: Line) -> bool:
    """Whether ``line`` is a rule between the panel's parts (``-----``)."""
    text = "".join(f[1] for f in line)
    return len(text) > 2 and set(text) == {"-"}


@dataclass
class SidePager:
    """Where the side panel is paged to: its first line shown, and a page's size."""

    scroll: int = 0
    page: int = 3

    def step(self, up: bool) -> None:
        """PgUp or PgDn: a page back or on."""
        self.scroll = max(0, self.scroll + (-self.page if up else self.page))

    def pane(
        self,
        side: list[Line],
        rows: int,
        log: Callable[[int], list[Line]] | None = None,
        keep: int = 1,
        width: int | None = None,
    ) -> list[Line]:
        """The side panel in ``rows`` lines, followed by ``log(rows left)`` when given
        (under the grid on a small terminal, in the right column on a big one); when
        the panel alone does not fit, its rules go, and then it pages instead of being
        cut. Its first ``keep`` lines (whose turn; under the grid on your turn your
        kettle and recipes instead) stay in place on every page; when a page has no room
        beside them they show with the one line after them that fits (``L`` and the
        key line's ``L: log`` have the rest). The line saying what is below is said in
        ``width`` (``+5 PgDn`` where the words do not fit)."""
        if len(side) > rows:  # the rules between its parts give way first
            side = [ln for ln in side if not is_rule(ln)]
        if rows <= 1 and len(side) > rows:  # no room for a page: say where it all is
            where: Line = [("fg:#808080 italic", _("kettles and log: L"))]
            return [where][:rows]
        if len(side) <= rows:  # whole, rather than a kettle paged away to point at L
            self.scroll = 0
            return side if log is None else side + log(rows - len(side))
        keep = max(1, keep)
        if keep > 1 and keep <= rows < keep + 2:  # no room to page beside them
            self.scroll = 0
            return side[:rows]  # and a kettle more rather than a pointer to L
        if rows < keep + 2:
            keep = 1 if rows >= 3 else 0
        head, side = side[:keep], side[keep:]  # "To move:" stays
        page = self.page = max(1, rows - 1 - len(head))
        self.scroll = max(0, min(self.scroll, len(side) - page))
        shown = side[self.scroll : self.scroll + page]
        rest = len(side) - self.scroll - len(shown)
        more = (
            ngettext("{n} more line (PgDn)", "{n} more lines (PgDn)", rest).format(n=rest)
            if rest
            else _("end (PgUp: back)")
        )
        if log is not None:  # the log has no room here: say where it is
            more += "; " + _("the log: L")
        if width is not None and len(more) > width:  # a narrow column: the keys alone
            more = f"+{rest} PgDn" if rest else "PgUp"
        return [*head, *shown, [("fg:#808080 italic", more)]]
