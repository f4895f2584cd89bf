"""Bots make only legal takes, are deterministic with a seed, and play to their level."""

from __future__ import annotations

import itertools
import random

import pytest

from shared.bots import KINDS, LEVELS, SearchBot, make_bot, play
from shared.events import Event
from shared.game import Game, Take
from shared.options import Options
from shared.scoring import score_game
from shared.view import view

from .helpers import random_options

FAST = 6  # search bots: a tiny deterministic budget (iterations)


@pytest.mark.parametrize("name", [*KINDS, *LEVELS])
def test_bots_only_make_legal_takes(name: str) -> None:
    """Over random tables (2 or 3 players, recipes on or off, strict or casual memory),
    every decision is legal: the harness applies it with the engine's validation."""
    rng = random.Random(name)
    for g in range(6):
        options = random_options(rng)
        names = [name] + [rng.choice(KINDS[:2]) for _ in range(options.players - 1)]
        rng.shuffle(names)
        bots = [make_bot(n, s, seed=g, iterations=FAST) for s, n in enumerate(names)]
        game = play(options, bots)  # an illegal take raises IllegalMove
        assert game.over


def test_decisions_are_among_the_legal_actions() -> None:
    for seed, name in itertools.product(range(3), ["random", "greedy", "easy", "search"]):
        options = Options(players=2 + seed % 2, recipes=seed == 1, seed=seed)
        game = Game.deal(options)
        bots = [make_bot(name, s, seed=seed, iterations=FAST) for s in range(options.players)]
        for s, b in enumerate(bots):
            b.observe((), view(game, s))
        while not game.over:
            seat = game.to_move
            take = bots[seat].decide(view(game, seat))
            assert take in game.legal_actions()
            events: list[Event] = []
            game.apply(take, events=events)
            for s, b in enumerate(bots):
                b.observe(events, view(game, s))


@pytest.mark.parametrize("name", ["greedy", "easy", "medium", "search"])
def test_same_seed_same_game(name: str) -> None:
    def run() -> list[tuple[int, Take]]:
        takes: list[tuple[int, Take]] = []
        bots = [make_bot(name, s, seed=42 + s, iterations=20) for s in range(3)]
        play(
            Options(players=3, recipes=True, seed=8),
            bots,
            on_take=lambda s, t: takes.append((s, t)),
        )
        return takes

    assert run() == run()


def test_the_budget_is_read_from_the_injected_clock() -> None:
    """With a clock that ticks one second a call, a 10 s budget ends the search at the
    tenth tick; every take is tried once before the clock is read."""
    game = Game.deal(Options(seed=4))
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    ticks = itertools.count()
    bot = SearchBot(game.to_move, seed=1, budget=10.0, clock=lambda: float(next(ticks)))
    bot.decide(view(game, game.to_move))
    assert bot.simulations == len(game.legal_actions()) + 9
    assert bot.thinking == 11.0


def test_unknown_bot_name() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster", 0)


def _wins(a: str, b: str, seeds: range, iterations: int | None = None) -> tuple[int, int]:
    """Games won by ``a`` and in all, each seed played twice with the seats swapped."""
    won = played = 0
    for seed, swap in itertools.product(seeds, (False, True)):
        names = [b, a] if swap else [a, b]
        bots = [make_bot(n, s, seed=seed, iterations=iterations) for s, n in enumerate(names)]
        winners = score_game(play(Options(seed=seed), bots)).winners
        won += winners == (names.index(a),)
        played += 1
    return won, played


def test_greedy_beats_random() -> None:
    won, played = _wins("greedy", "random", range(20))
    assert won >= 0.75 * played  # measured: 40 of 40


def test_search_beats_greedy_even_with_a_small_budget() -> None:
    won, played = _wins("search", "greedy", range(5), iterations=60)
    assert won >= 0.6 * played
