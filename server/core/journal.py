"""A running game's steps: for each state version, the public events that led to it and
whether a computer player made its take for a person's seat (protocol 1.4).

A table appends each step as it announces it (``Journal.add``, the very events its
``update`` carried), and a table restored from the store (a restart, a node adopting
it) rebuilds them from its record and its stored life (``Journal.replayed``): the
takes replayed with their events, a ``timed_out`` event before each take the stored
life says was made because the seat's time ran out, and the last take's ``game_over``
naming the result's winners. So a client coming back learns what it missed from the
table's record (``since``), never from what a connection happened to receive.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from shared.events import Event, TimedOut
from shared.record import Record
from shared.result import GameResult, announced

__all__ = ["Journal", "Step"]


@dataclass(frozen=True, slots=True)
class Step:
    """The take that led to state ``version``: its ``seat``, its public ``events`` as
    announced, and ``by_computer``: a computer player made it for a person's seat."""

    version: int
    seat: int
    events: tuple[Event, ...]
    by_computer: bool = False


class Journal:
    """The steps of one game, state version 1 first (version 0, the start, has none)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def add(self, seat: int, events: tuple[Event, ...], by_computer: bool) -> None:
        """The next state's step, as the table announced it."""
        self.steps.append(Step(len(self.steps) + 1, seat, events, by_computer))

    def since(self, version: int, most: int) -> tuple[list[Step], int]:
        """The steps after state ``version`` (at most the ``most`` newest) and how many
        earlier ones were left out."""
        after = self.steps[version:]
        cut = max(0, len(after) - most)
        return after[cut:], cut

    def computer_takes(self, players: int) -> list[int]:
        """Per seat, the takes a computer player made for its person."""
        counts = [0] * players
        for step in self.steps:
            counts[step.seat] += step.by_computer
        return counts

    @classmethod
    def replayed(
        cls,
        record: Record,
        computer: Collection[int],
        expired: Collection[int],
        result: GameResult | None = None,
    ) -> Journal:
        """The steps of ``record``'s takes: ``computer`` and ``expired`` are the indices
        of the takes a computer made for a person's seat and of those made because the
        seat's time ran out (``TableLife``); the last take of a game played out names
        ``result``'s winners."""
        journal = cls()
        game = record.start()
        for index, take in enumerate(record.actions):
            seat = game.to_move
            events: list[Event] = [TimedOut(seat)] if index in expired else []
            game.apply(take, events=events)
            if game.over and result is not None:
                events = announced(events, result)
            journal.add(seat, tuple(events), index in computer)
        return journal
