"""Protocol 1.4: the moves a client missed, replayed from the table's own record.

Why: a client that comes back to a table (``resume``, ``rejoin``, ``watch`` again after
a reload, a second device) gets the whole truth in one fresh view, but not how the game
came there: a person who remembers every take (strict memory) must be shown the takes
made while the page was away. ``catch_up`` asks for them once the client knows where
it is; ``missed`` answers with each state's public events, exactly as a live ``update``
carried them to that connection, from the table's record (never from what one
connection happened to receive).
"""

from __future__ import annotations

from typing import Literal

from .base import Model
from .envelope import ClientMsg as _ClientMsg
from .envelope import ServerMsg as _ServerMsg
from .events import GameEvent
from .fields import StateVersion

__all__ = ["MAX_MISSED_STEPS", "CatchUpMsg", "MissedMsg", "MissedStep"]

MAX_MISSED_STEPS = 64
"""The most steps one ``missed`` carries: the newest ones; ``omitted`` counts the
earlier steps left out."""


class CatchUpMsg(_ClientMsg):
    """1.4, seated or watching a started game: the public events since state ``since``
    (the last state version this client showed), answered by ``missed``. A ``since``
    after the table's state version is refused with ``invalid_field``; before the game
    starts, ``not_started``."""

    type: Literal["catch_up"] = "catch_up"
    since: StateVersion


class MissedStep(Model):
    """One state the client missed: the events that led to it, as ``update`` has them."""

    state_version: int
    """The state these events lead to (one more than the step before)."""
    by_computer: bool = False
    """A computer player made this take for a person's seat (standing in for an absent
    person, after a resignation with three players, or because the seat's time ran
    out: then ``events`` begins with ``timed_out``). A server-side bot's own seat is
    never marked."""
    events: tuple[GameEvent, ...] = ()


class MissedMsg(_ServerMsg):
    """1.4: the answer to ``catch_up``: every state after ``since`` up to
    ``state_version`` (the table's current one when it was answered), oldest first. A
    live ``update`` (or ``events``) of a state up to ``state_version`` may have come
    before it: skip steps you have shown already."""

    type: Literal["missed"] = "missed"
    since: int
    """The ``catch_up``'s ``since``."""
    state_version: int
    """The table's state version: the last step's (``since`` itself when nothing was
    missed, and ``steps`` is empty)."""
    omitted: int = 0
    """How many earlier steps were left out (past ``MAX_MISSED_STEPS``, 64): the steps
    begin at ``since + omitted + 1``. Say so (a summary) rather than replay them."""
    steps: tuple[MissedStep, ...] = ()
