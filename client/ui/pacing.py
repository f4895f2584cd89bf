"""Paced play: another seat's turn shows no sooner than a moment after the last change
on the screen, and the take keys wait a moment when your turn comes back.

Computer players answer in a blink; without a pace their turns flash by unseen, and a
key pressed twice plays your next turn blind (issue 23). Lichess and Board Game Arena
pace their bots' moves the same way.
"""

from __future__ import annotations

import time

from protocol import messages as m

from ..lib import Update

__all__ = ["CATCH_UP", "HELD_KEYS", "Pacer"]

HELD_KEYS = frozenset({"enter", " ", "y", "n", "k", "d"})
"""The keys that take or answer, dropped while held (moving the cursor is harmless)."""

CATCH_UP = 3
"""More updates than this waiting to be shown: other seats' turns show at a third of the
pace until the screen has caught up (a spectator sees every turn of every seat, and
would otherwise fall further behind a quick game with every round; the browser client
does the same)."""

_TURN = (m.TookEvent, m.PassedCornerEvent)
"""What ends another seat's choice (its forced move, at the end of our own batch, not)."""


class Pacer:
    """When each update may show (``pace`` seconds between other seats' turns)."""

    def __init__(self, pace: float) -> None:
        self.pace = pace
        self.shown_at = 0.0  # when the last batch of events was shown

    def delay(self, update: Update, me: int | None, behind: int = 0) -> float:
        """Seconds to wait before showing ``update`` (``me``: our seat, if any;
        ``behind``: how many more updates wait after it)."""
        if self.pace <= 0 or not isinstance(update, m.EventsMsg):
            return 0.0
        if not update.by_computer and not any(
            isinstance(e, _TURN) and e.seat != me for e in update.events
        ):
            return 0.0  # our own take shows at once (not one a computer made for us)
        pace = self.pace / 3 if behind > CATCH_UP else self.pace
        return max(0.0, self.shown_at + pace - time.monotonic())

    def shown(self, update: Update) -> None:
        if isinstance(update, m.EventsMsg):
            self.shown_at = time.monotonic()
