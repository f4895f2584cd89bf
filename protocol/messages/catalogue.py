"""The card set as ``welcome`` sends it: ingredient cards and recipe cards.

With it a client needs nothing but the protocol to name, colour and value every card.
"""

from __future__ import annotations

from .base import Model

__all__ = ["CardInfo", "Catalogue", "RecipeInfo"]


class CardInfo(Model):
    """One ingredient card (RULES.md section 1)."""

    id: str
    """``<ingredient>-<value>``, e.g. ``pumpkin-4``: how every message names a card."""
    ingredient: str
    """The ingredient key, e.g. ``pumpkin``."""
    colour: str
    value: int
    plant: bool
    symbol: str | None = None
    """``explode``, ``wand``, or absent."""


class RecipeInfo(Model):
    """One recipe card (RULES.md section 8); ``colour`` or ``measure`` parameterise it."""

    id: str
    kind: str
    """``both_of_colour``, ``one_of_colour``, ``last_card``, ``fewer`` or ``plants``."""
    bonus: int
    three_players: bool
    """Used in three-player games."""
    colour: str | None = None
    measure: str | None = None
    """For ``fewer``: ``explode``, ``wand``, ``cards`` or ``fours``."""


class Catalogue(Model):
    """The whole card set, so a client needs nothing but the protocol."""

    colours: tuple[str, ...]
    """All seven colours."""
    player_colours: tuple[str, ...]
    """``white`` and ``black``: seats 0 and 1."""
    third_colours: tuple[str, ...]
    """The colours seat 2 may have."""
    cards: tuple[CardInfo, ...]
    recipes: tuple[RecipeInfo, ...]
