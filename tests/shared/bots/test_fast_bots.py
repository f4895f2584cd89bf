"""The searching bots' fast paths equal the simple versions they stand for.

Why: the playout policy scores takes by a table, playouts are scored without the
breakdown, and a search draws its positions from a ``Memory.sampler`` (issue 25); each
must give exactly what the simple code gives, and use the random source the same way,
or the bots' decisions for a seed would change.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.bots import make_bot
from shared.bots.heuristics import CARD_BIT, GAIN, SHIFT, take_gain
from shared.bots.memory import Recall
from shared.bots.playout import WAND_WORTH, own_colour_table, policy_take
from shared.cards import CARD_COUNT, CARD_IDS, IS_EXPLODE, IS_WAND
from shared.game import Game, Take
from shared.scoring import score_game, totals
from shared.view import view

from .helpers import random_history, random_options


def simple_policy_take(game: Game, rng: random.Random, epsilon: float, policy: str) -> Take:
    """The playout policy as it was written before the table (``take_gain`` per card)."""
    aware = policy == "aware"
    grid = game.grid
    kettles = game.kettles
    colours = game.options.colours
    me = game.to_move
    slots = game.line_slots()
    kettle = kettles[me]
    own = own_colour_table(colours[me])
    hurt = 0
    targets: list[int] = []
    for t in range(game.players):
        k = kettles[t]
        if t != me and len(k) > 1:
            if not aware:
                targets.append(t)
                continue
            loss = take_gain(k[:-1], k[-1], own_colour_table(colours[t]))
            if loss > 0:
                hurt += loss
                targets.append(t)
    wand = game.turn_in_row == 1
    if epsilon and rng.random() < epsilon:
        slot = rng.choice(slots)
        gain = take_gain(kettle, grid[slot], own)
    else:
        slot, gain, best = slots[0], -1000, -1000
        for s in slots:
            c = grid[s]
            g = take_gain(kettle, c, own)
            worth = g
            if aware:
                if IS_EXPLODE[c]:
                    worth += hurt
                elif wand and IS_WAND[c]:
                    worth += WAND_WORTH
            if worth > best:
                slot, gain, best = s, g, worth
    card = grid[slot]
    cid = CARD_IDS[card]
    if game.ends_game(slot):
        return Take(cid, False, None, gain >= 0)
    if IS_EXPLODE[card] and targets:
        return Take(cid, True, tuple(targets))
    return Take(cid, wand and IS_WAND[card])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, CARD_COUNT - 1), unique=True, max_size=24),
    st.integers(0, CARD_COUNT - 1),
    st.sampled_from(sorted(GAIN)),
)
def test_the_gain_table_is_take_gain(kettle: list[int], card: int, colour: str) -> None:
    """Over a kettle's card set, for a card not in it, and the kettle's top card
    against the rest of it (what an explosion takes)."""
    own = own_colour_table(colour)
    if card not in kettle:
        bits = sum(CARD_BIT[c] for c in kettle)
        assert GAIN[colour][card][bits >> SHIFT[card] & 15] == take_gain(kettle, card, own)
    if kettle:
        top, below = kettle[-1], sum(CARD_BIT[c] for c in kettle[:-1])
        assert GAIN[colour][top][below >> SHIFT[top] & 15] == take_gain(kettle[:-1], top, own)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.sampled_from(("plain", "aware")))
def test_policy_and_totals_over_random_play(table: int, seed: int, policy: str) -> None:
    """Along a game played by the policy itself, at every ply: the same take as the
    simple policy from the same random state (with and without random takes), and in
    the end the totals of ``score_game``."""
    options = random_options(random.Random(table))
    game = Game.deal(options)
    rng = random.Random(seed)
    while not game.over:
        for epsilon in (0.0, 0.5):
            state = rng.getstate()
            fast = policy_take(game, rng, epsilon, policy)
            after = rng.getstate()
            rng.setstate(state)
            assert simple_policy_take(game, rng, epsilon, policy) == fast
            assert rng.getstate() == after
        game.apply(fast)
    assert totals(game) == [s.total for s in score_game(game).scores]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(0, 60),
    st.sampled_from(("hard", "expert", "search")),
    st.integers(0, 8),
    st.booleans(),
)
def test_the_sampler_draws_what_sample_draws(
    table: int, plies: int, name: str, forget: int, told: bool
) -> None:
    """For positions reached by play, told the history or not, with memories that
    forget: a sampler's draws equal ``sample``'s from the same random state, and leave
    the source in the same state."""
    options = random_options(random.Random(table))
    game, batches = random_history(options, plies, table)
    if game.over:
        return
    seat = game.to_move
    bot = make_bot(name, seat, seed=1)
    bot.memory.recall = Recall(own=forget or None, others=forget // 2 or None)
    if told:
        for batch in batches:
            bot.observe(batch)
    seen = view(game, seat)
    bot.memory.sync(seen)
    slow_memory, fast_memory = bot.memory.copy(), bot.memory.copy()
    draw = fast_memory.sampler(seen)
    slow, fast = random.Random(table), random.Random(table)
    for _ in range(4):
        a, b = slow_memory.sample(seen, slow), draw(fast)
        assert a == b and a.turn_in_row == b.turn_in_row
        assert a.out == b.out and a.line_count == b.line_count and a.big == b.big
        assert slow.getstate() == fast.getstate()
        assert slow_memory.kettles == fast_memory.kettles
