"""The analysis of a game (shared/analysis.py, shared/bots/appraise.py) is fair to what
each seat knew and says what it should.

- The information-set property: two records that agree on everything a seat saw up to
  one of its decisions, but not on the hidden cards (the deck below what was revealed,
  another seat's recipes and kettle cards under its top), give that decision the very
  same analysis with the same seed.
- Positions where one take clearly wins: the analysis names it and marks the other.
- The leak check: an analysis of one seat names no card or recipe that seat could not
  know at the decision it names it in.
- The result is plain data: JSON and back, deterministic, one seat as in the whole.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest

from shared.analysis import MARKS, Analysis, analyse, mark, suggest
from shared.bots.appraise import as_listed
from shared.cards import RECIPES
from shared.game import Game, Take
from shared.options import Options
from shared.record import Record, action_to_dict
from shared.scoring import totals
from shared.view import view
from tests.helpers.leak_oracle import may_know

from .helpers import play_random, rules_example

BUDGET = 12
CARD = re.compile(r"[a-z_]+-[1-4]")


def _hidden_kettle_record(options: Options, rng: random.Random, plies: int) -> Record:
    """A hand-made start (the deal of ``options`` with three deck cards moved under the
    start card of the last seat's kettle, where nobody saw them) and ``plies`` random
    legal takes."""
    setup = Game.deal_setup(options)
    hidden, deck = setup.deck[-3:], setup.deck[:-3]
    last = setup.kettles[-1]
    kettles = (*setup.kettles[:-1], (*hidden, *last))
    rec = Record(options, replace(setup, deck=deck, kettles=kettles))
    game = rec.replay()
    while not game.over and len(rec.actions) < plies:
        take = rng.choice(game.legal_actions())
        game.apply(take)
        rec.actions.append(take)
    return rec


def _twin(rec: Record, seat: int, rng: random.Random) -> Record:
    """``rec`` with what ``seat`` cannot have seen changed: the deck cards no refill has
    shown yet shuffled together with the cards under the last seat's start card (unless
    that is ``seat``'s own kettle), and the other seats' recipes dealt anew."""
    setup = rec.start_setup()
    shown = len(rec.actions)  # each take refills from the top of the deck at most once
    deck = list(setup.deck)
    kettles = [list(k) for k in setup.kettles]
    places: list[tuple[list[str], int]] = [(deck, i) for i in range(shown, len(deck))]
    if seat != len(kettles) - 1:
        places += [(kettles[-1], i) for i in range(len(kettles[-1]) - 1)]
    cards = [where[i] for where, i in places]
    before = list(cards)
    while len(set(cards)) > 1 and cards == before:
        rng.shuffle(cards)
    for (where, i), card in zip(places, cards, strict=True):
        where[i] = card
    recipes = [tuple(h) for h in setup.recipes]
    if rec.options.recipes:
        pool = [r.id for r in RECIPES.values() if rec.options.players == 2 or r.three_players]
        unused = [r for r in pool if r not in recipes[seat]]
        rng.shuffle(unused)
        for s in range(len(recipes)):
            if s != seat:
                n = len(recipes[s])
                recipes[s], unused = tuple(unused[:n]), unused[n:]
    twin = replace(
        setup, deck=tuple(deck), kettles=tuple(map(tuple, kettles)), recipes=tuple(recipes)
    )
    return Record(rec.options, twin, list(rec.actions))


@pytest.mark.parametrize(
    ("players", "recipes", "seed"), [(2, False, 1), (2, True, 2), (3, False, 3), (3, True, 4)]
)
def test_a_decision_is_analysed_from_what_its_seat_knew(
    players: int, recipes: bool, seed: int
) -> None:
    rng = random.Random(seed)
    options = Options(players=players, recipes=recipes, seed=seed)
    rec = _hidden_kettle_record(options, rng, rng.randrange(6, 14))
    game = rec.replay()
    assert not game.over
    seat = game.to_move
    rec.actions.append(rng.choice(game.legal_actions()))  # the decision analysed
    twin = _twin(rec, seat, rng)
    before = Record(rec.options, rec.setup, rec.actions[:-1])
    twin_before = Record(twin.options, twin.setup, twin.actions[:-1])
    # the hidden cards differ, what the seat saw does not
    assert twin.replay().key() != rec.replay().key()
    assert view(twin_before.replay(), seat) == view(before.replay(), seat)
    mine = analyse(rec, budget=BUDGET, seed=5, seats=(seat,))
    theirs = analyse(twin, budget=BUDGET, seed=5, seats=(seat,))
    assert mine.decisions[-1].ply == len(rec.actions) - 1
    assert mine.decisions == theirs.decisions
    assert mine.decisions[-1].takes == theirs.decisions[-1].takes  # values and all


@pytest.mark.parametrize(("players", "recipes", "seed"), [(2, True, 6), (3, False, 7)])
def test_a_hint_is_weighed_from_what_the_seat_to_move_knows(
    players: int, recipes: bool, seed: int
) -> None:
    """``suggest`` (1.5's hints): the same for two records that differ only where the
    seat to move could not see, and the expert's choice of the analysis there."""
    rng = random.Random(seed)
    rec = _hidden_kettle_record(Options(players=players, recipes=recipes, seed=seed), rng, 9)
    seat = rec.replay().to_move
    twin = _twin(rec, seat, rng)
    assert twin.replay().key() != rec.replay().key()
    mine, theirs = suggest(rec, budget=BUDGET, seed=5), suggest(twin, budget=BUDGET, seed=5)
    assert mine == theirs and mine.seat == seat and mine.budget == BUDGET
    rec.actions.append(mine.take)
    best = analyse(rec, budget=BUDGET, seed=5, seats=(seat,)).decisions[-1]
    assert (best.best, best.cost, best.value) == (mine.take, 0.0, mine.value)
    with pytest.raises(ValueError):
        suggest(rec, budget=0)


def test_the_twins_differ_where_the_seat_could_not_see() -> None:
    """Control: the twin of a seat's record is a different game to the other seats, so
    the equality above is not that of two copies."""
    rng = random.Random(8)
    rec = _hidden_kettle_record(Options(players=2, recipes=True, seed=8), rng, 6)
    twin = _twin(rec, 0, rng)
    start, other = rec.start_setup(), twin.start_setup()
    assert start.kettles[1][:-1] != other.kettles[1][:-1] or start.deck != other.deck
    assert start.recipes[1] != other.recipes[1] and start.recipes[0] == other.recipes[0]


def _end_game(kettles: list[list[str]], line: list[str]) -> Record:
    """Two players, the deck empty, White to move facing ``col1`` holding ``line`` (one
    card per row, each the last of its row: every take ends the game), ``memory``
    casual and every other card placed or out of the game: the cards under Black's top
    can only be those left over, so White knows every total but for their order."""
    grid: list[list[str | None]] = [[None] * 6 for _ in range(6)]
    for row, card in enumerate(line, start=1):
        grid[row][1] = card
    grid[3][3], grid[4][4], grid[0][2] = "toad-3", "toad-4", "fungus-3"
    raw = {
        "format": "kupferkessel-record/1",
        "options": {"memory": "casual"},
        "setup": {"grid": grid, "deck": [], "kettles": kettles, "pawns": [0, 10]},
        "actions": [],
    }
    return Record.from_dict(raw)


def test_the_winning_card_is_the_experts_and_the_losing_one_a_blunder() -> None:
    # White's top whiskers-1 moves its pawn from 0 to col1. Keeping eye_of_newt-4 makes
    # four of a kind in White's own colour; vine-4 is a lone card of another colour.
    white = ["eye_of_newt-1", "eye_of_newt-2", "eye_of_newt-3", "whiskers-1"]
    black = ["bat_wing-1", "bat_wing-2", "bat_wing-3", "bat_wing-4", "spider_web-3"]
    rec = _end_game([white, black], ["eye_of_newt-4", "vine-4"])
    game = rec.replay()
    assert game.to_move == 0 and game.line() >= 0
    outcome = {}
    for take in game.legal_actions():
        after = game.copy()
        after.apply(take)
        assert after.over
        points = totals(after)
        outcome[take] = points[0] - points[1]
    win, lose = Take("eye_of_newt-4", False, None, True), Take("vine-4", False, None, True)
    assert outcome[win] > 0 > outcome[lose]  # the position is what the test says
    assert max(outcome, key=outcome.__getitem__) == win
    rec.actions.append(Take("vine-4"))  # as a record writes it: keep by default
    analysis = analyse(rec, budget=BUDGET, seed=1)
    (d,) = analysis.decisions
    assert d.best == win and d.take == lose
    assert d.cost == outcome[win] - outcome[lose] and d.noise == 0.0  # nothing hidden
    assert d.mark == "blunder" and d.cost >= dict(MARKS)["blunder"]
    assert {t.take: t.value for t in d.takes} == {t: float(v) for t, v in outcome.items()}
    (s,) = [x for x in analysis.summaries if x.seat == 0]
    assert s.worst == 0 and s.blunders == 1 and s.lost == d.cost and s.final == outcome[lose]


def test_finding_the_only_winning_take_is_the_best_decision() -> None:
    white = ["eye_of_newt-1", "eye_of_newt-2", "eye_of_newt-3", "whiskers-1"]
    black = ["bat_wing-1", "bat_wing-2", "bat_wing-3", "bat_wing-4", "spider_web-3"]
    rec = _end_game([white, black], ["eye_of_newt-4", "vine-4"])
    rec.actions.append(Take("eye_of_newt-4"))
    (d,) = analyse(rec, budget=BUDGET, seed=1).decisions
    assert d.take == d.best and d.cost == 0.0 and d.mark is None
    assert d.edge == d.value - max(t.value for t in d.takes if t.take != d.take) > 0


def test_marks_by_cost() -> None:
    least = dict(MARKS)
    assert mark(0.0) is None and mark(least["inaccuracy"] - 0.01) is None
    assert mark(least["inaccuracy"]) == "inaccuracy"
    assert mark(least["mistake"]) == "mistake"
    assert mark(least["blunder"] + 100) == "blunder"
    assert least["inaccuracy"] < least["mistake"] < least["blunder"]


def test_a_take_is_read_as_the_legal_take_with_its_effect() -> None:
    rec = Record.from_dict(rules_example())
    game = rec.replay(1)  # Black to move in col2, rat_tail-2 explodes, White can be hit
    seen = view(game, 1)
    assert as_listed(seen, Take("rat_tail-2")) == Take("rat_tail-2", True, (0,))
    assert as_listed(seen, Take("rat_tail-2", True, (0,))) == Take("rat_tail-2", True, (0,))
    assert as_listed(seen, Take("rat_tail-2", False)) == Take("rat_tail-2", False)
    assert as_listed(seen, Take("toad-3")) == Take("toad-3", False)
    with pytest.raises(ValueError, match="not in the line"):
        as_listed(seen, Take("moss-4"))


@pytest.mark.parametrize("players", [2, 3])
def test_an_analysis_of_a_seat_names_only_cards_it_could_know(players: int) -> None:
    rng = random.Random(players)
    options = Options(players=players, recipes=True, seed=players + 10)
    rec = play_random(options, rng)
    states = [rec.start()]
    for take in rec.actions:
        states.append(states[-1].copy())
        states[-1].apply(take)
    for seat in range(players):
        out = analyse(rec, budget=2, seed=0, seats=(seat,)).to_dict()
        for d in out.pop("decisions"):
            assert d["seat"] == seat
            cards, recipes = may_know(states[d["ply"]], seat)
            named = set(CARD.findall(json.dumps(d)))
            assert named and named <= cards, named - cards
            assert not any(r in json.dumps(d) for r in RECIPES if r not in recipes)
        rest = json.dumps(out)
        assert CARD.findall(rest) == [] and not any(r in rest for r in RECIPES)


def test_the_analysis_is_plain_data_and_deterministic() -> None:
    rec = play_random(Options(players=3, recipes=True, seed=21), random.Random(21))
    rec = Record(rec.options, rec.setup, rec.actions[:18])  # a game in progress
    whole = analyse(rec, budget=3, seed=9)
    again = Analysis.from_dict(json.loads(json.dumps(whole.to_dict())))
    assert again == whole
    assert analyse(rec, budget=3, seed=9) == whole
    assert analyse(rec, budget=3, seed=10) != whole
    one = analyse(rec, budget=3, seed=9, seats=(1,))
    assert one.decisions == tuple(d for d in whole.decisions if d.seat == 1)
    assert one.summaries == tuple(s for s in whole.summaries if s.seat == 1)
    assert [d.ply for d in whole.decisions] == list(range(len(rec.actions)))
    for d in whole.decisions:
        values = [t.value for t in d.takes]
        assert d.cost == pytest.approx(max(values) - d.value, abs=0.011) and d.cost >= 0
        assert action_to_dict(d.best) in [action_to_dict(t.take) for t in d.takes]
    for s in whole.summaries:
        assert [p for p, _ in s.series] == [d.ply for d in whole.decisions if d.seat == s.seat]
        assert s.final is None  # the game runs on


def test_bad_arguments_are_refused() -> None:
    rec = play_random(Options(seed=3), random.Random(3))
    with pytest.raises(ValueError, match="budget"):
        analyse(rec, budget=0)
    with pytest.raises(ValueError, match="no such seat"):
        analyse(rec, budget=1, seats=(2,))
    with pytest.raises(ValueError, match="not an analysis"):
        Analysis.from_dict({"format": "kupferkessel-analysis/1"})
    with pytest.raises(ValueError, match="format"):
        Analysis.from_dict({"format": "other"})
