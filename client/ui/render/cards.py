"""Cards, colours and seats in letters and styles: the palette, the pawn tags, the
short ingredient names (the card data's, in the language spoken), ``Cards`` (card facts
by id) and ``seat_label``.

Every card carries its colour in letters (the colour word, or its two-letter tag), not
only as a background, so ``NO_COLOR`` loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from client.i18n import N_, _, colour_tag, ingredient_short
from client.i18n import colour_word as colour_name
from client.i18n import ingredient as ingredient_name
from protocol import messages as m
from shared.cards import COLOURS

from .text import GLUE

__all__ = [
    "CELL",
    "COLOUR_STYLE",
    "COLOUR_TAG",
    "PAWN_STYLE",
    "PAWN_TAG",
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
SYMBOL_WORDS = {"explode": N_("boom"), "wand": N_("wand")}
SYMBOL_GLYPH = {"explode": "*", "wand": "~"}


class _Translated(Mapping[str, str]):
    """A table of words by key, in the language spoken when read."""

    def __init__(self, keys: Sequence[str], word: Callable[[str], str]) -> None:
        self._keys, self._word = tuple(keys), word

    def __getitem__(self, key: str) -> str:
        if key not in self._keys:
            raise KeyError(key)
        return self._word(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


PAWN_TAG: Mapping[str, str] = _Translated(COLOURS, lambda c: colour_tag(c).capitalize())
"""``Wh``: a pawn's tag, the colour's two letters in the language spoken."""
COLOUR_TAG: Mapping[str, str] = _Translated(COLOURS, colour_tag)
"""``wh``: a card's colour tag."""
SYMBOL_WORD: Mapping[str, str] = _Translated(tuple(SYMBOL_WORDS), lambda s: _(SYMBOL_WORDS[s]))
"""``boom``, ``wand``: a symbol in a word."""


def short_name(ingredient: str) -> str:
    """``Pumpkn``: six letters at most, from the card data."""
    return ingredient_short(ingredient)


def long_name(ingredient: str) -> str:
    """``Eye of newt``, from the card data."""
    return ingredient_name(ingredient)


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
        return _("{ingredient} {value}").format(
            ingredient=long_name(info.ingredient), value=info.value
        )

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
            said = f"{info.value} {colour_name(info.colour)}"  # a word too long: its tag
            if len(said) > CELL:
                said = f"{info.value} {colour_tag(info.colour)}"
            return f"{name:<6}{glyph}", said
        sym = SYMBOL_WORD[info.symbol] if info.symbol else ""
        said = f"{info.value} {sym}".rstrip()
        if len(said) > 9:  # a symbol word too long for the cell: its glyph
            said = f"{info.value} {glyph}"
        return name, said, colour_name(info.colour)

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
        return f"{self.short(card)} ({colour_name(info.colour)})" if info else card


def colour_word(colour: str) -> str:
    """``White``: a seat's colour, as it names the seat."""
    word = colour_name(colour)
    return word[:1].upper() + word[1:]


def seat_label(view_or_colours: Sequence[str], seat: int, names: Sequence[str | None]) -> str:
    """``White (Ann)``"""
    colour = (
        colour_word(view_or_colours[seat])
        if seat < len(view_or_colours)
        else _("Seat {number}").format(number=seat)
    )
    name = names[seat] if seat < len(names) else None
    return _("{colour} ({name})").format(colour=colour, name=name) if name else colour
