"""The one view function (RULES.md section 9): the full state projected for one seat or
a spectator. Nothing else in the project reads hidden state to build what a person sees.

What a view never holds: the deck order (only its size), the seed, a kettle card below
the top before the end (except the seat's own kettle under ``memory=casual``), and
another seat's recipes before the end. Once the game is over every kettle and every
recipe is revealed with the score breakdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .cards import CARD_IDS, IS_EXPLODE, IS_WAND
from .clock import ClockView
from .frozen import quick
from .game import EMPTY, Game, Take
from .geometry import LINE_IDS
from .options import Options
from .result import GameResult
from .scoring import score_game

__all__ = ["KettleView", "TakeChoice", "View", "view", "views"]


@quick
@dataclass(frozen=True, slots=True)
class KettleView:
    seat: int
    colour: str
    count: int
    top: str | None
    cards: tuple[str, ...] | None  # bottom first; only when this viewer may see them


@quick
@dataclass(frozen=True, slots=True)
class TakeChoice:
    """A card the player to move may take, and what taking it would involve (public:
    anyone can work it out from the grid)."""

    card: str
    row: int
    col: int
    symbol: str | None  # "explode" or "wand" if the symbol would act, else None
    ends_game: bool  # taking it ends the game: keep or discard


@quick
@dataclass(frozen=True, slots=True)
class View:
    seat: int | None  # None for a spectator
    players: int
    options: Options  # the public table options: ``seed`` is always None
    colours: tuple[str, ...]
    grid: tuple[tuple[str | None, ...], ...]
    pawns: tuple[int, ...]
    deck_size: int
    kettles: tuple[KettleView, ...]
    recipes: tuple[tuple[str, ...] | None, ...]  # per seat; None where hidden
    recipe_counts: tuple[int, ...]
    removed: tuple[str, ...]  # out of the game
    ply: int  # takes applied so far
    to_move: int | None
    turn_in_row: int
    line: str | None  # the line the player to move takes from
    choices: tuple[TakeChoice, ...]
    explodable: tuple[int, ...]  # seats an explosion would hit now
    game_over: bool
    ended_by: int | None
    winners: tuple[int, ...]
    scores: tuple[dict[str, Any], ...] | None
    result: GameResult | None  # how the game ended, once it has
    clock: ClockView | None  # a clocked table's times
    takes: tuple[Take, ...] | None  # the mover's own view only: ``Game.legal_actions``

    def to_dict(self) -> dict[str, Any]:
        """Plain data (the options in their public record form, without a seed)."""
        d = asdict(self)
        d["options"] = self.options.to_dict(public=True)
        return d


_NAME: tuple[str | None, ...] = (*CARD_IDS, None)
"""Card ids by index, with ``_NAME[EMPTY]`` (index -1) = None for a gap."""
assert EMPTY == -1


def view(
    game: Game,
    seat: int | None,
    *,
    result: GameResult | None = None,
    clock: ClockView | None = None,
) -> View:
    """Project ``game`` for ``seat`` (0-based), or for a spectator when ``seat`` is None."""
    return views(game, (seat,), result=result, clock=clock)[0]


def _choices(game: Game) -> tuple[TakeChoice, ...]:
    """The cards the player to move may take, and what taking each would involve."""
    grid = game.grid
    last_cards = not game.deck  # only then can a take end the game
    wand_acts = game.turn_in_row == 1
    made = []
    for slot in game.line_slots():
        c = grid[slot]
        ends = last_cards and game.ends_game(slot)
        symbol = None
        if not ends:
            if IS_EXPLODE[c]:
                symbol = "explode"
            elif wand_acts and IS_WAND[c]:
                symbol = "wand"
        key = (c, slot, symbol, ends)
        choice = _CHOICES.get(key)
        if choice is None:
            choice = _CHOICES[key] = TakeChoice(CARD_IDS[c], slot // 6, slot % 6, symbol, ends)
        made.append(choice)
    return tuple(made)


_CHOICES: dict[tuple[int, int, str | None, bool], TakeChoice] = {}
"""Every choice made so far, by card, slot, symbol and ending (at most every card at
every slot four ways): a choice is immutable, so views share one instead of making it
again each take."""


def views(
    game: Game,
    seats: Sequence[int | None],
    *,
    result: GameResult | None = None,
    clock: ClockView | None = None,
) -> list[View]:
    """``[view(game, s) for s in seats]``, with the parts every viewer may see built
    once and shared (the views are immutable), for a server sending one take's views to
    every seat and spectator of a table.

    A ``result`` ends the game as the views show it, early or not (section 12): no one
    is to move, every kettle and recipe is revealed, the position is scored as it
    stands and the result's winners are the winners. ``clock`` is the table's clock.
    The seat to move (only it) gets ``takes``, every distinct legal decision."""
    for seat in seats:
        if seat is not None and not 0 <= seat < game.players:
            raise ValueError(f"no seat {seat}")
    opts = game.options
    over = game.over or result is not None
    colours = opts.colours
    casual = opts.memory == "casual"
    kettles = tuple(
        KettleView(s, colours[s], len(k), _NAME[k[-1]] if k else None, _names(k) if over else None)
        for s, k in enumerate(game.kettles)
    )
    choices: tuple[TakeChoice, ...] = ()
    line = None
    explodable: tuple[int, ...] = ()
    if not over:
        line = LINE_IDS[game.line()]
        explodable = tuple(game.explodable())
        choices = _choices(game)
    scores = None
    winners: tuple[int, ...] = ()
    if over:
        scored = score_game(game)
        scores = tuple(s.to_dict() for s in scored.scores)
        winners = scored.winners if result is None else result.winners
    n = tuple(map(_NAME.__getitem__, game.grid))
    grid_rows = (n[0:6], n[6:12], n[12:18], n[18:24], n[24:30], n[30:36])
    pawns = tuple(game.pawns)
    recipe_counts = tuple(map(len, game.recipes))
    removed = _names(game.out)
    public_recipes: tuple[tuple[str, ...] | None, ...] = (
        tuple(map(tuple, game.recipes)) if over else (None,) * game.players
    )
    options = opts.public()
    to_move = None if over else game.to_move
    ended_by = game.ended_by if game.over else None
    takes: tuple[Take, ...] | None = None
    if to_move is not None and to_move in seats:
        takes = tuple(game.legal_actions())
    out = []
    for seat in seats:
        mine = kettles
        recipes = public_recipes
        if seat is not None and not over:
            hidden = list(public_recipes)
            hidden[seat] = tuple(game.recipes[seat])
            recipes = tuple(hidden)
            if casual:  # section 10: each player may see their own kettle
                k = kettles[seat]
                own = KettleView(k.seat, k.colour, k.count, k.top, _names(game.kettles[seat]))
                mine = (*kettles[:seat], own, *kettles[seat + 1 :])
        out.append(
            View(
                seat,
                game.players,
                options,
                colours,
                grid_rows,
                pawns,
                len(game.deck),
                mine,
                recipes,
                recipe_counts,
                removed,
                game.ply,
                to_move,
                game.turn_in_row,
                line,
                choices,
                explodable,
                over,
                ended_by,
                winners,
                scores,
                result,
                clock,
                takes if seat == to_move else None,
            )
        )
    return out


def _names(cards: Sequence[int]) -> tuple[str, ...]:
    return tuple(map(CARD_IDS.__getitem__, cards))
