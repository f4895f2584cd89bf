"""Bots make only legal takes, are deterministic with a seed, and play to their level."""

from __future__ import annotations

import itertools
import random

import pytest

from shared.bots import KINDS, LADDER, LEVELS, IsmctsBot, SearchBot, make_bot, play, think
from shared.bots.ismcts import Node
from shared.bots.playout import policy_take
from shared.events import Event
from shared.game import Game, Take
from shared.options import Options
from shared.scoring import score_game
from shared.view import view

from .helpers import random_history, random_options

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
    for seed, name in itertools.product(range(3), ["random", "greedy", "easy", "search", "hard"]):
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


@pytest.mark.parametrize("name", ["greedy", *LEVELS, "search"])
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


def test_an_ismcts_time_budget_is_read_from_the_injected_clock() -> None:
    """A time budget replaces the level's iterations: with a clock that ticks one second
    a call, a 10 s budget stops the search at the tenth tick."""
    game = Game.deal(Options(seed=4))
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    ticks = itertools.count()
    bot = make_bot("expert", game.to_move, seed=1, budget=10.0, clock=lambda: float(next(ticks)))
    assert isinstance(bot, IsmctsBot)
    bot.decide(view(game, game.to_move))
    assert bot.simulations == 10
    assert bot.thinking == 11.0


def _tree(node: Node, depth: int = 0) -> tuple[int, int]:
    """Check the statistics of a subtree; return its node count and depth."""
    count, deepest = 1, depth
    for child in node.children.values():
        assert 1 <= child.visits <= child.avail
        assert 0.0 <= child.total <= child.visits
        assert child.visits >= sum(c.visits for c in child.children.values())
        n, d = _tree(child, depth + 1)
        count, deepest = count + n, max(deepest, d)
    return count, deepest


@pytest.mark.parametrize("players", [2, 3])
def test_the_ismcts_tree(players: int) -> None:
    """One iteration adds one node; the root's children are the legal takes, made first,
    and available in every iteration from then on; visits never exceed availability; the
    tree grows past one take."""
    game = Game.deal(Options(players=players, recipes=True, seed=12))
    while len(game.legal_actions()) < 3:
        game.apply(game.legal_actions()[0])
    bot = IsmctsBot(game.to_move, seed=3, iterations=300)
    seen = view(game, game.to_move)
    bot.observe((), seen)
    root = bot.search(seen)
    assert set(root.children) == set(game.legal_actions())
    assert sum(c.visits for c in root.children.values()) == 300
    n = len(root.children)  # every take is legal at the root: one new child an iteration
    assert sorted(c.avail for c in root.children.values()) == [300 - i for i in range(n)][::-1]
    assert all(c.mover == game.to_move for c in root.children.values())
    count, deepest = _tree(root)
    assert count == 301 and deepest >= 3


def test_levels_make_the_bots_they_describe() -> None:
    """The ladder, weakest first: names unique, each with a lobby title and description;
    searching levels have iteration budgets that grow up the ladder and are used."""
    assert list(LEVELS) == [lv.name for lv in LADDER]
    assert len(set(LEVELS)) == len(LADDER) and not set(LEVELS) & set(KINDS)
    assert {"easy", "medium", "hard"} <= set(LEVELS)  # names the protocol's examples use
    budgets = [lv.iterations for lv in LADDER if lv.kind == "ismcts"]
    assert budgets == sorted(budgets) and len(set(budgets)) == len(budgets)
    for lv in LADDER:
        assert lv.title and lv.description.endswith(".")
        bot = make_bot(lv.name, 1, seed=0)
        assert bot.memory.recall == lv.recall
        if lv.kind == "ismcts":
            # an iteration budget: strength independent of the machine's load
            assert isinstance(bot, IsmctsBot) and bot.iterations == lv.iterations
        else:
            assert not isinstance(bot, IsmctsBot | SearchBot)


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


def test_ismcts_beats_greedy_even_with_a_small_budget() -> None:
    won, played = _wins("expert", "greedy", range(5), iterations=60)
    assert won >= 0.6 * played


@pytest.mark.parametrize("policy", ["plain", "aware"])
def test_playout_takes_are_written_as_the_legal_actions(policy: str) -> None:
    """The search's expansion looks the policy's take up among the legal actions."""
    for seed in range(30):
        game = Game.deal(Options(players=2 + seed % 2, seed=seed))
        rng = random.Random(seed)
        while not game.over:
            take = policy_take(game, rng, 0.3, policy)
            assert take in game.legal_actions()
            game.apply(take)


def test_think_decides_from_scratch_and_reproducibly() -> None:
    """The stateless entry point: the same history, view, seed and iterations give the
    same legal take, the one a bot told the same history at once makes."""
    game, batches = random_history(Options(players=3, recipes=True, seed=6), 20, 6)
    assert not game.over
    seat = game.to_move
    heard = [e for batch in batches for e in batch]
    seen = view(game, seat)
    takes = {think("expert", seen, heard, seed=5, iterations=30) for _ in range(2)}
    assert len(takes) == 1 and takes <= set(game.legal_actions())
    bot = make_bot("expert", seat, seed=5, iterations=30)
    bot.observe(heard, seen)
    assert {bot.decide(seen)} == takes
    with pytest.raises(ValueError, match="spectator"):
        think("easy", view(game, None), heard, seed=1)
