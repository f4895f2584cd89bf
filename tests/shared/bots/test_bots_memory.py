"""The belief tracker: what a seat can know from views and public events (RULES.md section 9)."""

from __future__ import annotations

import random

import pytest

from shared.bots import PERFECT, Memory, Recall, legal_takes
from shared.bots.memory import UNKNOWN, sample_recipes
from shared.cards import RECIPES
from shared.events import Event
from shared.game import Game
from shared.options import Options
from shared.view import view

from .helpers import random_history, random_options


def _follow(game_seed: int, options: Options, recall: Recall = PERFECT) -> int:
    """Play a random game with a memory per seat and check it against the truth; return
    how many cards were known to lie under the deck at most."""
    rng = random.Random(game_seed)
    events: list[Event] = []
    game = Game.deal(options, events)
    mems = [Memory(s, recall) for s in range(options.players)]
    most = 0
    while True:
        for s, m in enumerate(mems):
            m.observe(events)
            m.sync(view(game, s))
        if game.over:
            return most
        most = max(most, len(mems[0].under))
        for s, m in enumerate(mems):
            assert m.kettles == game.kettles, f"seat {s} at ply {game.ply}"
            assert m.under == game.deck[: len(m.under)][::-1]
        world = mems[game.to_move].sample(view(game, game.to_move), rng)
        assert world.kettles == game.kettles  # perfect memory: only the deck is a guess
        assert sorted(world.deck) == sorted(game.deck)
        assert world.deck[: len(mems[0].under)] == game.deck[: len(mems[0].under)]
        assert world.legal_actions() == game.legal_actions()
        assert legal_takes(view(game, game.to_move)) == game.legal_actions()
        events = []
        game.apply(rng.choice(game.legal_actions()), events=events)


@pytest.mark.parametrize("seed", range(12))
def test_perfect_memory_knows_every_kettle_card(seed: int) -> None:
    options = random_options(random.Random(seed)).replace(memory="strict")
    _follow(seed, options)


def test_explosions_under_the_deck_are_remembered_in_order() -> None:
    """Find games where cards go under the deck and check they were followed."""
    assert sum(_follow(seed, Options(players=3, seed=seed)) for seed in range(40)) > 10


def test_a_replayed_history_is_remembered() -> None:
    """A bot seated into a restored game gets the whole history before its first view:
    it then knows every kettle card but the start cards (never shown to it)."""
    for seed in range(10):
        options = random_options(random.Random(seed)).replace(memory="strict")
        game, batches = random_history(options, 25, seed)
        m = Memory(1)
        for b in batches:
            m.observe(b)
        m.sync(view(game, 1))
        for s, k in enumerate(m.kettles):
            assert len(k) == len(game.kettles[s])
            assert k[1:] == game.kettles[s][1:] or len(k) == 1
            assert k[-1] == game.kettles[s][-1]


def test_joining_mid_game_knows_only_the_tops() -> None:
    game, _ = random_history(Options(seed=5), 20, 5)
    m = Memory(0)
    m.sync(view(game, 0))
    for s, k in enumerate(m.kettles):
        assert k[-1] == game.kettles[s][-1]
        assert set(k[:-1]) <= {UNKNOWN}
    world = m.sample(view(game, 0), random.Random(1))
    assert [len(k) for k in world.kettles] == [len(k) for k in game.kettles]
    assert sorted(world.deck + [c for k in world.kettles for c in k]) == sorted(
        game.deck + [c for k in game.kettles for c in k]
    )


def test_limited_recall_forgets() -> None:
    options = Options(seed=11, memory="strict")
    game, batches = random_history(options, 30, 11)
    m = Memory(0, Recall(own=2, others=0, deck=False))
    m.sync(view(Game.deal(options), 0))
    for b in batches[1:]:
        m.observe(b)
    m.sync(view(game, 0))
    assert m.known_kettle(0) == game.kettles[0][-2:]
    assert m.known_kettle(1) == game.kettles[1][-1:]
    assert m.under == []
    m.sample(view(game, 0), random.Random(0))  # still consistent


def test_casual_memory_shows_the_own_kettle() -> None:
    game, _ = random_history(Options(seed=3, memory="casual"), 30, 3)
    m = Memory(1, Recall(own=0, others=0))
    m.sync(view(game, 1))
    assert m.known_kettle(1) == game.kettles[1]


@pytest.mark.parametrize("players", [2, 3])
def test_sampled_recipes_respect_the_pools(players: int) -> None:
    game = Game.deal(Options(players=players, recipes=True, seed=9))
    v = view(game, 0)
    rng = random.Random(0)
    seen: set[str] = set()
    for _ in range(200):
        hands = sample_recipes(v, rng)
        assert hands[0] == game.recipes[0]
        flat = [r for h in hands for r in h]
        assert len(flat) == len(set(flat)) == players * (2 if players == 2 else 1)
        assert all(players == 2 or RECIPES[r].three_players for r in flat)
        seen.update(r for h in hands[1:] for r in h)
    expected = {r.id for r in RECIPES.values() if players == 2 or r.three_players}
    assert seen == expected - set(game.recipes[0])


def test_sampling_survives_a_memory_out_of_step() -> None:
    """Should memory ever disagree with the view, a bot trusts the view and plays on."""
    game, batches = random_history(Options(seed=2), 20, 2)
    m = Memory(0)
    for b in batches:
        m.observe(b)
    m.sync(view(game, 0))
    on_grid = next(c for c in game.grid if c >= 0)
    m.kettles[1][0] = on_grid  # a card can't be in a kettle and on the grid
    world = m.sample(view(game, 0), random.Random(0))
    assert world.legal_actions() == game.legal_actions()
    assert m.known_kettle(1) == game.kettles[1][-1:]
    copied = m.copy()
    copied.kettles[0].append(UNKNOWN)
    assert m.kettles[0] != copied.kettles[0]
