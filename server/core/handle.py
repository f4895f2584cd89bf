"""What the rest of the server uses of a table: its public facts and its handle.

A session, the lobby, a ``Directory`` and a listing never need a whole ``Table``: they
need what anyone may know of one (``TableFacts``: what a listing and ``presence``
show) and, for a session at it, a way to act there (``TableHandle``: ``apply`` an
intent). Typing them against these protocols rather than ``Table`` lets a table served
by another node (``server.cluster.remote.RemoteTable``) or merely listed by it
(``server.cluster.listing``) take a table's place without pretending to be one.
``Table`` implements both; mypy proves it where each implementation is defined.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from shared.clock import TimeRules
from shared.frozen import quick
from shared.options import Options

from .intents import Intent
from .roles import Occupant

__all__ = ["PublicSeat", "TableFacts", "TableHandle", "next_serial"]

_serials = itertools.count(1)


def next_serial() -> int:
    """The next number of this process's tables (mine or listed): the listing's order."""
    return next(_serials)


@quick
@dataclass(frozen=True, slots=True)
class PublicSeat:
    """One seat as anyone may know it (``SeatInfo`` of the protocol, at its latest
    version): never its token."""

    seat: int
    name: str | None
    connected: bool
    bot: str | None
    ready: bool
    resigned: bool
    absent: bool = False
    """A person's seat played by a computer player because its person is away."""
    computer: bool = False
    """A computer player plays the seat now."""
    rematch: bool = False
    """The seat voted for a rematch."""
    registered: bool = False
    """A registered player sits here (protocol 1.2), not merely someone of that name."""
    computer_takes: int = 0
    """Protocol 1.4: the takes a computer player made for this person's seat."""
    ended: str | None = None
    """Protocol 1.4, once the game ended: how it ended for this seat
    (``shared.result.seat_endings``)."""
    rating_before: float | None = None
    """Protocol 1.4, a finished rated game that changed this seat's rating: the rating
    before (None: the player's first rated game) ..."""
    rating_after: float | None = None
    """... and after it."""


class TableFacts(Protocol):
    """What anyone may know of a table: what a listing and its ``presence`` show, and
    what orders and filters a listing."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def options(self) -> Options: ...

    @property
    def private(self) -> bool: ...

    @property
    def state(self) -> str: ...

    @property
    def timing(self) -> TimeRules: ...

    @property
    def serial(self) -> int:
        """This process's number for the table (``next_serial``): the listing's order."""
        ...

    @property
    def open(self) -> bool:
        """Waiting in the lobby with a free seat: someone may join."""
        ...

    @property
    def seeded(self) -> bool:
        """The creator chose the seed: they may know the whole deal."""
        ...

    @property
    def rated(self) -> bool:
        """Created rated (protocol 1.2): only signed-in players sit; the result rates."""
        ...

    @property
    def spectator_count(self) -> int: ...

    def public_seats(self) -> Sequence[PublicSeat]:
        """Each seat's public facts, in seat order."""
        ...


class TableHandle(TableFacts, Protocol):
    """A table as a session uses it: its facts, and acting there. A ``Table`` of this
    process, or a ``RemoteTable`` forwarding to the node that serves it."""

    def invite_ok(self, code: str | None) -> bool:
        """Whether ``code`` lets one join or watch (any code will do at a public table)."""
        ...

    def seat_of(self, occupant: Occupant[TableHandle]) -> int | None:
        """The seat ``occupant`` plays here (None: it watches, or is not here)."""
        ...

    async def apply(self, occupant: Occupant[TableHandle], intent: Intent) -> Any:
        """Apply ``intent`` of ``occupant`` here (``Table.apply`` says what each intent
        type returns)."""
        ...

    def detach(self, occupant: Occupant[TableHandle]) -> None:
        """``occupant``'s connection closed: a seat stays its person's."""
        ...
