"""One scenario per rule of RULES.md sections 4 to 8, each a hand-made record replayed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.cards import CARD_IDS, COLOUR_OF, INGREDIENTS, IS_PLAYER_COLOUR, RECIPES, VALUE
from shared.events import Event, Exploded, Moved, PassedCorner
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record, position
from tests.shared.helpers import GRID, diagonal_grid, record, replay, rules_example, with_cards


def replay_events(raw: dict[str, Any]) -> tuple[Game, list[Event]]:
    events: list[Event] = []
    game = Record.from_dict(raw).replay(events=events)
    return game, events


# ---------------------------------------------------------------- 4.1 move


def test_an_occupied_space_is_skipped_and_not_counted() -> None:
    game, events = replay_events(
        record(kettles=[["eye_of_newt-2"], ["eye_of_newt-3"]], pawns=[0, 1])
    )
    assert game.pawns == [3, 1]  # 0 -> (1 occupied) -> 2 -> 3
    assert events == [Moved(0, 0, 3, (1,))]


def test_a_pawn_never_stops_on_an_occupied_space() -> None:
    game = replay(record(kettles=[["eye_of_newt-1"], ["eye_of_newt-3"]], pawns=[0, 1]))
    assert game.pawns == [2, 1]


def test_two_pawns_in_a_row_are_both_skipped() -> None:
    raw = record(
        kettles=[["eye_of_newt-1"], ["eye_of_newt-3"], ["bat_wing-3"]],
        pawns=[0, 1, 2],
        options={"players": 3},
    )
    game, events = replay_events(raw)
    assert game.pawns == [3, 1, 2]
    assert events == [Moved(0, 0, 3, (1, 2))]


def test_corners_count_as_spaces_when_passed() -> None:
    game = replay(record(kettles=[["eye_of_newt-2"], ["eye_of_newt-3"]], pawns=[4, 10]))
    assert game.pawns == [6, 10]  # 4 -> 5 (corner) -> 6
    assert game.line() == 4  # row 1


def test_a_pawn_on_a_corner_is_skipped_too() -> None:
    game = replay(record(kettles=[["eye_of_newt-2"], ["eye_of_newt-3"]], pawns=[3, 5]))
    assert game.pawns == [6, 5]  # 3 -> 4 -> (5 occupied) -> 6


# ---------------------------------------------------------------- 4.2 corner


def test_a_corner_landing_passes_the_turn_without_a_take() -> None:
    raw = record(
        kettles=[["eye_of_newt-2"], ["eye_of_newt-3"]],
        pawns=[3, 10],
        actions=[{"take": "root-3"}],  # Black, from column 2
    )
    game, events = replay_events(raw)
    assert events[:3] == [Moved(0, 3, 5, ()), PassedCorner(0, 5), events[2]]
    start = replay(raw, upto=0)
    assert start.to_move == 1 and start.pawns == [5, 13] and start.ply == 0
    assert start.kettles[0] == [CARD_IDS.index("eye_of_newt-2")]
    assert start.grid_ids() == GRID  # nothing taken, nothing refilled
    # After Black's take White moves on from the corner.
    assert game.to_move == 0 and game.pawns == [7, 13]


# ---------------------------------------------------------------- 4.3 take


def test_the_take_comes_from_the_pawns_line_only() -> None:
    game = replay(record(kettles=[["whiskers-3"], ["eye_of_newt-3"]], pawns=[0, 10]))
    assert game.line() == 2  # space 3: column 3
    assert {t.card for t in game.legal_actions()} == {r[3] for r in GRID} - {None}


# ---------------------------------------------------------------- 4.4 explode

EXPLODE_AT_1_1 = with_cards({(1, 1): "rat_tail-2"})


def _explode(black: list[str], deck: list[str] | None = None, **action: Any) -> dict[str, Any]:
    return record(
        grid=EXPLODE_AT_1_1,
        deck=deck,
        kettles=[["eye_of_newt-1"], black],
        pawns=[0, 10],
        actions=[{"take": "rat_tail-2", **action}],
    )


def test_explosion_sends_the_top_card_under_the_deck() -> None:
    pos = position(replay(_explode(["bat_wing-3", "bat_wing-4"], ["spider_web-3", "spider_web-4"])))
    assert pos["kettles"] == [["eye_of_newt-1", "rat_tail-2"], ["bat_wing-3"]]
    assert pos["deck"] == ["spider_web-4", "bat_wing-4"]
    assert pos["grid"][1][1] == "spider_web-3"


def test_a_one_card_kettle_is_immune() -> None:
    game, events = replay_events(_explode(["bat_wing-3"]))
    assert position(game)["kettles"][1] == ["bat_wing-3"]
    assert not any(isinstance(e, Exploded) for e in events)
    assert (
        position(game)["removed"] == position(replay(_explode(["bat_wing-3"]), upto=0))["removed"]
    )


def test_explosion_with_an_empty_deck_removes_the_card() -> None:
    game, events = replay_events(_explode(["bat_wing-3", "bat_wing-4"]))
    assert game.kettle_ids(1) == ["bat_wing-3"]
    assert game.deck == []
    assert "bat_wing-4" in position(game)["removed"]
    assert Exploded(0, 1, "bat_wing-4", "removed") in events


def test_explosion_resolves_before_the_refill_of_a_one_card_deck() -> None:
    game, events = replay_events(_explode(["bat_wing-3", "bat_wing-4"], ["spider_web-3"]))
    pos = position(game)
    assert pos["grid"][1][1] == "spider_web-3"  # the old top refilled the slot
    assert pos["deck"] == ["bat_wing-4"]  # the exploded card went under it, not out
    assert "bat_wing-4" not in pos["removed"]
    assert Exploded(0, 1, "bat_wing-4", "deck") in events


def test_a_declined_explosion_does_nothing() -> None:
    game = replay(_explode(["bat_wing-3", "bat_wing-4"], special=False))
    assert game.kettle_ids(1) == ["bat_wing-3", "bat_wing-4"]
    assert game.kettle_ids(0) == ["eye_of_newt-1", "rat_tail-2"]


def test_an_empty_target_list_hits_nobody() -> None:
    game = replay(_explode(["bat_wing-3", "bat_wing-4"], targets=[]))
    assert game.kettle_ids(1) == ["bat_wing-3", "bat_wing-4"]


# ---------------------------------------------------------------- 4.4 wand


def _wand(*actions: dict[str, Any], pawns: list[int] | None = None) -> dict[str, Any]:
    return record(
        grid=with_cards({(1, 1): "moss-2", (2, 3): "fungus-2"}),
        kettles=[["eye_of_newt-1"], ["eye_of_newt-3"]],
        pawns=pawns or [0, 10],
        actions=list(actions),
    )


def test_wand_gives_an_extra_turn_and_only_one() -> None:
    raw = _wand({"take": "moss-2"}, {"take": "fungus-2"})
    extra = replay(raw, upto=1)
    assert extra.to_move == 0 and extra.turn_in_row == 2
    assert extra.pawns == [3, 10]  # moved again by the wand card's value 2
    # On the second turn in a row the wand does nothing: listed only without it.
    assert [t for t in extra.legal_actions() if t.card == "fungus-2"] == [Take("fungus-2", False)]
    game = replay(raw)
    assert game.to_move == 1 and game.turn_in_row == 1
    assert game.pawns == [3, 13]


def test_a_declined_wand_ends_the_turn() -> None:
    game = replay(_wand({"take": "moss-2", "special": False}))
    assert game.to_move == 1 and game.turn_in_row == 1


def test_an_extra_turn_can_end_on_a_corner() -> None:
    raw = record(
        grid=with_cards({(3, 5): "moss-2"}),
        kettles=[["eye_of_newt-1"], ["eye_of_newt-3"]],
        pawns=[7, 10],
        actions=[{"take": "moss-2"}],  # White stands at 8 (row 3)
    )
    game = replay(raw)  # the extra turn: 8 -> 9 -> (10 occupied) -> 11
    assert game.pawns[0] == 11 and game.to_move == 0
    raw["setup"]["pawns"] = [7, 11]
    game, events = replay_events(raw)  # 8 -> 9 -> 10, a corner: the extra turn passes
    assert PassedCorner(0, 10) in events
    assert game.to_move == 1 and game.turn_in_row == 1


# ---------------------------------------------------------------- 4.5 refill


def test_refill_from_the_top_of_the_deck() -> None:
    raw = record(
        deck=["spider_web-3", "spider_web-4"],
        kettles=[["eye_of_newt-1"], ["eye_of_newt-3"]],
        pawns=[0, 10],
        actions=[{"take": "dragon_blood-3"}],
    )
    pos = position(replay(raw))
    assert pos["grid"][5][1] == "spider_web-3" and pos["deck"] == ["spider_web-4"]


def test_no_refill_once_the_deck_is_empty() -> None:
    raw = record(kettles=[["eye_of_newt-1"], ["eye_of_newt-3"]], pawns=[0, 10])
    raw["actions"] = [{"take": "dragon_blood-3"}]
    assert position(replay(raw))["grid"][5][1] is None


# ---------------------------------------------------------------- 5 end


def _ending(card: str, **action: Any) -> dict[str, Any]:
    return record(
        grid=diagonal_grid([card, "root-3", "moss-3", "toad-3"]),
        kettles=[["eye_of_newt-1"], ["bat_wing-3", "bat_wing-4"]],
        pawns=[0, 10],
        actions=[{"take": card, **action}],
    )


def test_the_game_ending_card_is_kept_without_its_symbol() -> None:
    before = replay(_ending("rat_tail-2"), upto=0)
    assert before.legal_actions() == [
        Take("rat_tail-2", False, None, True),
        Take("rat_tail-2", False, None, False),
    ]
    game = replay(_ending("rat_tail-2"))
    assert game.over and game.ended_by == 0
    assert game.kettle_ids(0) == ["eye_of_newt-1", "rat_tail-2"]
    assert game.kettle_ids(1) == ["bat_wing-3", "bat_wing-4"]  # no explosion
    pos = position(game)
    assert pos["game_over"] and pos["to_move"] is None and pos["ended_by"] == 0
    assert len(pos["scores"]) == 2


def test_the_game_ending_card_may_be_discarded() -> None:
    game = replay(_ending("rat_tail-2", keep=False))
    assert game.over
    assert game.kettle_ids(0) == ["eye_of_newt-1"]
    assert "rat_tail-2" in position(game)["removed"]


def test_a_game_ending_wand_gives_no_extra_turn() -> None:
    game = replay(_ending("moss-2"))
    assert game.over and game.turn_in_row == 1


def test_special_and_targets_are_ignored_on_the_game_ending_card() -> None:
    game = replay(_ending("rat_tail-2", special=True, targets=[0]))
    assert game.over and game.kettle_ids(1) == ["bat_wing-3", "bat_wing-4"]


def test_no_action_after_the_end() -> None:
    raw = _ending("rat_tail-2")
    raw["actions"].append({"take": "root-3"})
    with pytest.raises(Exception) as exc:
        replay(raw)
    assert getattr(exc.value, "code", None) == "game_over"
    assert getattr(exc.value, "where", None) == "actions[1]"


def test_emptying_an_edge_row_does_not_end_the_game() -> None:
    grid: list[list[str | None]] = [[None] * 6 for _ in range(6)]
    grid[0][1], grid[2][1] = "root-1", "root-3"
    for i in (2, 3, 4):
        grid[i][i] = f"moss-{i}" if i != 2 else "moss-1"
    grid[1][2] = "toad-1"
    raw = record(grid=grid, kettles=[["eye_of_newt-1"], ["eye_of_newt-3"]], pawns=[0, 10])
    raw["actions"] = [{"take": "root-1"}]  # row 0 is now empty: not a selectable line
    assert not replay(raw).over
    raw["actions"] = [{"take": "root-3"}]  # row 2 still holds moss-1, column 1 root-1
    assert not replay(raw).over


def test_emptying_a_row_ends_the_game() -> None:
    grid = diagonal_grid(["root-1", "root-3", "moss-3", "toad-1"])
    grid[5][1] = "vine-1"  # column 1 keeps a card; row 1 will not
    raw = record(grid=grid, kettles=[["eye_of_newt-1"], ["eye_of_newt-3"]], pawns=[0, 10])
    raw["actions"] = [{"take": "root-1"}]
    assert replay(raw).over


# ---------------------------------------------------------------- 8 recipes


def _of(key: str, *values: int) -> list[str]:
    return [f"{key}-{v}" for v in values]


COLOUR_KEYS = {
    c: [i.key for i in INGREDIENTS if i.colour == c]
    for c in ("gray", "blue", "brown", "green", "lilac")
}

# recipe -> (seat 0's kettle when met, when missed, seat 1's kettle)
RECIPE_CASES: dict[str, tuple[list[str], list[str], list[str]]] = {
    **{
        f"both_{c}": (
            _of(COLOUR_KEYS[c][0], 1, 2, 4) + _of(COLOUR_KEYS[c][1], 1, 2, 4),
            _of(COLOUR_KEYS[c][0], 1, 2, 4) + _of(COLOUR_KEYS[c][1], 1, 2),
            ["bat_wing-1"],
        )
        for c in ("gray", "blue", "brown", "green", "lilac")
    },
    "one_black": (
        _of("spider_web", 1, 2, 4),
        _of("spider_web", 1, 2) + _of("bat_wing", 1, 2),
        ["root-1"],
    ),
    "one_white": (
        _of("whiskers", 2, 3, 4),
        _of("whiskers", 2, 3) + _of("eye_of_newt", 2, 4),
        ["root-1"],
    ),
    "fewer_explode": (["root-1"], ["frog_slime-2"], ["rat_tail-2"]),
    "plants": (
        _of("root", 1, 2, 4) + _of("moss", 1, 2, 4) + _of("vine", 1, 2, 4),
        _of("root", 1, 2, 4) + _of("moss", 1, 2, 4) + _of("vine", 1, 2) + _of("pumpkin", 1, 2),
        ["bat_wing-1"],
    ),
    "fewer_wand": (["root-1"], ["root-2"], ["vine-2"]),
    "fewer_cards": (["root-1"], ["root-1", "moss-1"], ["bat_wing-1", "bat_wing-2"]),
    "fewer_fours": (["root-1"], ["root-4"], ["bat_wing-4"]),
}


def _recipe_record(rid: str, mine: list[str], theirs: list[str], ends: int) -> dict[str, Any]:
    """Seat 0 holds ``rid``; seat ``ends`` takes the last card and discards it."""
    used = set(mine) | set(theirs)
    free = [c for c in CARD_IDS if c not in used][:4]
    top = VALUE[CARD_IDS.index((mine, theirs)[ends][-1])]
    # The ender moves to column 1 (White) or column 2 (Black) and takes its only card.
    pawns = [(1 - top) % 20, 10] if ends == 0 else [0, 13 - top]
    return record(
        grid=diagonal_grid(free),
        kettles=[mine, theirs],
        pawns=pawns,
        to_move=ends,
        recipes=[[rid], []],
        options={"recipes": "on"},
        actions=[{"take": free[ends], "keep": False}],
    )


@pytest.mark.parametrize("rid", sorted(RECIPES))
@pytest.mark.parametrize("met", [True, False])
def test_every_recipe_met_and_missed(rid: str, met: bool) -> None:
    if rid == "last_card":
        raw = _recipe_record(rid, ["root-1"], ["moss-1"], ends=0 if met else 1)
    else:
        mine_met, mine_missed, theirs = RECIPE_CASES[rid]
        raw = _recipe_record(rid, mine_met if met else mine_missed, theirs, ends=0)
    game = replay(raw)
    assert game.over
    recipes = list(position(game)["scores"][0]["recipes"])
    assert recipes == [{"id": rid, "met": met, "bonus": RECIPES[rid].bonus if met else 0}]


def test_all_recipes_are_covered() -> None:
    assert set(RECIPE_CASES) | {"last_card"} == set(RECIPES)
    assert len(RECIPES) == 13


def test_recipe_bonus_is_added_to_the_total() -> None:
    raw = _recipe_record("fewer_cards", ["root-1"], ["bat_wing-1", "bat_wing-2"], ends=0)
    score = position(replay(raw))["scores"][0]
    parts = sum(p["total"] for p in score["ingredients"])
    assert score["total"] == parts + score["value_one_bonus"] + 10


def test_two_players_get_two_recipes_each_from_all_thirteen() -> None:
    seen: set[str] = set()
    for seed in range(40):
        hands = Game.deal(Options(seed=seed, recipes=True)).recipes
        assert [len(h) for h in hands] == [2, 2]
        assert len(set(hands[0]) | set(hands[1])) == 4
        seen.update(*hands)
    assert seen == set(RECIPES)


def test_no_recipes_without_the_variant() -> None:
    assert Game.deal(Options(seed=3)).recipes == [(), ()]


# ---------------------------------------------------------------- 7 three players


def test_three_players_get_one_plus_ten_recipe_each_never_plants() -> None:
    allowed = {"last_card", "fewer_explode", "fewer_wand", "fewer_cards", "fewer_fours"}
    seen: set[str] = set()
    for seed in range(40):
        hands = Game.deal(Options(seed=seed, players=3, recipes=True)).recipes
        assert [len(h) for h in hands] == [1, 1, 1]
        assert len({h[0] for h in hands}) == 3
        seen.update(h[0] for h in hands)
    assert seen == allowed


def test_three_player_start() -> None:
    game = Game.deal(Options(seed=11, players=3, third_colour="green"))
    assert game.options.colours == ("white", "black", "green")
    assert game.to_move == 0
    assert Game.deal_setup(Options(seed=11, players=3)).pawns == (0, 10, 5)


def _three(black: list[str], third: list[str], **action: Any) -> dict[str, Any]:
    return record(
        grid=EXPLODE_AT_1_1,
        kettles=[["eye_of_newt-1"], black, third],
        pawns=[0, 10, 5],
        options={"players": 3},
        actions=[{"take": "rat_tail-2", **action}],
    )


TWO_EACH = (["bat_wing-3", "bat_wing-4"], ["spider_web-3", "spider_web-4"])


def test_three_player_explosion_hits_every_other_player_by_default() -> None:
    game = replay(_three(*TWO_EACH))
    assert game.kettle_ids(1) == ["bat_wing-3"] and game.kettle_ids(2) == ["spider_web-3"]
    assert {"bat_wing-4", "spider_web-4"} <= set(position(game)["removed"])


def test_three_player_explosion_hits_the_chosen_targets() -> None:
    game = replay(_three(*TWO_EACH, targets=[2]))
    assert game.kettle_ids(1) == ["bat_wing-3", "bat_wing-4"]
    assert game.kettle_ids(2) == ["spider_web-3"]


def test_three_player_explosion_choices_skip_immune_kettles() -> None:
    raw = _three(["bat_wing-3"], ["spider_web-3", "spider_web-4"])
    start = replay(raw, upto=0)
    assert [t for t in start.legal_actions() if t.card == "rat_tail-2"] == [
        Take("rat_tail-2", False),
        Take("rat_tail-2", True, (2,)),
    ]
    all_three = _three(*TWO_EACH)
    start = replay(all_three, upto=0)
    assert [t.targets for t in start.legal_actions() if t.card == "rat_tail-2"] == [
        None,
        (1,),
        (2,),
        (1, 2),
    ]
    raw["actions"][0]["targets"] = [1]  # naming an immune kettle is legal and does nothing
    assert replay(raw).kettle_ids(1) == ["bat_wing-3"]


def test_three_player_turn_order() -> None:
    raw = _three(*TWO_EACH, special=False)
    raw["setup"]["kettles"] = [["eye_of_newt-1"], ["eye_of_newt-3"], ["whiskers-4"]]
    raw["actions"].append({"take": "dragon_blood-4"})  # Black from column 2
    game, events = replay_events(raw)
    moved = [e.seat for e in events if isinstance(e, Moved)]
    assert moved == [0, 1, 2]
    assert game.to_move == 2


def test_fewer_than_every_other_player() -> None:
    grid = diagonal_grid(["whiskers-1", "dragon_blood-3", "dragon_blood-4", "toad-3"])
    raw = record(
        grid=grid,
        kettles=[["root-1"], ["moss-1", "moss-3"], ["vine-1"]],
        pawns=[0, 10, 5],
        options={"players": 3, "recipes": "on"},
        recipes=[["fewer_cards"], ["fewer_fours"], ["fewer_wand"]],
        actions=[{"take": "whiskers-1", "keep": False}],
    )
    scores = position(replay(raw))["scores"]
    assert scores[0]["recipes"][0]["met"] is False  # ties with the third player
    assert scores[1]["recipes"][0]["met"] is False  # nobody holds a four
    raw["setup"]["kettles"][2].append("vine-3")
    assert position(replay(raw))["scores"][0]["recipes"][0]["met"] is True


# ---------------------------------------------------------------- 3 set-up


def _oracle_start(seed: int, options: Options) -> tuple[list[list[str]], list[str]]:
    """Section 3 done by hand: kettles and the deck (top first) a seed gives."""
    rng = random.Random(seed)
    cards = list(range(56))
    rng.shuffle(cards)
    deck = cards[32:]
    kettles = []
    for colour in options.colours:
        while True:
            card = deck.pop(0)
            refused = (
                IS_PLAYER_COLOUR[card]
                if options.start_card == "no_player_colors"
                else COLOUR_OF[card] == colour
            )
            if not refused:
                kettles.append([CARD_IDS[card]])
                break
            deck.append(card)  # under the deck
    return kettles, [CARD_IDS[c] for c in deck]


@pytest.mark.parametrize("start_card", ["no_player_colors", "not_own_color"])
@pytest.mark.parametrize("players", [2, 3])
def test_start_cards(start_card: str, players: int) -> None:
    refused_any = False
    for seed in range(60):
        options = Options(seed=seed, players=players, start_card=start_card)
        setup = Game.deal_setup(options)
        kettles, deck = _oracle_start(seed, options)
        assert [list(k) for k in setup.kettles] == kettles
        assert list(setup.deck) == deck
        refused_any |= (
            deck[-1] in {c for k in kettles for c in k}
            or IS_PLAYER_COLOUR[CARD_IDS.index(deck[-1])]
        )
        for colour, (card,) in zip(options.colours, setup.kettles, strict=True):
            c = CARD_IDS.index(card)
            if start_card == "no_player_colors":
                assert not IS_PLAYER_COLOUR[c]
            else:
                assert COLOUR_OF[c] != colour
    assert refused_any


def test_not_own_color_allows_the_other_player_colour() -> None:
    colours = set()
    for seed in range(200):
        setup = Game.deal_setup(Options(seed=seed, start_card="not_own_color"))
        colours.add(COLOUR_OF[CARD_IDS.index(setup.kettles[0][0])])
    assert "black" in colours and "white" not in colours


def test_the_deal_is_reproducible() -> None:
    assert Game.deal(Options(seed=5)) == Game.deal(Options(seed=5))
    assert Game.deal(Options(seed=5)) != Game.deal(Options(seed=6))


# ---------------------------------------------------------------- 11 the example


def test_rules_md_section_11_example() -> None:
    game, events = replay_events(rules_example())
    pos = position(game)
    assert pos["pawns"] == [4, 15]
    assert pos["to_move"] == 0 and not pos["game_over"] and pos["ply"] == 3
    assert pos["kettles"] == [["rat_tail-1", "root-2"], ["pumpkin-3", "rat_tail-2"]]
    assert pos["grid"][1][1] == "spider_web-3"
    assert pos["grid"][4][2] == "snake_skin-4"
    assert pos["deck"][0] == "whiskers-1" and pos["deck"][-1] == "eye_of_newt-2"
    assert len(pos["deck"]) == 20 and pos["removed"] == []
    assert Exploded(1, 0, "eye_of_newt-2", "deck") in events
    assert PassedCorner(1, 15) in events
    assert game.line() == 3  # column 4
