"""The chat pane: the table's chat lines in their own history, on the waiting screen,
as the newest line for a while on every screen, and on their own page (``C``).

Apart from the game log, whose strict-memory rule would drop a line after a round
(issue 23, item 5): what people say is not part of the game.
"""

from __future__ import annotations

import time
from collections import deque

from client.i18n import _
from protocol import messages as m

from .log import LogPager, wrapped_log
from .render import Line, wrap
from .table import LogEntry

__all__ = ["FRESH", "ChatPane"]

FRESH = 30.0
"""Seconds the newest chat line stays above the status line on every screen."""


class ChatPane:
    """The chat lines of the table we are at (a rematch keeps them: the same people)."""

    def __init__(self, size: int = 200) -> None:
        self.said: deque[LogEntry] = deque(maxlen=size)
        self.at = 0.0  # when the newest line came
        self.pager = LogPager()
        self.open = False  # its page is on the screen (C)

    def add(self, msg: m.ChatLineMsg) -> None:
        self.said.append(LogEntry(f"<{msg.name}> {msg.text}"))
        self.at = time.monotonic()

    def clear(self) -> None:
        self.said.clear()
        self.at = 0.0

    def fresh(self) -> bool:
        """Whether the newest line is still shown on every screen."""
        return bool(self.said) and time.monotonic() - self.at < FRESH

    def newest(self, width: int, rows: int = 2) -> list[Line]:
        """The newest line and where the rest is, wrapped in at most ``rows`` lines: a
        line too long for them keeps its start, the speaker's name first, and ends in
        ``…`` (``C`` shows it whole)."""
        if not self.said:
            return []
        text = self.said[-1].text
        more = "   " + _("C: chat") if len(self.said) > 1 else ""
        lines = wrap([("fg:#87d7ff", text), ("fg:#808080", more)], width)
        cut = len(text)
        while len(lines) > rows and cut > 1:
            cut = max(1, cut - max(1, width // 8))
            short = text[:cut].rstrip() + "\u2026"
            lines = wrap([("fg:#87d7ff", short), ("fg:#808080", "   " + _("C: all"))], width)
        return lines[:rows]

    def pane(self, width: int, rows: int) -> list[Line]:
        """The newest lines in at most ``rows`` lines, under a title (waiting screen)."""
        if rows < 2:
            return []
        keys = "   " + _("c: say something, C: all")
        title: Line = [("bold", _("Chat")), ("fg:#808080", keys)]
        nothing = "  " + _("(nothing said yet)")
        body = wrapped_log(self.said, width) or [[("fg:#808080", nothing)]]
        return [title, *body[-(rows - 1) :]]

    def page(self, head: Line, width: int, rows: int) -> list[Line]:
        """Every line said at this table on the whole screen, paged like the log."""
        return self.pager.page(head, [], self.said, _("Chat at this table"), width, rows)

    def key(self, key: str) -> None:
        """A key on the chat page: paging, or back."""
        if not self.pager.key(key):
            self.open = False
            self.pager.scroll = 0
