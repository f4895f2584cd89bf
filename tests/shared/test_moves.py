"""Every IllegalMove code, and an illegal take leaves the state untouched."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import IllegalMove
from shared.game import Game, Take
from tests.shared.helpers import record, replay, rules_example, with_cards


def _start() -> Game:
    raw = record(
        grid=with_cards({(1, 1): "rat_tail-2", (2, 1): "moss-2"}),
        kettles=[["eye_of_newt-1"], ["bat_wing-3", "bat_wing-4"]],
        pawns=[0, 10],
    )
    return replay(raw)


@pytest.mark.parametrize(
    ("take", "seat", "code"),
    [
        (Take("rat_tail-2"), 1, "not_your_turn"),
        (Take("toad-1"), None, "not_in_line"),  # on the grid, not in column 1
        (Take("bat_wing-4"), None, "not_in_line"),  # in a kettle
        (Take("moss-9"), None, "unknown_card"),
        (Take(7), None, "unknown_card"),  # type: ignore[arg-type]
        (Take("rat_tail-2", targets=(0,)), None, "bad_target"),
        (Take("rat_tail-2", targets=(1, 1)), None, "bad_target"),
        (Take("rat_tail-2", targets=(2,)), None, "bad_target"),
        (Take("rat_tail-2", targets=(-1,)), None, "bad_target"),
        (Take("rat_tail-2", targets=("1",)), None, "bad_target"),  # type: ignore[arg-type]
        (Take("rat_tail-2", targets=(True,)), None, "bad_target"),
        (Take("moss-2", targets=(1,)), None, "bad_target"),  # a wand cannot be aimed
        (Take("root-1", targets=()), None, "bad_target"),  # no symbol at all
        (Take("rat_tail-2", special="yes"), None, "bad_action"),  # type: ignore[arg-type]
        (Take("rat_tail-2", keep=None), None, "bad_action"),  # type: ignore[arg-type]
    ],
)
def test_illegal_take_codes_and_state_untouched(take: Take, seat: int | None, code: str) -> None:
    game = _start()
    before = game.key()
    with pytest.raises(IllegalMove) as exc:
        game.apply(take, seat)
    assert exc.value.code == code
    assert game.key() == before
    assert game == _start()


def test_game_over_code() -> None:
    raw: dict[str, Any] = rules_example()
    game = replay(raw)
    while not game.over:
        game.apply(game.legal_actions()[-1])
    before = game.key()
    with pytest.raises(IllegalMove) as exc:
        game.apply(Take("root-3"))
    assert exc.value.code == "game_over"
    assert game.key() == before
    assert game.legal_actions() == []


def test_every_legal_action_is_accepted_and_distinct() -> None:
    game = _start()
    actions = game.legal_actions()
    results = []
    for take in actions:
        g = game.copy()
        g.apply(take, seat=0)
        results.append(g.key())
    assert len(set(results)) == len(actions)  # listed once per distinct effect


def test_seat_may_be_given() -> None:
    game = _start()
    game.apply(Take("rat_tail-2"), seat=0)
    assert game.to_move == 1
