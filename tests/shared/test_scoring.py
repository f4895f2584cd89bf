"""Scoring (RULES.md section 6): the rulebook example, doubling, the value-1 bonus."""

from __future__ import annotations

from shared.scoring import Score, score_kettles

BLACK_WITH_FOUR_ONES = ["bat_wing-1", "spider_web-1", "root-1", "vine-1"]


def _parts(score: Score) -> dict[str, tuple[int, bool, int]]:
    return {p.ingredient: (p.points, p.doubled, p.bonus) for p in score.ingredients}


def test_rulebook_example_scores_26() -> None:
    white = ["whiskers-1", "whiskers-2", "whiskers-3", "whiskers-4", "eye_of_newt-3"]
    white += ["toad-1", "toad-2", "toad-4", "moss-1", "moss-3"]
    result = score_kettles([white, BLACK_WITH_FOUR_ONES], ("white", "black"))
    score = result.scores[0]
    assert _parts(score) == {
        "whiskers": (20, True, 5),  # 2 x (1+2+3+4) + 5, the +5 not doubled
        "eye_of_newt": (-6, True, 0),  # 2 x -3: the penalty is doubled too
        "toad": (7, False, 0),
        "moss": (0, False, 0),
    }
    assert score.value_one_bonus == 0  # Black holds more value-1 cards
    assert score.total == 26


def test_single_and_pair_and_four_of_another_colour() -> None:
    kettle = ["root-4", "moss-1", "moss-2", "toad-1", "toad-2", "toad-3", "toad-4"]
    score = score_kettles([kettle, ["bat_wing-3"]], ("white", "black")).scores[0]
    assert _parts(score) == {"root": (-4, False, 0), "moss": (0, False, 0), "toad": (10, False, 5)}
    assert score.total == -4 + 0 + 15 + 5  # two value-1 cards against none: +5


def test_black_doubles_black_not_white() -> None:
    black = ["bat_wing-2", "spider_web-1", "spider_web-2", "spider_web-3", "whiskers-4"]
    score = score_kettles([["root-1", "root-2"], black], ("white", "black")).scores[1]
    assert _parts(score) == {
        "bat_wing": (-4, True, 0),
        "spider_web": (12, True, 0),
        "whiskers": (-4, False, 0),
    }


def test_third_colour_scores_double_for_the_third_player() -> None:
    third = ["pumpkin-3", "snake_skin-1", "snake_skin-2", "snake_skin-4"]
    result = score_kettles([["root-3"], ["moss-3"], third], ("white", "black", "green"))
    assert _parts(result.scores[2]) == {"pumpkin": (-6, True, 0), "snake_skin": (14, True, 0)}


def test_value_one_bonus_needs_strictly_the_most() -> None:
    tie = score_kettles([["root-1", "moss-4"], ["vine-1"]], ("white", "black"))
    assert [s.value_one_bonus for s in tie.scores] == [0, 0]
    most = score_kettles([["root-1", "moss-1"], ["vine-1"]], ("white", "black"))
    assert [s.value_one_bonus for s in most.scores] == [5, 0]
    three = score_kettles([["root-1"], ["moss-1"], ["vine-3"]], ("white", "black", "lilac"))
    assert [s.value_one_bonus for s in three.scores] == [0, 0, 0]
    three = score_kettles(
        [["root-1"], ["moss-1", "toad-1"], ["vine-1"]], ("white", "black", "lilac")
    )
    assert [s.value_one_bonus for s in three.scores] == [0, 5, 0]


def test_equal_highest_totals_share_the_win() -> None:
    result = score_kettles([["root-3"], ["moss-3"]], ("white", "black"))
    assert result.winners == (0, 1)
    result = score_kettles([["root-3"], ["moss-4"]], ("white", "black"))
    assert result.winners == (0,)
