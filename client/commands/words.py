"""The words the commands print for a person, in the language spoken (``client.i18n``):
a seat, a card. The card data's words come from ``shared.names``, as on the screens."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from client.i18n import _
from protocol import messages as m
from protocol.convert import catalogue

from ..ui.render.cards import Cards, colour_word

__all__ = ["card_catalogue", "card_words", "cards_words", "seat_words"]


@cache
def card_catalogue() -> m.Catalogue:
    """The card set the records are played with, as a client knows it."""
    return catalogue()


@cache
def _cards() -> Cards:
    return Cards.of(card_catalogue())


def card_words(card: str) -> str:
    """``Kröte 2``: a card by its id, in the language spoken (an unknown id as it is)."""
    return _cards().name(card)


def cards_words(cards: Sequence[str]) -> str:
    """``Kröte 2, Moos 3``, or ``-`` for none."""
    return ", ".join(card_words(c) for c in cards) or "-"


def seat_words(colours: Sequence[str], seat: int) -> str:
    """``Weiß (Platz 1)``: a seat by its colour, counted from 1 as the terminal client
    counts seats (the JSON keeps the protocol's indices, from 0)."""
    return _("{colour} (seat {number})").format(colour=colour_word(colours[seat]), number=seat + 1)
