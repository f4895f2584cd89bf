"""The card set and the recipe cards (RULES.md sections 1 and 8), loaded from data.

The card set lives in ``shared/data/cards.json`` so that an owner of the physical game can
correct it (which cards carry symbols, the recipe bonuses) without touching code. It is
loaded and validated once, here, at import time; everything else reads the tables below.

Cards are numbered 0..55 internally for speed: ``index = ingredient * 4 + (value - 1)``.
Outside the engine a card is named by its id, ``"<ingredient>-<value>"``, e.g. ``pumpkin-4``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, get_args

__all__ = [
    "CARDS",
    "CARD_COUNT",
    "CARD_IDS",
    "CARD_INDEX",
    "COLOURS",
    "INGREDIENTS",
    "PLAYER_COLOURS",
    "RECIPES",
    "RECIPE_IDS",
    "THIRD_COLOURS",
    "Card",
    "CardSetError",
    "Ingredient",
    "Recipe",
    "ThirdColour",
    "card_index",
    "load_card_set",
]

SYMBOLS = ("explode", "wand")


class CardSetError(ValueError):
    """The card-set data file is malformed; raised at import, naming the bad entry."""


@dataclass(frozen=True, slots=True)
class Ingredient:
    index: int
    key: str
    colour: str
    plant: bool


@dataclass(frozen=True, slots=True)
class Card:
    index: int
    id: str
    ingredient: int
    key: str
    colour: str
    value: int
    plant: bool
    symbol: str | None  # "explode", "wand" or None


@dataclass(frozen=True, slots=True)
class Recipe:
    """A recipe card (section 8). ``kind`` selects the condition; the other fields
    parameterise it: ``colour`` for the colour recipes, ``measure`` for the "fewer" ones
    (one of ``explode``, ``wand``, ``cards``, ``fours``)."""

    id: str
    kind: str
    bonus: int
    three_players: bool
    colour: str | None = None
    measure: str | None = None


@dataclass(frozen=True, slots=True)
class CardSet:
    colours: tuple[str, ...]
    player_colours: tuple[str, ...]
    ingredients: tuple[Ingredient, ...]
    cards: tuple[Card, ...]
    recipes: tuple[Recipe, ...]


_RECIPE_KINDS = {"both_of_colour", "one_of_colour", "last_card", "fewer", "plants"}
_MEASURES = {"explode", "wand", "cards", "fours"}


def _require(cond: bool, msg: str) -> None:
    if not cond:
        raise CardSetError(msg)


def load_card_set(raw: dict[str, Any]) -> CardSet:
    """Validate a card-set document and build the tables; raises ``CardSetError``."""
    _require(raw.get("format") == "kupferkessel-cards/1", "format: expected kupferkessel-cards/1")
    colours = tuple(raw.get("colours", ()))
    _require(len(colours) == 7 and len(set(colours)) == 7, "colours: need 7 distinct colours")
    player_colours = tuple(raw.get("player_colours", ()))
    _require(player_colours == ("white", "black"), "player_colours: must be white, black")
    _require(all(c in colours for c in player_colours), "player_colours: unknown colour")
    _require(list(raw.get("values", [])) == [1, 2, 3, 4], "values: must be 1, 2, 3, 4")
    ings_raw = raw.get("ingredients", [])
    _require(len(ings_raw) == 14, "ingredients: need 14")
    ingredients: list[Ingredient] = []
    cards: list[Card] = []
    for i, ing in enumerate(ings_raw):
        key = ing.get("key")
        _require(isinstance(key, str) and key.isidentifier(), f"ingredients[{i}].key: bad key")
        colour = ing.get("colour")
        _require(colour in colours, f"ingredients[{i}].colour: unknown colour {colour!r}")
        plant = ing.get("plant")
        _require(isinstance(plant, bool), f"ingredients[{i}].plant: must be true or false")
        symbols = ing.get("symbols", {})
        _require(isinstance(symbols, dict), f"ingredients[{i}].symbols: must be an object")
        for v, s in symbols.items():
            _require(v in ("1", "2", "3", "4"), f"ingredients[{i}].symbols: bad value {v!r}")
            _require(s in SYMBOLS, f"ingredients[{i}].symbols: bad symbol {s!r}")
        ingredients.append(Ingredient(i, key, colour, plant))
        for value in (1, 2, 3, 4):
            cards.append(
                Card(
                    index=i * 4 + value - 1,
                    id=f"{key}-{value}",
                    ingredient=i,
                    key=key,
                    colour=colour,
                    value=value,
                    plant=plant,
                    symbol=symbols.get(str(value)),
                )
            )
    keys = [g.key for g in ingredients]
    _require(len(set(keys)) == 14, "ingredients: keys must be distinct")
    for c in colours:
        n = sum(1 for g in ingredients if g.colour == c)
        _require(n == 2, f"ingredients: colour {c} needs exactly 2 ingredients, has {n}")
    recipes: list[Recipe] = []
    for i, r in enumerate(raw.get("recipes", [])):
        rid, kind, bonus = r.get("id"), r.get("kind"), r.get("bonus")
        _require(isinstance(rid, str) and rid != "", f"recipes[{i}].id: bad id")
        _require(kind in _RECIPE_KINDS, f"recipes[{i}].kind: unknown kind {kind!r}")
        _require(isinstance(bonus, int) and bonus > 0, f"recipes[{i}].bonus: positive integer")
        colour = r.get("colour")
        measure = r.get("measure")
        if kind in ("both_of_colour", "one_of_colour"):
            _require(colour in colours, f"recipes[{i}].colour: unknown colour {colour!r}")
        if kind == "fewer":
            _require(measure in _MEASURES, f"recipes[{i}].measure: unknown {measure!r}")
        recipes.append(
            Recipe(rid, kind, bonus, bool(r.get("three_players", False)), colour, measure)
        )
    _require(len({r.id for r in recipes}) == len(recipes), "recipes: ids must be distinct")
    _require(sum(r.three_players for r in recipes) >= 3, "recipes: need 3+ three-player recipes")
    return CardSet(colours, player_colours, tuple(ingredients), tuple(cards), tuple(recipes))


def _load_default() -> CardSet:
    text = resources.files("shared").joinpath("data/cards.json").read_text(encoding="utf-8")
    return load_card_set(json.loads(text))


CARD_SET = _load_default()
COLOURS: tuple[str, ...] = CARD_SET.colours
PLAYER_COLOURS: tuple[str, ...] = CARD_SET.player_colours
ThirdColour = Literal["lilac", "brown", "green", "gray"]
"""The colours the third seat may have (section 7)."""
THIRD_COLOURS: tuple[ThirdColour, ...] = get_args(ThirdColour)
INGREDIENTS: tuple[Ingredient, ...] = CARD_SET.ingredients
CARDS: tuple[Card, ...] = CARD_SET.cards
CARD_COUNT = len(CARDS)
CARD_IDS: tuple[str, ...] = tuple(c.id for c in CARDS)
CARD_INDEX: dict[str, int] = {c.id: c.index for c in CARDS}
RECIPES: dict[str, Recipe] = {r.id: r for r in CARD_SET.recipes}
RECIPE_IDS: tuple[str, ...] = tuple(r.id for r in CARD_SET.recipes)

# Flat per-card tables for the hot paths of the engine.
VALUE: tuple[int, ...] = tuple(c.value for c in CARDS)
INGREDIENT_OF: tuple[int, ...] = tuple(c.ingredient for c in CARDS)
IS_EXPLODE: tuple[bool, ...] = tuple(c.symbol == "explode" for c in CARDS)
IS_WAND: tuple[bool, ...] = tuple(c.symbol == "wand" for c in CARDS)
IS_PLAYER_COLOUR: tuple[bool, ...] = tuple(c.colour in PLAYER_COLOURS for c in CARDS)
COLOUR_OF: tuple[str, ...] = tuple(c.colour for c in CARDS)


def card_index(card_id: str) -> int:
    """The internal index of a card id; ``KeyError`` for an unknown id."""
    return CARD_INDEX[card_id]
