"""Cards, colours and seats in letters and styles: the palette, the pawn tags, the
short ingredient names, ``Cards`` (card facts by id) and ``seat_label``.

Every card carries its colour in letters (the colour word, or its two-letter tag), not
only as a background, so ``NO_COLOR`` loses nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from protocol import messages as m

from .text import GLUE

__all__ = [
    "CELL",
    "COLOUR_STYLE",
    "COLOUR_TAG",
    "PAWN_STYLE",
    "PAWN_TAG",
    "SHORT",
    "SYMBOL_GLYPH",
    "SYMBOL_WORD",
    "Cards",
    "colour_word",
    "long_name",
    "seat_label",
    "short_name",
]


CELL = 7  # characters of a card cell at 80x24; one blank separates cells

# A real palette: background and text colour of each card colour.
COLOUR_STYLE: dict[str, str] = {
    "white": "bg:#e8e8e8 fg:#000000",
    "black": "bg:#262626 fg:#ffffff",
    "gray": "bg:#8a8a8a fg:#000000",
    "blue": "bg:#2f6fdf fg:#ffffff",
    "brown": "bg:#8b5a2b fg:#ffffff",
    "green": "bg:#2e8b3e fg:#ffffff",
    "lilac": "bg:#b58ad8 fg:#000000",
}
PAWN_STYLE: dict[str, str] = {
    "white": "fg:#ffffff bold",
    "black": "fg:#000000 bg:#bcbcbc bold",
    "gray": "fg:#a8a8a8 bold",
    "blue": "fg:#5f87ff bold",
    "brown": "fg:#c08040 bold",
    "green": "fg:#40c060 bold",
    "lilac": "fg:#d0a0ff bold",
}
PAWN_TAG = {
    "white": "Wh",
    "black": "Bk",
    "gray": "Gy",
    "blue": "Bl",
    "brown": "Br",
    "green": "Gr",
    "lilac": "Li",
}
SHORT = {
    "whiskers": "Whiskr",
    "eye_of_newt": "Newt",
    "bat_wing": "BatWng",
    "spider_web": "Spider",
    "root": "Root",
    "rat_tail": "RatTl",
    "moss": "Moss",
    "frog_slime": "Frog",
    "fungus": "Fungus",
    "toad": "Toad",
    "pumpkin": "Pumpkn",
    "snake_skin": "Snake",
    "vine": "Vine",
    "dragon_blood": "Dragon",
}
SYMBOL_WORD = {"explode": "boom", "wand": "wand"}
SYMBOL_GLYPH = {"explode": "*", "wand": "~"}
COLOUR_TAG = {c: t.lower() for c, t in PAWN_TAG.items()}


def short_name(ingredient: str) -> str:
    return SHORT.get(ingredient, ingredient.replace("_", "")[:CELL].capitalize())


def long_name(ingredient: str) -> str:
    return ingredient.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Cards:
    """Card facts from the server's catalogue, by card id."""

    by_id: dict[str, m.CardInfo]

    @staticmethod
    def of(catalogue: m.Catalogue) -> Cards:
        return Cards({c.id: c for c in catalogue.cards})

    def colour(self, card: str) -> str:
        info = self.by_id.get(card)
        return info.colour if info else "gray"

    def name(self, card: str) -> str:
        """``Whiskers 3``"""
        info = self.by_id.get(card)
        if info is None:
            return card
        return f"{long_name(info.ingredient)} {info.value}"

    def short(self, card: str) -> str:
        """``Whiskr 3 boom``"""
        info = self.by_id.get(card)
        if info is None:
            return card
        sym = f" {SYMBOL_WORD[info.symbol]}" if info.symbol else ""
        return f"{short_name(info.ingredient)} {info.value}{sym}"

    def cell(self, card: str, lines: int = 2) -> tuple[str, ...]:
        """The lines of a card's cell, each at most ``CELL`` (9 for three lines) wide:
        one line ``Toa2*br`` (name, value, symbol glyph, colour tag); two lines
        ``Toad  *`` / ``2 brown``; three lines ``Toad`` / ``2 boom`` / ``brown``."""
        info = self.by_id.get(card)
        if info is None:
            return (card[:CELL],) + ("",) * (lines - 1)
        glyph = SYMBOL_GLYPH[info.symbol] if info.symbol else " "
        name = short_name(info.ingredient)
        if lines == 1:
            return (f"{name[:3]}{info.value}{glyph}{COLOUR_TAG.get(info.colour, '??')}",)
        if lines == 2:
            return f"{name:<6}{glyph}", f"{info.value} {info.colour}"
        sym = SYMBOL_WORD[info.symbol] if info.symbol else ""
        return name, f"{info.value} {sym}".rstrip(), info.colour

    def value(self, card: str) -> int:
        info = self.by_id.get(card)
        return info.value if info else 0

    def grouped(self, cards: Sequence[str]) -> str:
        """``Spider 1 2 4, Moss 2``: cards by ingredient, in the catalogue's order,
        values rising; an ingredient's group is never broken across lines."""
        order = {c.ingredient: i for i, c in reversed(list(enumerate(self.by_id.values())))}
        groups: dict[str, list[int]] = {}
        for card in cards:
            info = self.by_id.get(card)
            if info is not None:
                groups.setdefault(info.ingredient, []).append(info.value)
        return ", ".join(
            GLUE.join([short_name(ing), *map(str, sorted(groups[ing]))])
            for ing in sorted(groups, key=lambda i: order.get(i, 99))
        )

    def marked(self, card: str) -> str:
        """``Toad 2 boom (brown)``: a card in words with its colour, for panels."""
        info = self.by_id.get(card)
        return f"{self.short(card)} ({info.colour})" if info else card


def colour_word(colour: str) -> str:
    return colour.capitalize()


def seat_label(view_or_colours: Sequence[str], seat: int, names: Sequence[str | None]) -> str:
    """``White (Ann)``"""
    colour = colour_word(view_or_colours[seat]) if seat < len(view_or_colours) else f"Seat {seat}"
    name = names[seat] if seat < len(names) else None
    return f"{colour} ({name})" if name else colour
