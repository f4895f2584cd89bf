"""Events as a table sends them, for the tests of the terminal client's pacing and its
"since your take" lines: ``moved``, ``took``, ``refilled`` on the real catalogue."""

from __future__ import annotations

from client.ui.render import Cards
from protocol import messages as m
from protocol.convert import catalogue

CARDS = Cards.of(catalogue())


COLOURS = ("white", "black", "lilac")


def moved(seat: int, a: int, b: int) -> m.MovedEvent:
    return m.MovedEvent(seat=seat, from_space=a, to_space=b, skipped=())


def took(seat: int, card: str, row: int = 1, col: int = 2) -> m.TookEvent:
    return m.TookEvent(
        seat=seat, card=card, line=f"col{col}", row=row, col=col, special=False, ends_game=False
    )


def refilled(card: str, row: int = 1, col: int = 2) -> m.RefilledEvent:
    return m.RefilledEvent(row=row, col=col, card=card)
