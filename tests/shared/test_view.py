"""The one view function (RULES.md section 9): spectator, seat, memory modes, game over."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.cards import THIRD_COLOURS
from shared.frozen import QUICK
from shared.game import Game
from shared.options import MEMORY_MODES, START_CARD_MODES, Options
from shared.record import Record
from shared.view import view, views
from tests.shared.helpers import diagonal_grid, record, replay, rules_example


def _by_init(cls: type, *args: Any, **kwargs: Any) -> Any:
    """A ``cls`` made by the frozen dataclass's own ``__init__`` (before ``quick``)."""
    made = object.__new__(cls)
    QUICK[cls](made, *args, **kwargs)
    return made


def _example(memory: str = "strict") -> Game:
    raw = rules_example()
    raw["options"]["memory"] = memory
    return replay(raw)


def test_spectator_sees_only_public_things() -> None:
    v = view(_example(), None)
    assert v.seat is None and v.to_move == 0 and v.line == "col4"
    assert v.recipes == (None, None) and v.recipe_counts == (2, 2)
    assert [(k.count, k.top, k.cards) for k in v.kettles] == [
        (2, "root-2", None),
        (2, "rat_tail-2", None),
    ]
    assert v.deck_size == 20 and v.scores is None and not v.game_over
    assert v.options.seed is None and "seed" not in v.to_dict()["options"]


def test_a_seat_sees_its_own_recipes_only() -> None:
    v = view(_example(), 1)
    assert v.recipes == (None, ("one_black", "last_card"))
    assert all(k.cards is None for k in v.kettles)  # strict memory: not even one's own


def test_casual_memory_shows_only_ones_own_kettle() -> None:
    game = _example("casual")
    assert [k.cards for k in view(game, 0).kettles] == [("rat_tail-1", "root-2"), None]
    assert [k.cards for k in view(game, 1).kettles] == [None, ("pumpkin-3", "rat_tail-2")]
    assert [k.cards for k in view(game, None).kettles] == [None, None]


def test_choices_say_what_a_take_would_do() -> None:
    v = view(_example(), 0)
    line = ["bat_wing-2", "rat_tail-4", "whiskers-4", "vine-3", "frog_slime-2", "pumpkin-1"]
    assert [c.card for c in v.choices] == line
    symbols = {c.card: c.symbol for c in v.choices}
    assert symbols["frog_slime-2"] == "explode" and symbols["vine-3"] is None
    assert v.explodable == (1,)


def _ended() -> Game:
    raw: dict[str, Any] = record(
        grid=diagonal_grid(["root-1", "root-3", "moss-3", "toad-3"]),
        kettles=[["eye_of_newt-1", "moss-1"], ["bat_wing-3", "bat_wing-4"]],
        pawns=[0, 10],
        options={"recipes": "on"},
        recipes=[["plants", "fewer_cards"], ["last_card", "one_black"]],
        actions=[{"take": "root-1"}],
    )
    return replay(raw)


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_game_over_reveals_everything_with_scores(seat: int | None) -> None:
    v = view(_ended(), seat)
    assert v.game_over and v.to_move is None and v.ended_by == 0 and v.line is None
    assert v.choices == ()
    assert [k.cards for k in v.kettles] == [
        ("eye_of_newt-1", "moss-1", "root-1"),
        ("bat_wing-3", "bat_wing-4"),
    ]
    assert v.recipes == (("plants", "fewer_cards"), ("last_card", "one_black"))
    assert v.scores is not None and len(v.scores) == 2
    # White: eye_of_newt-1 doubled -2, moss -1, root -1, +5 for the most value-1 cards.
    assert [s["total"] for s in v.scores] == [1, 0]
    assert v.winners == (0,)


def test_no_such_seat() -> None:
    with pytest.raises(ValueError):
        view(Game.deal(Options(seed=1)), 2)


def test_view_of_a_fresh_deal_hides_the_deck() -> None:
    game = Record.new(Options(seed=9, players=3, recipes=True)).replay()
    v = view(game, 2)
    assert v.deck_size == 24 - 3
    assert v.recipes[2] is not None and v.recipes[0] is None and v.recipes[1] is None


def test_views_for_many_seats_equal_one_view_each() -> None:
    """``views`` shares the public parts between viewers and changes nothing else."""
    import random

    from shared.game import Game
    from shared.options import Options
    from shared.view import view, views

    for seed in range(30):
        options = Options(
            seed=seed,
            players=2 + seed % 2,
            recipes=seed % 3 == 0,
            memory="casual" if seed % 2 else "strict",
        )
        game, rng = Game.deal(options), random.Random(seed)
        while True:
            seats: list[int | None] = [None, *range(options.players)]
            made = views(game, seats)
            assert made == [view(game, s) for s in seats]
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions()))


def test_views_stay_immutable() -> None:
    import dataclasses
    import random

    from shared.view import views

    game, rng = Game.deal(Options(seed=11)), random.Random(11)
    for _ in range(6):
        game.apply(rng.choice(game.legal_actions()))
    v = views(game, [0])[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.seat = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.kettles[0].count = 9  # type: ignore[misc]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 3]), plies=st.integers(0, 90))
def test_views_made_fast_equal_views_made_by_init(seed: int, players: int, plies: int) -> None:
    """``views`` makes its views through their slots (``shared.frozen.quick``) and
    shares its choices between takes (``_CHOICES``): each is the very value the
    dataclass's own ``__init__`` makes from the same fields, and a fresh choice of the
    same card, place and effect."""
    import dataclasses
    import random

    from shared.view import TakeChoice, View, views

    game, rng = Game.deal(Options(players=players, seed=seed)), random.Random(seed)
    while not game.over and game.ply < plies:
        game.apply(rng.choice(game.legal_actions()))
    for v in views(game, [None, *range(players)]):
        fields = {f.name: getattr(v, f.name) for f in dataclasses.fields(View)}
        assert type(v) is View and v == _by_init(View, **fields)
        for c in v.choices:
            assert c == _by_init(TakeChoice, c.card, c.row, c.col, c.symbol, c.ends_game)
            assert game.grid[c.row * 6 + c.col] >= 0


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([2, 3]),
    recipes=st.booleans(),
    start_card=st.sampled_from(START_CARD_MODES),
    memory=st.sampled_from(MEMORY_MODES),
    third_colour=st.sampled_from(THIRD_COLOURS),
    seed=st.none() | st.integers(0, 2**63 - 1),
)
def test_public_options_are_the_options_without_their_seed(
    players: int, recipes: bool, start_card: Any, memory: Any, third_colour: Any, seed: int | None
) -> None:
    """``Options.public`` is ``replace(seed=None)``, one object for all equal public
    options (so that no take copies them), and what every view shows."""
    opts = Options(players, recipes, start_card, memory, third_colour, seed)
    public = opts.public()
    assert public == opts.replace(seed=None)
    if seed is None:
        assert public is opts
    else:
        assert public is opts.replace(seed=seed + 1).public()
        game = Game.deal(opts, [])
        assert all(v.options is public for v in views(game, [None, *range(players)]))
