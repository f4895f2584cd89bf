"""Invariants over random deals and random legal play (Hypothesis).

Two and three players, recipes on and off, both memory modes and both start-card
options. Example counts are kept moderate so the suite stays fast.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.cards import CARD_COUNT, CARD_IDS
from shared.errors import IllegalMove
from shared.game import EMPTY, Game, Take
from shared.geometry import SPACES
from shared.options import Options
from shared.record import Record
from shared.view import view

MAX_PLIES = 400  # far above any real game (about 40 takes)

options_st = st.builds(
    Options,
    players=st.sampled_from([2, 3]),
    recipes=st.booleans(),
    start_card=st.sampled_from(["no_player_colors", "not_own_color"]),
    memory=st.sampled_from(["strict", "casual"]),
    third_colour=st.sampled_from(["lilac", "brown", "green", "gray"]),
    seed=st.integers(0, 2**32),
)
rng_st = st.integers(0, 2**32).map(random.Random)
FAST = settings(max_examples=100, deadline=None)


def random_play(options: Options, rng: random.Random) -> Iterator[tuple[Game, Take | None]]:
    """Yield the game before every take (with the take chosen) and once at the end."""
    game = Game.deal(options)
    while not game.over:
        assert game.ply < MAX_PLIES, "a game that does not end"
        actions = game.legal_actions()
        assert actions, "a running game always offers a take"
        take = actions[rng.randrange(len(actions))]
        yield game, take
        game.apply(take)
    yield game, None


def check_cards(game: Game) -> None:
    places = [c for c in game.grid if c != EMPTY] + game.deck + game.out
    places += [c for k in game.kettles for c in k]
    assert sorted(places) == list(range(CARD_COUNT))


def check_pawns(game: Game) -> None:
    assert len(set(game.pawns)) == game.players
    assert all(0 <= p < SPACES for p in game.pawns)


def check_view(game: Game, seat: int | None) -> None:
    """The serialized view holds nothing the viewer may not know (RULES.md section 9)."""
    text = json.dumps(view(game, seat).to_dict())
    hidden = [CARD_IDS[c] for c in game.deck]
    if not game.over:
        casual = game.options.memory == "casual"
        for s, kettle in enumerate(game.kettles):
            if not (casual and s == seat):
                hidden += [CARD_IDS[c] for c in kettle[:-1]]
        for s, hand in enumerate(game.recipes):
            if s != seat:
                hidden += list(hand)
    for secret in hidden:
        assert f'"{secret}"' not in text, f"{secret} leaks to seat {seat}"
    assert '"seed"' not in text


@FAST
@given(options_st, rng_st)
def test_cards_conserved_pawns_apart_and_games_end(options: Options, rng: random.Random) -> None:
    for game, _ in random_play(options, rng):
        check_cards(game)
        check_pawns(game)
    assert game.over and game.ended_by in range(options.players)


@settings(max_examples=50, deadline=None)
@given(options_st, rng_st)
def test_views_never_leak(options: Options, rng: random.Random) -> None:
    for game, _ in random_play(options, rng):
        for seat in [None, *range(options.players)]:
            check_view(game, seat)
    final = view(game, None)
    assert final.scores is not None and all(k.cards is not None for k in final.kettles)


@FAST
@given(options_st, rng_st)
def test_written_record_replays_to_the_same_game(options: Options, rng: random.Random) -> None:
    rec = Record.new(options)
    game = None
    for game, take in random_play(options, rng):  # noqa: B007 (game: the last one)
        if take is not None:
            rec.actions.append(take)
    for with_setup in (True, False):
        text = json.dumps(rec.to_dict(with_setup=with_setup))
        again = Record.loads(text).replay()
        assert again == game
        assert again.over


@FAST
@given(options_st, rng_st, st.sampled_from(CARD_IDS), st.booleans())
def test_illegal_takes_leave_the_state_untouched(
    options: Options, rng: random.Random, card: str, special: bool
) -> None:
    for game, take in random_play(options, rng):
        if take is None or rng.random() < 0.8:
            continue
        before = game.key()
        attempt = Take(card, special, (game.to_move,))
        try:
            game.copy().apply(attempt)
        except IllegalMove:
            with contextlib.suppress(IllegalMove):
                game.apply(attempt)
            assert game.key() == before
