"""Bots see what a person in their seat sees, and nothing else (RULES.md section 9).

Three proofs: a harness that hands bots only deep copies of views and events while the
real game records any read of it; the bot modules' imports and names, checked in their
source; and positions that differ only in hidden information (deck order, other seats'
recipes, kettle cards nobody saw) giving the very same decisions.
"""

from __future__ import annotations

import ast
import copy
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import shared.bots
from shared.bots import LEVELS, Bot, Memory, RandomBot, make_bot
from shared.cards import RECIPES
from shared.events import Event
from shared.game import Game, Take
from shared.options import Options
from shared.view import View, view

from .helpers import random_history, random_options

NAMES = ("random", "greedy", "search", *LEVELS)
_READS: list[str] = []
_THINKING = [False]
_GAMES: list[Game] = []  # the harness's game, for the peeking bot of the control test


class _Sealed(Game):
    """The real game of the harness: notes every attribute read while a bot runs."""

    def __getattribute__(self, name: str) -> Any:
        if _THINKING[0]:
            _READS.append(name)
        return super().__getattribute__(name)


@contextmanager
def _bot_running() -> Iterator[None]:
    _THINKING[0] = True
    try:
        yield
    finally:
        _THINKING[0] = False


def _sealed_play(options: Options, bots: Sequence[Bot]) -> Game:
    events: list[Event] = []
    game = _Sealed.deal(options, events)
    assert type(game) is _Sealed
    _GAMES[:] = [game]

    def tell(batch: list[Event]) -> None:
        for s, bot in enumerate(bots):
            seen, heard = copy.deepcopy(view(game, s)), copy.deepcopy(batch)
            with _bot_running():
                bot.observe(heard, seen)

    tell(events)
    while not game.over:
        seat = game.to_move
        seen = copy.deepcopy(view(game, seat))
        with _bot_running():
            take = bot_take = bots[seat].decide(seen)
        assert isinstance(bot_take, Take)
        events = []
        game.apply(take, seat=seat, events=events)
        tell(events)
    return game


@pytest.mark.parametrize("players", [2, 3])
def test_bots_never_read_the_real_game(players: int) -> None:
    _READS.clear()
    options = Options(players=players, recipes=True, seed=players)
    names = ["expert", "search"] if players == 2 else ["easy", "medium", "hard"]
    bots = [make_bot(n, s, seed=s, iterations=8) for s, n in enumerate(names)]
    assert _sealed_play(options, bots).over
    assert _READS == []


class _Peeker(RandomBot):
    """A cheat, to show the seal works: it looks at the harness's game."""

    def choose(self, view: View, takes: list[Take]) -> Take:
        _ = _GAMES[0].deck
        return super().choose(view, takes)


def test_the_seal_catches_a_peeking_bot() -> None:
    _READS.clear()
    _sealed_play(Options(seed=1), [_Peeker(0), RandomBot(1)])
    assert "deck" in _READS


_ALLOWED_MODULES = {
    "__future__",
    "collections.abc",
    "dataclasses",
    "itertools",
    "math",
    "random",
    "time",
    "typing",
}
# What the bots may take from the engine: the rules tables, the events and view types,
# and the Game class itself, which they use only to play out positions they sampled.
_ALLOWED_ENGINE = {
    "cards": {
        "CARD_COUNT",
        "CARD_IDS",
        "CARD_INDEX",
        "INGREDIENTS",
        "INGREDIENT_OF",
        "IS_EXPLODE",
        "IS_WAND",
        "RECIPES",
        "VALUE",
    },
    "events": {"Discarded", "Event", "Exploded", "Refilled", "Took"},
    "game": {"Game", "Setup", "Take"},
    "geometry": {"LINE_SLOTS", "SPACES", "SPACE_LINE"},
    "options": {"Options"},
    "scoring": {"FOUR_OF_A_KIND_BONUS", "score_game", "score_kettles", "totals"},
    "setup": {"shuffle"},
    "view": {"View"},  # the type, never the function that projects a game
}
_FORBIDDEN_NAMES = {
    "gc",
    "inspect",
    "sys",
    "ctypes",
    "importlib",
    "builtins",
    "__import__",
    "globals",
    "locals",
    "vars",
    "_getframe",
    "f_back",
    "f_locals",
    "get_referrers",
    "get_objects",
}
# Attributes that only the real game or its deal has: the seed, dealing a game.
_FORBIDDEN_ATTRIBUTES = _FORBIDDEN_NAMES | {"seed", "deal", "deal_setup", "_dealt"}


def test_bot_modules_import_nothing_that_could_reach_the_real_game() -> None:
    """``match.py`` is the host (it holds the game and projects views); the bots are the
    rest of the package."""
    package = Path(shared.bots.__file__).parent
    files = sorted(p for p in package.glob("*.py") if p.name != "match.py")
    expected = {"base.py", "memory.py", "greedy.py", "search.py", "ismcts.py", "playout.py"}
    expected.add("appraise.py")  # the analysis's appraisal of a decision is held alike
    assert expected <= {p.name for p in files}
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert {a.name for a in node.names} <= _ALLOWED_MODULES, path.name
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0:
                    assert node.module in _ALLOWED_MODULES, (path.name, node.module)
                elif node.level == 2:
                    allowed = _ALLOWED_ENGINE.get(node.module or "", set())
                    names = {a.name for a in node.names}
                    assert names <= allowed, (path.name, node.module, names - allowed)
            elif isinstance(node, ast.Name):
                assert node.id not in _FORBIDDEN_NAMES, (path.name, node.lineno, node.id)
            elif isinstance(node, ast.Attribute):
                assert node.attr not in _FORBIDDEN_ATTRIBUTES, (path.name, node.lineno, node.attr)


def _decision(name: str, game: Game, history: list[list[Event]] | None, seat: int) -> Take:
    bot = make_bot(name, seat, seed=7, iterations=25)
    for batch in history or ():
        bot.observe(copy.deepcopy(batch))
    return bot.decide(copy.deepcopy(view(game, seat)))


def _hidden_twin(game: Game, seat: int, under: int, rng: random.Random, kettles: bool) -> Game:
    """The same position as far as ``seat`` can know: the deck above its ``under`` known
    bottom cards reshuffled, the other seats' recipes redealt from the cards nobody at
    the table holds, and (``kettles``) the cards below the kettle tops and in the deck
    shuffled together."""
    twin = game.copy()
    top = twin.deck[under:]
    while len(set(top)) > 1 and top == twin.deck[under:]:
        rng.shuffle(top)
    twin.deck[under:] = top
    if game.options.recipes:
        pool = [r.id for r in RECIPES.values() if game.players == 2 or r.three_players]
        unused = [r for r in pool if r not in game.recipes[seat]]
        rng.shuffle(unused)
        for s in range(game.players):
            if s != seat:
                n = len(twin.recipes[s])
                twin.recipes[s], unused = tuple(unused[:n]), unused[n:]
    if kettles:
        places = [(k, i) for k in twin.kettles for i in range(len(k) - 1)]
        places += [(twin.deck, i) for i in range(len(twin.deck))]
        cards = [cards[i] for cards, i in places]
        rng.shuffle(cards)
        for (where, i), c in zip(places, cards, strict=True):
            where[i] = c
    return twin


@pytest.mark.parametrize("seed", range(8))
def test_hidden_information_does_not_change_decisions(seed: int) -> None:
    rng = random.Random(seed)
    options = random_options(rng).replace(memory="strict", recipes=seed % 2 == 0)
    game, history = random_history(options, rng.randrange(4, 30), seed)
    if game.over:
        return
    seat = game.to_move
    memory = Memory(seat)
    for batch in history:
        memory.observe(batch)
    memory.sync(view(game, seat))
    twins = [
        (_hidden_twin(game, seat, len(memory.under), rng, kettles=False), history),
        (_hidden_twin(game, seat, 0, rng, kettles=True), None),  # a bot that just sat down
    ]
    twins = [(twin, heard) for twin, heard in twins if twin.key() != game.key()]
    assert twins  # something hidden differs (the deck may be too short to reshuffle)
    for twin, heard in twins:
        assert view(twin, seat) == view(game, seat)
        for name in NAMES:
            assert _decision(name, twin, heard, seat) == _decision(name, game, heard, seat)
