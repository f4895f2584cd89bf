"""The engine's fast paths equal the simple rules they stand for.

Why: the hot paths of ``shared`` (issue 25) use tables and incremental bookkeeping; each
is held here to a plain, obviously-correct version of the same rule, over positions that
Hypothesis draws from real play.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.cards import (
    CARD_COUNT,
    CARD_IDS,
    COLOUR_OF,
    IS_EXPLODE,
    IS_PLAYER_COLOUR,
    IS_WAND,
    RECIPES,
)
from shared.game import EMPTY, Game, Setup, Take
from shared.geometry import (
    INGREDIENT_SLOTS,
    LAND2,
    LINE_SLOTS,
    SLOT_LINES,
    SPACE_LINE,
    SPACES,
    land,
    walk,
)
from shared.options import Options
from shared.scoring import _KEEP, Result, _score, _scored, score_game
from shared.setup import shuffle

from .bots.helpers import random_options


def simple_ends_game(game: Game, slot: int) -> bool:
    """Section 5: an empty deck, and taking ``slot`` leaves one of its lines empty."""
    if game.deck:
        return False
    return any(
        all(game.grid[s] == EMPTY for s in LINE_SLOTS[li] if s != slot) for li in SLOT_LINES[slot]
    )


def simple_legal_actions(game: Game) -> list[Take]:
    """The legal takes as the engine listed them before it used tables."""
    if game.over:
        return []
    me = game.to_move
    hit = [s for s, k in enumerate(game.kettles) if s != me and len(k) > 1]
    out: list[Take] = []
    for slot in LINE_SLOTS[SPACE_LINE[game.pawns[me]]]:
        c = game.grid[slot]
        if c == EMPTY:
            continue
        cid = CARD_IDS[c]
        if simple_ends_game(game, slot):
            out += [Take(cid, False, None, True), Take(cid, False, None, False)]
        elif IS_EXPLODE[c]:
            out.append(Take(cid, False))
            out += [Take(cid, True, (h,)) for h in hit]
            if len(hit) == 2:
                out.append(Take(cid, True, (hit[0], hit[1])))
        elif game.turn_in_row == 1 and IS_WAND[c]:
            out += [Take(cid, False), Take(cid, True)]
        else:
            out.append(Take(cid, False))
    return out


def check_bookkeeping(game: Game) -> None:
    """The counters ``apply`` keeps equal what the state says."""
    counts = [sum(game.grid[s] != EMPTY for s in slots) for slots in LINE_SLOTS]
    assert game.line_count == [*counts, 0]
    assert game.big == sum(1 << s for s, k in enumerate(game.kettles) if len(k) > 1)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, SPACES - 1), st.integers(0, 4), st.data())
def test_land_is_walk(start: int, steps: int, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from((2, 3)))
    others = data.draw(
        st.lists(
            st.integers(0, SPACES - 1).filter(lambda p: p != start),
            min_size=players - 1,
            max_size=players - 1,
            unique=True,
        )
    )
    me = data.draw(st.integers(0, players - 1))
    pawns = [*others[:me], start, *others[me:]]
    assert land(start, steps, pawns, me) == walk(start, steps, others)[0]
    if players == 2:
        assert LAND2[start][others[0]][steps] == walk(start, steps, others)[0]


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_legal_actions_ends_game_and_counters_over_random_play(table: int, seed: int) -> None:
    """At every ply of a random game (any options), the listed takes, the game-ending
    test of every slot and the counters equal the simple versions; a copy too."""
    options = random_options(random.Random(table))
    rng = random.Random(seed)
    game = Game.deal(options)
    while True:
        check_bookkeeping(game)
        check_bookkeeping(game.copy())
        assert game.legal_actions() == simple_legal_actions(game)
        assert [game.ends_game(s) for s in range(36)] == [
            simple_ends_game(game, s) for s in range(36)
        ]
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()), events=[] if rng.random() < 0.5 else None)


def simple_deal(options: Options) -> Setup:
    """Section 3 as plain loops: 32 cards row by row into the ingredient slots, the rest
    the deck (first card on top); each seat draws from the top a start card it may have,
    refused ones going under the deck; then the recipes (section 8)."""
    rng = random.Random(options.seed)
    cards = list(range(CARD_COUNT))
    rng.shuffle(cards)
    grid: list[str | None] = [None] * 36
    it = iter(cards)
    for slot in INGREDIENT_SLOTS:
        grid[slot] = CARD_IDS[next(it)]
    deck = list(it)
    kettles = []
    for colour in options.colours:
        while True:
            card = deck.pop(0)
            if options.start_card == "no_player_colors":
                refused = IS_PLAYER_COLOUR[card]
            else:
                refused = COLOUR_OF[card] == colour
            if not refused:
                kettles.append((CARD_IDS[card],))
                break
            deck.append(card)
    recipes: tuple[tuple[str, ...], ...] = ()
    if options.recipes:
        n = options.players
        pool = sorted(r.id for r in RECIPES.values() if n == 2 or r.three_players)
        rng.shuffle(pool)
        per = 2 if n == 2 else 1
        recipes = tuple(tuple(pool[i * per : (i + 1) * per]) for i in range(n))
    return Setup(
        grid=tuple(tuple(grid[r * 6 : r * 6 + 6]) for r in range(6)),
        deck=tuple(CARD_IDS[c] for c in deck),
        kettles=tuple(kettles),
        pawns=(0, 10, 5)[: options.players],
        recipes=recipes,
    )


def test_the_deal_of_a_seed_is_the_simple_deal() -> None:
    for seed in range(300):
        options = random_options(random.Random(seed))
        assert Game.deal_setup(options) == simple_deal(options)
        dealt = Game.deal(options)
        check_bookkeeping(dealt)
        assert dealt == Game.from_setup(options, simple_deal(options))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64), st.integers(0, 70))
def test_shuffle_is_the_interpreters_shuffle(seed: int, n: int) -> None:
    """The same permutation and the same random state after, for any length (beyond
    the table of bit lengths it hands over to ``Random.shuffle``)."""
    fast, slow = random.Random(seed), random.Random(seed)
    a, b = list(range(n)), list(range(n))
    shuffle(fast, a)
    slow.shuffle(b)
    assert a == b
    assert fast.getstate() == slow.getstate()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_score_game_keeps_scorings_equal_to_scoring_afresh(table: int, seed: int) -> None:
    """``score_game`` keeps its last scorings: a game scored again, or changed after
    being scored, gets exactly what scoring it afresh (``_score``) gives."""
    rng = random.Random(seed)
    game = Game.deal(random_options(random.Random(table)))
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
        if rng.random() < 0.2:  # scored mid-game too, as it stands
            assert score_game(game) == simple_score(game)
    first = score_game(game)
    assert first == simple_score(game)
    assert score_game(game.copy()) is first  # kept: the same immutable result
    loser = min(range(game.players), key=lambda s: first.scores[s].total)
    game.kettles[loser].append(game.kettles[1 - loser if loser < 2 else 0].pop())
    assert score_game(game) == simple_score(game) != first  # its kettles changed
    for _ in range(_KEEP + 1):  # others scored since: the oldest are forgotten, not wrong
        other = game.copy()
        other.ended_by = rng.randrange(game.players)
        assert score_game(other) == simple_score(other)
    assert len(_scored) <= _KEEP


def simple_score(game: Game) -> Result:
    """Scoring afresh, nothing kept."""
    return _score(game.kettles, game.options.colours, game.recipes, game.ended_by)
