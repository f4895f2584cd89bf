"""Final scoring (RULES.md section 6) with a per-ingredient breakdown, and recipes (section 8).

The functions here work on card indices and plain sequences, so they score a finished
``Game`` (``score_game``) as readily as a hand-written kettle (``score_kettles``). They
read a game through ``Scored``, the few fields scoring needs, so that ``shared.game``
(which scores the game it ends) depends on this module and not the other way round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import (
    CARD_IDS,
    CARD_INDEX,
    INGREDIENT_OF,
    INGREDIENTS,
    IS_EXPLODE,
    IS_WAND,
    RECIPES,
    VALUE,
    Recipe,
)
from .frozen import quick
from .options import Options

__all__ = [
    "FOUR_OF_A_KIND_BONUS",
    "VALUE_ONE_BONUS",
    "IngredientScore",
    "RecipeScore",
    "Result",
    "Score",
    "Scored",
    "recipe_met",
    "score_game",
    "score_kettles",
    "totals",
]

VALUE_ONE_BONUS = 5
FOUR_OF_A_KIND_BONUS = 5


@quick
@dataclass(frozen=True, slots=True)
class IngredientScore:
    """One ingredient of a kettle: ``points`` (doubled if ``doubled``) plus ``bonus``
    (the +5 for all four, never doubled)."""

    ingredient: str
    colour: str
    cards: tuple[str, ...]
    points: int
    doubled: bool
    bonus: int

    @property
    def total(self) -> int:
        return self.points + self.bonus


@quick
@dataclass(frozen=True, slots=True)
class RecipeScore:
    id: str
    met: bool
    bonus: int  # the bonus earned: the card's bonus if met, else 0


@quick
@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    colour: str
    kettle: tuple[str, ...]  # bottom first
    ingredients: tuple[IngredientScore, ...]
    value_ones: int
    value_one_bonus: int
    recipes: tuple[RecipeScore, ...]
    total: int

    def to_dict(self) -> dict[str, Any]:
        """Plain data, each ingredient with its ``total`` (built by hand: ``asdict``
        deep-copies and was the slowest part of a game-over view)."""
        return {
            "seat": self.seat,
            "colour": self.colour,
            "kettle": self.kettle,
            "ingredients": tuple(
                {
                    "ingredient": i.ingredient,
                    "colour": i.colour,
                    "cards": i.cards,
                    "points": i.points,
                    "doubled": i.doubled,
                    "bonus": i.bonus,
                    "total": i.total,
                }
                for i in self.ingredients
            ),
            "value_ones": self.value_ones,
            "value_one_bonus": self.value_one_bonus,
            "recipes": tuple({"id": r.id, "met": r.met, "bonus": r.bonus} for r in self.recipes),
            "total": self.total,
        }


@quick
@dataclass(frozen=True, slots=True)
class Result:
    scores: tuple[Score, ...]
    winners: tuple[int, ...]  # every seat with the highest total: ties share the win


class Scored(Protocol):
    """What scoring reads of a game: ``shared.game.Game`` is one.

    A structural type, so that scoring needs no import of the game that calls it.
    """

    @property
    def options(self) -> Options:
        """The table options: scoring reads each seat's colour."""

    @property
    def kettles(self) -> Sequence[Sequence[int]]:
        """Each seat's kettle as card indices, bottom first."""

    @property
    def recipes(self) -> Sequence[Sequence[str]]:
        """Each seat's recipe ids (empty without the recipe variant)."""

    @property
    def ended_by(self) -> int:
        """The seat that took the last card, -1 while the game runs."""


def _measure(kettle: Sequence[int], measure: str | None) -> int:
    if measure == "explode":
        return sum(1 for c in kettle if IS_EXPLODE[c])
    if measure == "wand":
        return sum(1 for c in kettle if IS_WAND[c])
    if measure == "fours":
        return sum(1 for c in kettle if VALUE[c] == 4)
    return len(kettle)


def recipe_met(recipe: Recipe, seat: int, kettles: Sequence[Sequence[int]], ended_by: int) -> bool:
    """Whether ``seat`` fulfils ``recipe`` at the end (section 8; "fewer than the
    opponent" means strictly fewer than every other player, section 7)."""
    counts = [0] * len(INGREDIENTS)
    for c in kettles[seat]:
        counts[c // 4] += 1
    if recipe.kind == "both_of_colour":
        return all(counts[i.index] >= 3 for i in INGREDIENTS if i.colour == recipe.colour)
    if recipe.kind == "one_of_colour":
        return any(counts[i.index] >= 3 for i in INGREDIENTS if i.colour == recipe.colour)
    if recipe.kind == "last_card":
        return ended_by == seat
    if recipe.kind == "plants":
        return sum(1 for i in INGREDIENTS if i.plant and counts[i.index] >= 3) >= 3
    mine = _measure(kettles[seat], recipe.measure)
    return all(mine < _measure(k, recipe.measure) for s, k in enumerate(kettles) if s != seat)


def score_kettles(
    kettles: Sequence[Sequence[str]],
    colours: Sequence[str],
    recipes: Sequence[Sequence[str]] = (),
    ended_by: int = -1,
) -> Result:
    """Score kettles given as card ids (bottom first) for seats of the given colours."""
    return _score([[CARD_INDEX[c] for c in k] for k in kettles], colours, recipes, ended_by)


def score_game(game: Scored) -> Result:
    """Score a game as it stands (normally once it is over).

    A game that ends is scored several times over (its ``GameOver`` event, its result,
    its final views, its record): the last ``_KEEP`` scorings are kept, keyed by all
    that scoring reads, so the later ones cost a look-up (``bench/take.py``, a game
    besides its takes). A ``Result`` is immutable: sharing it is safe."""
    key = (
        tuple(map(tuple, game.kettles)),
        tuple(game.options.colours),
        tuple(map(tuple, game.recipes)),
        game.ended_by,
    )
    result = _scored.get(key)
    if result is None:
        result = _score(*key)
        if len(_scored) >= _KEEP:
            del _scored[next(iter(_scored))]  # the oldest
        _scored[key] = result
    return result


_KEEP = 64
"""Scorings kept (``score_game``): enough for the tables that end about the same time."""
_scored: dict[
    tuple[tuple[tuple[int, ...], ...], tuple[str, ...], tuple[tuple[str, ...], ...], int], Result
] = {}


def totals(game: Scored) -> list[int]:
    """Each seat's total of ``score_game(game)``, without the breakdown: what a search
    scores its playouts by, many thousand times a decision (``score_game`` builds every
    ingredient's record). tests/shared/test_scoring.py holds it to ``score_game``."""
    kettles = game.kettles
    colours = game.options.colours
    recipes = game.recipes
    out = []
    ones = []
    for seat, kettle in enumerate(kettles):
        count = [0] * _KINDS
        value = [0] * _KINDS
        for c in kettle:
            i = INGREDIENT_OF[c]
            count[i] += 1
            value[i] += VALUE[c]
        own = _OWN_COLOUR[colours[seat]]
        total = 0
        for i in range(_KINDS):
            n = count[i]
            if n:
                points = -value[i] if n == 1 else 0 if n == 2 else value[i]
                if own[i]:
                    points *= 2
                total += points + (FOUR_OF_A_KIND_BONUS if n == 4 else 0)
        if seat < len(recipes):
            for rid in recipes[seat]:
                r = RECIPES[rid]
                if recipe_met(r, seat, kettles, game.ended_by):
                    total += r.bonus
        out.append(total)
        ones.append(sum([1 for c in kettle if VALUE[c] == 1]))
    most = max(ones)
    if ones.count(most) == 1:
        out[ones.index(most)] += VALUE_ONE_BONUS
    return out


_KINDS = len(INGREDIENTS)
_OWN_COLOUR: dict[str, tuple[bool, ...]] = {
    colour: tuple(i.colour == colour for i in INGREDIENTS)
    for colour in {i.colour for i in INGREDIENTS}
}


def _score(
    kettles: Sequence[Sequence[int]],
    colours: Sequence[str],
    recipes: Sequence[Sequence[str]],
    ended_by: int,
) -> Result:
    ones = [sum(1 for c in k if VALUE[c] == 1) for k in kettles]
    most = max(ones)
    one_winner = ones.index(most) if ones.count(most) == 1 else -1
    scores = []
    for seat, kettle in enumerate(kettles):
        by_ing: dict[int, list[int]] = {}
        for c in kettle:
            by_ing.setdefault(c // 4, []).append(c)
        parts = []
        for ing in sorted(by_ing):
            cards = sorted(by_ing[ing])
            info = INGREDIENTS[ing]
            n = len(cards)
            values = sum(VALUE[c] for c in cards)
            points = -values if n == 1 else 0 if n == 2 else values
            doubled = info.colour == colours[seat]
            if doubled:
                points *= 2
            parts.append(
                IngredientScore(
                    info.key,
                    info.colour,
                    tuple(CARD_IDS[c] for c in cards),
                    points,
                    doubled,
                    FOUR_OF_A_KIND_BONUS if n == 4 else 0,
                )
            )
        rec = []
        hand = recipes[seat] if seat < len(recipes) else ()
        for rid in hand:
            r = RECIPES[rid]
            met = recipe_met(r, seat, kettles, ended_by)
            rec.append(RecipeScore(rid, met, r.bonus if met else 0))
        bonus1 = VALUE_ONE_BONUS if seat == one_winner else 0
        total = sum(p.total for p in parts) + bonus1 + sum(r.bonus for r in rec)
        scores.append(
            Score(
                seat,
                colours[seat],
                tuple(CARD_IDS[c] for c in kettle),
                tuple(parts),
                ones[seat],
                bonus1,
                tuple(rec),
                total,
            )
        )
    best = max(s.total for s in scores)
    return Result(tuple(scores), tuple(s.seat for s in scores if s.total == best))
