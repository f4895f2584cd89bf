"""docs/RULES.md is the project's rule book: its tables and worked examples are checked
against the engine here, so the page cannot drift from what the game does."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from shared.cards import CARDS, INGREDIENTS, RECIPES, card_index
from shared.events import Event, Exploded, Moved, PassedCorner, Refilled, Took
from shared.game import Game, Take
from shared.geometry import LINE_IDS, SPACE_LINE, SPACE_SLOT
from shared.options import Options
from shared.record import Record
from shared.result import ENDINGS, GameResult, judge
from shared.scoring import score_kettles
from tests.shared.helpers import record, replay, rules_example, with_cards

DOC = (Path(__file__).resolve().parents[2] / "docs" / "RULES.md").read_text(encoding="utf-8")


def section(number: str) -> str:
    """The text of section ``number`` ("4" or "4.6") up to the next heading of its level."""
    level = "##" if "." not in number else "###"
    start = DOC.index(f"\n{level} {number} ")
    following = re.search(rf"\n#{{2,{len(level)}}} ", DOC[start + 1 :])
    return DOC[start : start + 1 + following.start()] if following else DOC[start:]


def test_sections_are_numbered_in_order() -> None:
    found = [int(n) for n in re.findall(r"^## (\d+)\. ", DOC, re.M)]
    assert found == list(range(1, len(found) + 1)) and len(found) >= 12
    for n in found:
        subs = [int(m) for m in re.findall(rf"^### {n}\.(\d+) ", DOC, re.M)]
        assert subs == list(range(1, len(subs) + 1)), f"section {n}"


def test_the_card_table_is_the_card_set() -> None:
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \| (\w+) \| (yes|no) \|(.*)\|$", section("1.1"), re.M)
    assert len(rows) == len(INGREDIENTS) == 14
    for (pos, key, colour, plant, cells), ing in zip(rows, INGREDIENTS, strict=True):
        assert (int(pos), key, colour, plant == "yes") == (
            ing.index,
            ing.key,
            ing.colour,
            ing.plant,
        )
        shown = [c.strip() for c in cells.split("|")]
        for value, cell in enumerate(shown, start=1):
            card = CARDS[card_index(f"{key}-{value}")]
            assert cell.split()[0] == f"`{card.id}`"
            symbol = cell.split()[1].strip("*") if len(cell.split()) > 1 else None
            assert symbol == card.symbol, card.id
            assert card.index == 4 * int(pos) + value - 1  # section 1.2


def test_the_recipe_table_is_the_recipe_set() -> None:
    shown: dict[str, tuple[int, bool]] = {}
    for ids, bonus, three in re.findall(
        r"^\| (`[^|]+) \| [^|]+ \| (\d+) \| (yes|no) \|$", section("8.1"), re.M
    ):
        for rid in re.findall(r"`(\w+)`", ids):
            shown[rid] = (int(bonus), three == "yes")
    assert shown == {r.id: (r.bonus, r.three_players) for r in RECIPES.values()}


def test_the_space_table_of_section_2() -> None:
    for s in range(20):
        slot, line = SPACE_SLOT[s], SPACE_LINE[s]
        if s % 5 == 0:
            assert line < 0 and slot in (0, 5, 35, 30)
        elif s < 5:
            assert (divmod(slot, 6), LINE_IDS[line]) == ((0, s), f"col{s}")
        elif s < 10:
            assert (divmod(slot, 6), LINE_IDS[line]) == ((s - 5, 5), f"row{s - 5}")
        elif s < 15:
            assert (divmod(slot, 6), LINE_IDS[line]) == ((5, 15 - s), f"col{15 - s}")
        else:
            assert (divmod(slot, 6), LINE_IDS[line]) == ((20 - s, 0), f"row{20 - s}")
    # The worked examples of section 2.3.
    assert LINE_IDS[SPACE_LINE[3]] == LINE_IDS[SPACE_LINE[12]] == "col3"
    assert LINE_IDS[SPACE_LINE[7]] == LINE_IDS[SPACE_LINE[18]] == "row2"
    assert SPACE_SLOT[7] == 2 * 6 + 5 and SPACE_SLOT[18] == 2 * 6


def test_the_movement_example_of_section_4_1() -> None:
    events: list[Event] = []
    raw = record(
        grid=with_cards({(3, 0): "whiskers-3"}), kettles=[["toad-3"], ["bat_wing-3"]], pawns=[2, 4]
    )
    game = Record.from_dict(raw).replay(events=events)
    assert events == [Moved(0, 2, 6, (4,))]
    assert LINE_IDS[game.line()] == "row1"


def test_the_legal_decisions_of_section_4_6() -> None:
    # White on space 3 faces col3, which holds a wand card and an exploding card.
    grid = with_cards({(1, 3): "moss-2", (2, 3): "toad-2"})
    game = replay(
        record(grid=grid, kettles=[["eye_of_newt-1"], ["bat_wing-1", "bat_wing-3"]], pawns=[2, 10])
    )
    assert game.line() == LINE_IDS.index("col3")
    takes = game.legal_actions()
    by_card = {c: [t for t in takes if t.card == c] for c in ("moss-2", "toad-2", "root-4")}
    assert by_card["moss-2"] == [Take("moss-2", False), Take("moss-2", True)]
    assert by_card["toad-2"] == [Take("toad-2", False), Take("toad-2", True, (1,))]
    assert by_card["root-4"] == [Take("root-4", False)]
    assert list(dict.fromkeys(t.card for t in takes)) == [row[3] for row in grid]


def test_the_end_example_of_section_5_2() -> None:
    # Empty deck; col2 holds only vine-3 at (3,2); row3 holds other cards. Black's pawn
    # (bat_wing-3 on top) moves from space 10 to 13 and faces col2.
    grid = with_cards({(r, 2): None for r in range(6)} | {(3, 2): "vine-3", (4, 3): "whiskers-3"})
    raw = record(grid=grid, kettles=[["eye_of_newt-1"], ["bat_wing-3"]], pawns=[0, 10], to_move=1)
    game = replay(raw)
    assert game.pawns[1] == 13 and LINE_IDS[game.line()] == "col2"
    assert game.legal_actions() == [
        Take("vine-3", False, None, True),
        Take("vine-3", False, None, False),
    ]
    discard = game.copy()
    discard.apply(Take("vine-3", keep=False))
    game.apply(Take("vine-3"))
    assert game.over and discard.over and game.ended_by == discard.ended_by == 1
    assert game.kettle_ids(1)[-1] == "vine-3" and card_index("vine-3") in discard.out


def test_the_scoring_examples_of_section_6_4() -> None:
    white = [
        "whiskers-1",
        "whiskers-2",
        "whiskers-3",
        "whiskers-4",
        "eye_of_newt-3",
        "moss-1",
        "moss-2",
        "moss-4",
        "toad-2",
        "toad-3",
    ]
    black = [
        "bat_wing-1",
        "bat_wing-3",
        "bat_wing-4",
        "spider_web-4",
        "root-1",
        "root-3",
        "root-4",
        "fungus-2",
        "frog_slime-1",
    ]
    alone = score_kettles([white, black[:1]], ["white", "black"]).scores[0]
    assert sum(i.total for i in alone.ingredients) == 26
    assert [i.total for i in alone.ingredients] == [25, -6, 7, 0]
    hands = [["both_gray", "fewer_fours"], ["one_black", "fewer_cards"]]
    result = score_kettles([white, black], ["white", "black"], hands, ended_by=1)
    w, b = result.scores
    assert (w.total, b.total, result.winners) == (36, 33, (0,))
    assert sum(i.total for i in b.ingredients) == 13 and b.value_one_bonus == 5
    assert [r.met for r in w.recipes] == [False, True] and [r.met for r in b.recipes] == [
        True,
        True,
    ]


def test_the_explosion_example_of_section_7_2() -> None:
    grid = with_cards({(1, 1): "toad-2"})
    raw = record(
        grid=grid,
        deck=["moss-2"],
        kettles=[["eye_of_newt-1"], ["bat_wing-1", "bat_wing-3", "spider_web-3"], ["vine-2"]],
        pawns=[0, 10, 5],
        options={"players": 3},
    )
    game = replay(raw)
    assert [t for t in game.legal_actions() if t.card == "toad-2"] == [
        Take("toad-2", False),
        Take("toad-2", True, (1,)),
    ]
    events: list[Event] = []
    game.apply(Take("toad-2"), events=events)
    assert events[1:3] == [Exploded(0, 1, "spider_web-3", "deck"), Refilled(1, 1, "moss-2")]
    assert game.deck == [card_index("spider_web-3")] and len(game.kettles[2]) == 1


def test_the_three_player_example_of_section_7_3() -> None:
    kettles = [
        ["root-1", "root-2", "vine-1"],
        ["moss-1", "moss-3", "toad-1", "toad-4"],
        ["vine-2", "vine-3", "vine-4", "pumpkin-1", "dragon_blood-2"],
    ]
    hands = [["fewer_cards"], ["fewer_explode"], ["last_card"]]
    result = score_kettles(kettles, ["white", "black", "lilac"], hands, ended_by=2)
    assert [s.total for s in result.scores] == [9, 0, 23] and result.winners == (2,)
    assert [s.value_one_bonus for s in result.scores] == [0, 0, 0]


def test_the_walk_through_of_section_11_4() -> None:
    shown = re.search(r"```json\n(.*?)```", section("11.4"), re.S)
    assert shown is not None
    assert Record.loads(shown.group(1)).to_dict() == Record.from_dict(rules_example()).to_dict()
    events: list[Event] = []
    game = Record.from_dict(rules_example()).replay(events=events)
    took = [e for e in events if isinstance(e, Took)]
    assert [(e.seat, e.card, e.line, e.row, e.col) for e in took] == [
        (0, "eye_of_newt-2", "col1", 1, 1),
        (1, "rat_tail-2", "col2", 4, 2),
        (0, "root-2", "col2", 4, 2),
    ]
    assert [e for e in events if isinstance(e, Exploded)] == [
        Exploded(1, 0, "eye_of_newt-2", "deck")
    ]
    assert [e.card for e in events if isinstance(e, Refilled)] == [
        "spider_web-3",
        "root-2",
        "snake_skin-4",
    ]
    assert [e for e in events if isinstance(e, PassedCorner)] == [PassedCorner(1, 15)]
    assert game.pawns == [4, 15] and game.to_move == 0 and LINE_IDS[game.line()] == "col4"
    assert game.out == []


def test_a_seeded_deal_follows_section_3_6() -> None:
    """Section 3.6 implemented again from its words: the engine deals the same."""
    options = Options(players=2, recipes=True, seed=20261130)
    rng = random.Random(options.seed)
    numbers = list(range(56))
    rng.shuffle(numbers)
    slots = [s for s in range(36) if s not in (0, 5, 30, 35)]
    deck = numbers[32:]  # top first
    kettles = []
    for _seat in range(2):
        while CARDS[deck[0]].colour in ("white", "black"):
            deck.append(deck.pop(0))
        kettles.append([deck.pop(0)])
    pool = sorted(RECIPES)
    rng.shuffle(pool)
    game = Game.deal(options)
    assert [game.grid[s] for s in slots] == numbers[:32]
    assert list(reversed(game.deck)) == deck and game.kettles == kettles
    assert game.recipes == [tuple(pool[0:2]), tuple(pool[2:4])]


def test_section_12_lists_every_ending_and_result_field() -> None:
    endings = re.findall(r"^\| `(\w+)` \| ", section("12.1"), re.M)
    assert tuple(endings) == ENDINGS
    fields = re.findall(r"^\| `(\w+)` \| ", section("12.4"), re.M)
    shown = re.search(r"```json\n(.*?)```", section("12.4"), re.S)
    assert shown is not None
    example = json.loads(shown.group(1))
    assert fields == list(example) == list(GameResult.from_dict(example, 2).to_dict())
    assert GameResult.from_dict(example, 2).to_dict() == example


def test_the_resignation_example_of_section_12_4() -> None:
    """Two players, White resigns behind: Black wins and White takes place 2; the same
    holds ahead, since the result, not the score, decides (section 12.2)."""
    for seed in range(20):
        game = Game.deal(Options(seed=seed))
        result = judge(game, "resigned", resigned=[0])
        assert (result.winners, result.places) == ((1,), (2, 1))
