"""Malformed records are refused with RecordError naming the field; never a crash."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.errors import RecordError
from shared.events import Event
from shared.game import Game
from shared.options import Options
from shared.record import Record
from tests.shared.helpers import record, replay, rules_example

JUNK: list[Any] = [None, True, 1.0, 2.0, -1, 0, 1, 99, "x", "moss-2", [], [1], [[1]], {}, [["x"]]]


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*path, i))
    return out


EXAMPLE = rules_example()
PATHS = _paths(EXAMPLE)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATHS), st.sampled_from(JUNK))
def test_any_corrupted_field_is_refused_cleanly(path: tuple[Any, ...], junk: Any) -> None:
    raw = copy.deepcopy(EXAMPLE)
    node = raw
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = junk
    try:
        Record.from_dict(raw).replay()
    except RecordError as e:
        assert e.where  # names a field or an action


@pytest.mark.parametrize(
    ("players", "where"), [(2.0, "options"), ("2", "options"), (True, "options"), (4, "options")]
)
def test_bad_player_count(players: Any, where: str) -> None:
    raw = rules_example()
    raw["options"]["players"] = players
    with pytest.raises(RecordError) as exc:
        replay(raw)
    assert exc.value.where == where


def test_fractional_to_move_is_refused() -> None:
    raw = rules_example()
    raw["setup"]["to_move"] = 1.0
    with pytest.raises(RecordError) as exc:
        replay(raw)
    assert exc.value.where.startswith("setup")


def test_non_string_recipe_is_refused() -> None:
    raw = rules_example()
    raw["setup"]["recipes"][1][1] = ["last_card"]
    with pytest.raises(RecordError) as exc:
        replay(raw)
    assert exc.value.where.startswith("setup")


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda r: r.update(format="kupferkessel-record/0"), "format"),
        (lambda r: r.update(extra=1), "record"),
        (lambda r: r.update(options={"players": 5}), "options"),
        (lambda r: r.update(options={"colour": "red"}), "options"),
        (lambda r: r.update(actions={}), "actions"),
        (lambda r: r["actions"].append("moss-2"), "actions[3]"),
        (lambda r: r["actions"].append({"take": 3}), "actions[3].take"),
        (lambda r: r["actions"].append({"take": "moss-2", "special": "yes"}), "actions[3].special"),
        (lambda r: r["actions"].append({"take": "moss-2", "keep": 0}), "actions[3].keep"),
        (lambda r: r["actions"].append({"take": "moss-2", "targets": 1}), "actions[3].targets"),
        (lambda r: r["actions"].append({"take": "moss-2", "why": 1}), "actions[3]"),
        (lambda r: r["setup"].pop("grid"), "setup.grid"),
        (lambda r: r["setup"].update(grid=[[None] * 6] * 5), "setup.grid"),
        (lambda r: r["setup"].update(kettles=["rat_tail-1", "pumpkin-3"]), "setup.kettles"),
        (lambda r: r["setup"].update(recipes="both_gray"), "setup.recipes"),
        (lambda r: r["setup"].update(seed="12"), "setup"),
        (lambda r: r.update(setup={"seed": "12"}), "setup.seed"),
        (lambda r: r.update(setup=None), "setup"),
    ],
)
def test_malformed_records_name_the_field(change: Any, where: str) -> None:
    raw = rules_example()
    change(raw)
    with pytest.raises(RecordError) as exc:
        replay(raw)
    assert exc.value.where == where
    assert where in str(exc.value)


def test_not_json() -> None:
    with pytest.raises(RecordError) as exc:
        Record.loads("{not json")
    assert exc.value.where == "record"


def _deck_dup(r: dict[str, Any]) -> None:
    r["setup"]["deck"].append("moss-2")


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        (_deck_dup, "duplicate_card", "deck[22]"),
        (lambda r: r["setup"]["deck"].append("moss-9"), "unknown_card", "deck[22]"),
        (lambda r: r["setup"]["grid"][0].__setitem__(0, "bat_wing-1"), "bad_grid", "grid[0][0]"),
        (lambda r: r["setup"].update(pawns=[3, 3]), "bad_pawns", "pawns"),
        (lambda r: r["setup"].update(pawns=[3, 20]), "bad_pawns", "pawns[1]"),
        (lambda r: r["setup"].update(pawns=[3]), "bad_pawns", "pawns"),
        (lambda r: r["setup"].update(kettles=[["rat_tail-1"], []]), "bad_kettles", "kettles[1]"),
        (lambda r: r["setup"].update(to_move=2), "bad_setup", "to_move"),
        (lambda r: r["setup"]["recipes"][0].append("pie"), "bad_recipes", "recipes[0]"),
        (lambda r: r["setup"]["recipes"][0].append("last_card"), "bad_recipes", "recipes[1]"),
        (lambda r: r["setup"]["grid"][3].__setitem__(2, None), "bad_grid", "grid"),
    ],
)
def test_unplayable_setups_are_refused(change: Any, code: str, field: str) -> None:
    raw = rules_example()
    change(raw)
    with pytest.raises(RecordError) as exc:
        replay(raw)
    assert exc.value.code == code
    assert exc.value.where.startswith("setup")
    assert field in str(exc.value)


def test_setup_with_an_empty_line_is_refused() -> None:
    raw = record(kettles=[["moss-2"], ["toad-2"]], pawns=[0, 10])
    for row in raw["setup"]["grid"]:
        row[3] = None
    with pytest.raises(RecordError) as exc:
        replay(raw)
    assert "col3 is already empty" in str(exc.value)


def test_recipes_dealt_with_the_option_off() -> None:
    raw = record(kettles=[["moss-2"], ["toad-2"]], pawns=[0, 10], recipes=[["plants"], []])
    with pytest.raises(RecordError) as exc:
        replay(raw)
    assert exc.value.code == "bad_recipes"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"take": "moss-2"}, "not_in_line"),  # not in column 2
        ({"take": "moss-9"}, "unknown_card"),
        ({"take": "toad-3", "targets": [1]}, "bad_target"),  # no symbol
        ({"take": "rat_tail-2", "targets": [1]}, "bad_target"),  # oneself
        ({"take": "rat_tail-2", "targets": [0, 0]}, "bad_target"),
        ({"take": "rat_tail-2", "targets": [2]}, "bad_target"),  # no such seat
    ],
)
def test_illegal_action_names_its_index(action: dict[str, Any], code: str) -> None:
    raw = rules_example()
    raw["actions"][1] = action
    with pytest.raises(RecordError) as exc:
        replay(raw)
    assert exc.value.where == "actions[1]"
    assert exc.value.code == code
    # The actions before the bad one replay fine.
    assert replay(raw, upto=1).ply == 1


def test_record_round_trip_equals_original() -> None:
    options = Options(seed=7, recipes=True)
    game = Game.deal(options)
    rec = Record.new(options)
    again = Record.loads(json.dumps(rec.to_dict())).replay()
    assert again == game


@pytest.mark.parametrize("seed", range(20))
def test_record_deal_equals_new_then_start(seed: int) -> None:
    """The server's one-pass deal gives the record and the game of ``Record.new`` and
    ``start``, events included."""
    options = Options(seed=seed, players=2 + seed % 2, recipes=seed % 3 == 0)
    events: list[Event] = []
    record, game = Record.deal(options, events)
    expected_events: list[Event] = []
    expected = Record.new(options)
    assert record == expected
    assert game == expected.start(expected_events)
    assert events == expected_events
    assert record.replay() == game
