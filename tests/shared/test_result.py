"""Results (RULES.md section 12): every ending, who wins, who ranks last, stored in
records and replayed to the same result."""

from __future__ import annotations

import random

import pytest

from shared.errors import RecordError
from shared.game import Game
from shared.options import Options
from shared.record import Record
from shared.result import ENDINGS, GameResult, judge
from shared.scoring import score_game


def _played(players: int, seed: int, takes: int | None = None) -> tuple[Record, Game]:
    """A game of random legal takes (all of them, or the first ``takes``)."""
    record, game = Record.deal(Options(players=players, seed=seed))
    rng = random.Random(seed)
    while not game.over and (takes is None or len(record.actions) < takes):
        take = rng.choice(game.legal_actions())
        game.apply(take)
        record.actions.append(take)
    return record, game


def test_played_out_the_highest_total_wins() -> None:
    for seed in range(20):
        _, game = _played(2, seed)
        r = judge(game, "played_out")
        assert r.winners == score_game(game).winners
        assert r.totals == tuple(s.total for s in score_game(game).scores)
        assert all(r.places[s] == 1 for s in r.winners)
        assert r.resigned == r.replaced == r.timed_out == ()


def test_two_player_resignation_the_other_wins_whatever_the_score() -> None:
    _, game = _played(2, 3, takes=10)
    for quitter in (0, 1):
        r = judge(game, "resigned", resigned=[quitter])
        assert r.winners == (1 - quitter,)
        assert r.places[quitter] == 2 and r.places[1 - quitter] == 1
        assert r.resigned == (quitter,)
        assert r.totals == tuple(s.total for s in score_game(game).scores)  # as it stands


def test_three_player_resigner_is_played_to_the_end_and_ranks_last() -> None:
    for seed in range(30):
        _, game = _played(3, seed)
        totals = [s.total for s in score_game(game).scores]
        quitter = totals.index(max(totals))  # even the best score cannot save it
        r = judge(game, "played_out", resigned=[quitter])
        assert quitter not in r.winners
        assert r.places[quitter] == 3
        assert quitter in r.replaced  # a computer player finished the seat
        rest = [s for s in range(3) if s != quitter]
        best = max(totals[s] for s in rest)
        assert r.winners == tuple(s for s in rest if totals[s] == best)


def test_resignations_leaving_one_seat_end_the_game() -> None:
    _, game = _played(3, 5, takes=12)
    r = judge(game, "resigned", resigned=[2, 0])
    assert r.winners == (1,) and r.resigned == (2, 0)
    assert r.places[1] == 1 and {r.places[0], r.places[2]} <= {2, 3}


def test_claim_abandonment_and_time_outs() -> None:
    _, game = _played(2, 8, takes=6)
    claim = judge(game, "claimed", claimed_by=1, replaced=[0])
    assert claim.winners == (1,) and claim.places == (2, 1) and claim.claimed_by == 1
    gone = judge(game, "abandoned")
    assert gone.winners == () and sorted(gone.places) in ([1, 2], [1, 1])
    out = judge(game, "timed_out", timed_out=[0], replaced=[0])
    assert out.winners == (1,) and out.places == (2, 1)
    both = judge(game, "timed_out", timed_out=[0, 1])
    assert both.winners == ()


@pytest.mark.parametrize(
    ("ending", "kw"),
    [
        ("played_out", {}),  # the game is not over
        ("claimed", {}),  # nobody claimed
        ("resigned", {"claimed_by": 0}),
        ("resigned", {"resigned": [5]}),
        ("finished", {}),
    ],
)
def test_facts_that_do_not_fit_are_refused(ending: str, kw: dict[str, object]) -> None:
    _, game = _played(2, 1, takes=4)
    with pytest.raises(ValueError):
        judge(game, ending, **kw)  # type: ignore[arg-type]


def test_records_store_the_result_and_replay_to_it() -> None:
    record, game = _played(3, 11)
    record.result = judge(game, "played_out", resigned=[1], replaced=[0])
    back = Record.loads(record.dumps())
    assert back.result == record.result
    back.check_result(back.replay())
    # a result the actions do not give is refused, naming the field
    raw = record.to_dict()
    raw["result"]["winners"] = [1]
    bad = Record.from_dict(raw)
    with pytest.raises(RecordError) as e:
        bad.check_result(bad.replay())
    assert e.value.where == "result"


def test_old_records_without_a_result_still_load() -> None:
    record, _ = _played(2, 2, takes=5)
    raw = record.to_dict()
    assert "result" not in raw
    assert Record.from_dict(raw).result is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("ending", "won"),
        ("winners", [7]),
        ("places", [1]),
        ("resigned", "0"),
        ("claimed_by", True),
        ("extra", 1),
    ],
)
def test_malformed_results_name_the_field(field: str, value: object) -> None:
    record, game = _played(2, 4, takes=3)
    raw = record.to_dict()
    raw["result"] = judge(game, "resigned", resigned=[0]).to_dict()
    raw["result"][field] = value
    with pytest.raises(RecordError) as e:
        Record.from_dict(raw)
    assert e.value.where.startswith("result")


def test_every_ending_round_trips() -> None:
    _, game = _played(2, 9, takes=8)
    facts: dict[str, dict[str, object]] = {
        "resigned": {"resigned": [0]},
        "claimed": {"claimed_by": 0, "replaced": [1]},
        "timed_out": {"timed_out": [1], "replaced": [1]},
        "abandoned": {},
    }
    for ending, kw in facts.items():
        r = judge(game, ending, **kw)  # type: ignore[arg-type]
        assert GameResult.from_dict(r.to_dict(), 2) == r
    assert set(facts) | {"played_out"} == set(ENDINGS)
