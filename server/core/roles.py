"""Who a table talks to: its occupants (people's sessions, bot seats, stand-ins) and
its host (the lobby serving it).

The roles are generic in the table type (``T``) so that this module needs no table:
``server.core.table`` names them for its ``Table`` (``Occupant``, ``StandIn``,
``TableHost``), which is how the rest of the server uses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from shared.analysis import Suggestion
from shared.events import Event
from shared.record import Record
from shared.view import View

from .errors import TableError
from .journal import Step

__all__ = ["DETACHED", "Detached", "Occupant", "StandIn", "TableHost"]

T = TypeVar("T", contravariant=True)


class Occupant(Protocol[T]):
    """Who receives a seat's or a spectator's traffic: a network session or a bot seat.
    Every call carries only a view made for this occupant or public facts."""

    @property
    def minor(self) -> int:
        """The minor version of the protocol it speaks (a bot: the newest): what of a
        table's life it may be told (1.0 knew no early end, no rematch)."""
        ...

    def deliver_view(self, table: T, view: View, version: int) -> None:
        """A fresh view (on joining, watching or resuming)."""
        ...

    def deliver_update(
        self,
        table: T,
        events: Sequence[Event],
        view: View,
        version: int,
        re: int | None = None,
        by_computer: bool = False,
    ) -> None:
        """A new state: its public events (possibly none), then the view made for
        this occupant; ``re``: the id of its take this update answers (``Play.re``);
        ``by_computer``: a computer player made the take for a person's seat."""
        ...

    def deliver_missed(
        self, table: T, since: int, version: int, steps: Sequence[Step], omitted: int, re: int
    ) -> None:
        """1.4: the answer ``re`` to ``catch_up``: the ``steps`` after state ``since`` up
        to ``version``, ``omitted`` earlier ones left out."""
        ...

    def deliver_hint(self, table: T, version: int, hint: Suggestion, re: int) -> None:
        """1.5: the answer ``re`` to ``ask_hint``: the expert's take in state ``version``."""
        ...

    def deliver_result(self, table: T, view: View, version: int) -> None:
        """The final view of a game that ended without its last take (resigned,
        claimed, timed out, abandoned): ``view.result`` says how."""
        ...

    def deliver_presence(self, table: T) -> None: ...

    def deliver_chat(self, table: T, seat: int | None, name: str, text: str) -> None: ...

    def deliver_finished(self, table: T, reason: str, seat: int | None) -> None: ...

    def deliver_rematch(self, table: T, new: T, seat: int | None) -> bool:
        """A rematch starts at ``new`` where this occupant now sits at ``seat`` (None:
        watches). Returns False if it stays behind (it cannot follow)."""
        ...

    def replaced(self, table: T, seat: int) -> None:
        """Another connection resumed this seat with its token."""
        ...


class StandIn(Occupant[T], Protocol[T]):
    """A computer player playing a person's seat (absent, timed out, or resigned with
    three players): it gets that seat's views and moves when the seat is to move."""

    async def stop(self) -> None: ...


class TableHost(Protocol[T]):
    """What a table tells whoever serves it (the lobby), and asks of it: one typed
    object handed to the table, instead of callbacks set on it from outside."""

    def finished(self, table: T) -> None:
        """The table's end is stored (its game ended, or it was abandoned)."""

    def due_changed(self, table: T) -> None:
        """``table.next_due()`` may have come earlier (a clock, a grace period)."""

    def changed(self, table: T) -> None:
        """What a listing shows of the table, or what it counts as against the quotas,
        may have changed (who sits or watches, readiness, its state)."""

    def lost(self, table: T) -> None:
        """The store refused a write: another node serves the table now."""

    def stand_in(self, table: T, seat: int) -> StandIn[T] | None:
        """A computer player (started) for a person's seat; None if there are none."""

    async def rematch(self, table: T) -> object:
        """Every person at the finished ``table`` voted for a rematch: start it."""

    async def hint(self, table: T, record: Record) -> Suggestion:
        """1.5: the expert's take for the seat to move after ``record`` (a copy),
        weighed from that seat's view only (``shared.analysis.suggest``), within the
        server's bounds (``rate_limited`` past them)."""
        ...


class Detached:
    """The host of a table nobody serves: one built to be looked at (a listing of
    another node's tables, a test), which hears nothing and has no computer players."""

    def finished(self, table: object) -> None:
        pass

    def due_changed(self, table: object) -> None:
        pass

    def changed(self, table: object) -> None:
        pass

    def lost(self, table: object) -> None:
        pass

    def stand_in(self, table: object, seat: int) -> None:
        return None

    async def rematch(self, table: object) -> object:
        return None

    async def hint(self, table: object, record: Record) -> Suggestion:
        raise TableError("not_allowed", "this table is served nowhere", "hints")


DETACHED = Detached()
