"""Helpers for the engine tests: hand-made records and random legal play."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from shared.game import Game
from shared.options import Options
from shared.record import Record

RULES_EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "rules-example.json"
"""The record printed in RULES.md section 11.4, as shipped in docs/examples."""

# A full 6x6 grid for hand-made records: the 32 ingredient slots filled with cards that
# carry no symbol and are not player-coloured unless a test puts something else there.
GRID = [
    [None, "root-1", "root-3", "root-4", "rat_tail-1", None],
    ["rat_tail-3", "rat_tail-4", "moss-1", "moss-3", "moss-4", "frog_slime-1"],
    ["frog_slime-3", "frog_slime-4", "fungus-1", "fungus-3", "fungus-4", "toad-1"],
    ["toad-3", "toad-4", "pumpkin-1", "pumpkin-3", "pumpkin-4", "snake_skin-1"],
    ["snake_skin-3", "snake_skin-4", "vine-1", "vine-3", "vine-4", "dragon_blood-1"],
    [None, "dragon_blood-3", "dragon_blood-4", "whiskers-1", "whiskers-2", None],
]


def rules_example() -> dict[str, Any]:
    """The record printed in RULES.md section 11.4."""
    raw: dict[str, Any] = json.loads(RULES_EXAMPLE.read_text(encoding="utf-8"))
    return raw


def record(
    *,
    grid: list[list[str | None]] | None = None,
    deck: list[str] | None = None,
    kettles: list[list[str]],
    pawns: list[int],
    actions: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    **setup: Any,
) -> dict[str, Any]:
    """A hand-made record dict with an explicit set-up (defaults: ``GRID``, empty deck)."""
    return {
        "format": "kupferkessel-record/1",
        "options": options or {},
        "setup": {
            "grid": copy.deepcopy(grid if grid is not None else GRID),
            "deck": deck or [],
            "kettles": kettles,
            "pawns": pawns,
            **setup,
        },
        "actions": actions or [],
    }


def replay(raw: dict[str, Any], upto: int | None = None) -> Game:
    """Read a record dict as a file would be read and replay it."""
    return Record.from_dict(raw).replay(upto)


def play_random(options: Options, rng: random.Random, limit: int = 1000) -> Record:
    """A complete game of uniformly random legal takes, as a record."""
    rec = Record.new(options)
    game = rec.replay()
    while not game.over:
        assert len(rec.actions) < limit, "a game that does not end"
        actions = game.legal_actions()
        take = actions[rng.randrange(len(actions))]
        game.apply(take)
        rec.actions.append(take)
    return rec


def diagonal_grid(cards: list[str]) -> list[list[str | None]]:
    """A sparse grid (legal only with an empty deck): ``cards`` at (1,1), (2,2), (3,3),
    (4,4), one card in each selectable line, so taking any of them ends the game."""
    grid: list[list[str | None]] = [[None] * 6 for _ in range(6)]
    for i, card in enumerate(cards, start=1):
        grid[i][i] = card
    return grid


def with_cards(placed: dict[tuple[int, int], str | None]) -> list[list[str | None]]:
    """``GRID`` with some slots replaced (a replaced card is then out of the game)."""
    grid = copy.deepcopy(GRID)
    for (row, col), card in placed.items():
        grid[row][col] = card
    return grid
