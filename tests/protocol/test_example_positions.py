"""The positions of ``docs/examples/positions/``, held to the engine: each file's view
(as protocol 1.1 sends it, ``takes`` set apart) and its ``takes`` are exactly what the
server makes of the file's deal and history, so a client author can check their own
rules code against them offline (issue 22, "Positions with their legal takes").

``KK_EXAMPLES_WRITE=1 pytest tests/protocol/test_example_positions.py`` writes them
again from the engine; the positions are found in seeded random games by what they
show (``FEATURES``).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from protocol.convert import view_model
from protocol.messages import TakeOption
from shared.cards import CARD_IDS, IS_WAND
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record
from shared.view import View, views

DIR = Path(__file__).resolve().parents[2] / "docs" / "examples" / "positions"


def _take_fields(take: Take) -> dict[str, Any]:
    return TakeOption(
        card=take.card, special=take.special, targets=take.targets, keep=take.keep
    ).model_dump(mode="json", exclude_defaults=True)


def _position(options: dict[str, Any], history: list[dict[str, Any]]) -> tuple[Game, View]:
    """The game after ``history`` and the view of its seat to move."""
    _, game = Record.deal(Options.from_dict(options), [])
    for t in history:
        take = Take(t["card"], t.get("special", True), t.get("targets"), t.get("keep", True))
        game.apply(take, game.to_move, [])
    return game, views(game, [game.to_move])[0]


def _content(about: str, options: dict[str, Any], history: list[dict[str, Any]]) -> dict[str, Any]:
    game, view = _position(options, history)
    wire = view_model(view).model_dump(mode="json", exclude_defaults=True)
    takes = wire.pop("takes")
    assert takes == [_take_fields(t) for t in game.legal_actions()]
    return {
        "about": about,
        "options": options,
        "history": history,
        "seat": view.seat,
        "view": wire,
        "takes": takes,
    }


Feature = Callable[[Game, View], bool]
FEATURES: dict[str, tuple[str, dict[str, Any], Feature]] = {
    "first-take": (
        "The first decision of a two-player game: three or four cards, no symbol acts yet.",
        {"players": 2},
        lambda g, v: g.ply == 0,
    ),
    "explode-two-targets": (
        "Three players: an exploding kettle card with two kettles to hit, listed without"
        " the symbol, at each target alone and at both.",
        {"players": 3},
        lambda g, v: len(v.explodable) == 2 and any(c.symbol == "explode" for c in v.choices),
    ),
    "explode-nothing": (
        "An exploding kettle card while no kettle can be hit: only special false.",
        {"players": 2},
        lambda g, v: not v.explodable and any(c.symbol == "explode" for c in v.choices),
    ),
    "wand-second-turn": (
        "The extra turn of a wand: a wand in the line does nothing now (special false).",
        {"players": 2},
        lambda g, v: v.turn_in_row == 2 and any(IS_WAND[CARD_IDS.index(c.card)] for c in v.choices),
    ),
    "ends-game": (
        "The card that ends the game: listed to keep and to discard.",
        {"players": 3, "recipes": "on", "memory": "casual"},
        lambda g, v: any(c.ends_game for c in v.choices),
    ),
}


def _find(options: dict[str, Any], feature: Feature) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first position with ``feature`` in seeded random games (seed, then history)."""
    for seed in range(1, 500):
        opts = {**options, "seed": seed}
        _, game = Record.deal(Options.from_dict(opts), [])
        rng = random.Random(seed)
        history: list[dict[str, Any]] = []
        while not game.over:
            view = views(game, [game.to_move])[0]
            if feature(game, view):
                return opts, history
            actions = game.legal_actions()
            take = actions[rng.randrange(len(actions))]
            history.append(_take_fields(take))
            game.apply(take, game.to_move, [])
    raise AssertionError("no such position")


def test_write_positions() -> None:
    if not os.environ.get("KK_EXAMPLES_WRITE"):
        pytest.skip("KK_EXAMPLES_WRITE=1 writes the positions again")
    DIR.mkdir(parents=True, exist_ok=True)
    for name, (about, options, feature) in FEATURES.items():
        opts, history = _find(options, feature)
        text = json.dumps(_content(about, opts, history), indent=1) + "\n"
        (DIR / f"{name}.json").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_a_position_is_what_the_engine_makes_of_it(name: str) -> None:
    stored = json.loads((DIR / f"{name}.json").read_text(encoding="utf-8"))
    assert stored == _content(stored["about"], stored["options"], stored["history"])
    feature = FEATURES[name][2]
    game, view = _position(stored["options"], stored["history"])
    assert feature(game, view), name  # it still shows what it is there for
