"""Who plays each seat (``server.core.lineup``): each transition of a ``Lineup`` and
what it tells its table to do, without an event loop, a store or a table."""

from __future__ import annotations

import pytest

from server.core.errors import TableError
from server.core.life import TableLife
from server.core.lineup import Ends, Lineup, TakeOver, TimeUp
from shared.clock import Clock, TimeRules
from shared.options import Options
from shared.record import Record

GRACE = 60.0
CLOCKED = TimeRules(move=20.0, reserve=10.0, grace=GRACE, absent_after=2)


class Bot:
    """A stand-in: the lineup only holds it."""


def lineup(players: int = 2, timing: TimeRules = CLOCKED) -> Lineup[Bot]:
    return Lineup(players, timing)


def test_a_person_away_is_due_a_stand_in_after_the_grace_period() -> None:
    up = lineup(timing=TimeRules(grace=GRACE))
    assert up.next_due() is None and up.due(1e9) == []  # everyone here, no clock
    up.went_away(1, 100.0)
    up.went_away(1, 130.0)  # still away since the first time
    assert up.next_due() == 100.0 + GRACE
    assert up.due(100.0 + GRACE - 1) == []
    assert up.due(100.0 + GRACE) == [TakeOver(1)]
    assert not up.absent(1) and up.may_take(1)  # nothing changes until it stands in


def test_a_stand_in_plays_the_seat_until_its_person_is_back() -> None:
    up = lineup()
    up.went_away(1, 0.0)
    bot = Bot()
    up.stood_in(1, bot)
    assert up.absent(1) and not up.may_take(1) and up.plays(1, bot)
    assert not up.plays(1, Bot()) and not up.plays(0, bot)
    assert up.due(1e9) == [] and up.next_due() is None  # stood in: nothing more due
    assert up.replaced == {1}
    up.expiries[1] = 1
    assert up.back(1) is bot  # the table stops it
    assert not up.absent(1) and up.may_take(1) and not up.plays(1, bot)
    assert up.expiries[1] == 0 and up.absent_since == {}
    assert up.replaced == {1}  # it played the seat at some point: the result says so
    assert up.back(1) is None  # nothing more to stop


def test_a_person_s_own_take_forgives_its_time_outs_unless_refused() -> None:
    up = lineup()
    up.ran_out(0)
    held = up.person_takes(0)
    assert (up.expiries[0], up.own[0]) == (0, 1)
    up.refused(0, held)
    assert (up.expiries[0], up.own[0]) == (1, 0)


def test_time_outs_in_a_row_make_a_seat_absent_and_then_end_the_game() -> None:
    up = lineup(players=3)
    people = [0, 1]  # seat 2 is a server-side bot
    up.ran_out(0)
    assert up.after_time_out(0, people) == [] and up.may_take(0)
    up.ran_out(0)
    assert not up.may_take(0)  # its last time-out's state offers it no take
    assert up.after_time_out(0, people) == [TakeOver(0)] and up.timed_out == {0}
    up.ran_out(2)
    up.ran_out(2)
    assert up.after_time_out(2, people) == []  # a bot's seat never counts as absent
    up.ran_out(1)
    up.ran_out(1)
    assert up.after_time_out(1, people) == [TakeOver(1), Ends("timed_out")]
    assert up.timed_out == {0, 1}


def test_a_resigned_seat_s_time_outs_change_nothing() -> None:
    up = lineup(players=3)
    assert up.resign(0, [0, 1]) == TakeOver(0)
    up.ran_out(0)
    up.ran_out(0)
    assert up.after_time_out(0, [0, 1]) == [] and up.timed_out == set()


def test_resigning_ends_a_game_of_two_or_leaves_a_computer_to_play_on() -> None:
    assert lineup(players=2).resign(1, [0, 1]) == Ends("resigned")
    up = lineup(players=3)
    assert up.resign(0, [0, 1, 2]) == TakeOver(0)
    assert not up.may_take(0) and up.resigned == [0]
    with pytest.raises(TableError) as e:
        up.resign(0, [0, 1, 2])
    assert e.value.code == "not_allowed" and up.resigned == [0]
    assert up.resign(2, [0, 1, 2]) == Ends("resigned") and up.resigned == [0, 2]


def test_resigning_ends_the_game_when_only_computer_players_are_left() -> None:
    up = lineup(players=3)
    assert up.resign(0, [0, 2]) == TakeOver(0)
    assert up.resign(2, [0, 2]) == Ends("resigned")  # seat 1 is a bot


def test_a_resigned_seat_s_stand_in_stays_when_its_person_is_back() -> None:
    up = lineup(players=3)
    up.resign(0, [0, 1, 2])
    bot = Bot()
    up.stood_in(0, bot)
    assert not up.absent(0)  # resigned, not away
    assert up.back(0) is None and up.plays(0, bot)


def test_a_claim_needs_two_players_and_an_absent_opponent() -> None:
    up = lineup()
    with pytest.raises(TableError) as e:
        up.claim(0)
    assert e.value.code == "cannot_claim"
    up.stood_in(1, Bot())
    assert up.claim(0) == Ends("claimed", claimed_by=0)
    with pytest.raises(TableError):
        up.claim(1)  # its opponent is here
    three = lineup(players=3)
    three.stood_in(1, Bot())
    with pytest.raises(TableError):
        three.claim(0)


def test_an_operator_closes_a_game_with_a_seat_resigning() -> None:
    up = lineup(players=3)
    with pytest.raises(TableError) as e:
        up.close(3)
    assert e.value.code == "not_seated" and up.resigned == []
    up.resign(1, [0, 1, 2])
    assert up.close(1) == Ends("resigned") and up.resigned == [1]  # once
    assert up.close(0) == Ends("resigned") and up.resigned == [1, 0]


def test_the_clock_is_due_when_the_move_and_its_reserve_are_used() -> None:
    up = lineup()
    assert lineup(timing=TimeRules()).new_clock(0, 5.0) is None  # unclocked
    clock = up.clock = up.new_clock(0, 100.0)
    assert clock is not None
    assert up.next_due() == 100.0 + 20 + 10
    assert up.time_up(129.0) is None and up.time_up(130.0) == TimeUp(0)
    view = up.clock_view(110.0)
    assert view is not None and view.running == 0 and view.left_ms[0] == 20_000
    after = up.clock_after(1, 125.0)  # seat 0 moved 5 s into its reserve
    assert after is not None and after.seat == 1 and after.reserve == [5.0, 10.0]
    assert clock.seat == 0 and clock.reserve == [10.0, 10.0]  # kept only if taken
    assert up.clock_after(None, 125.0) is not None  # the last take: no move runs
    assert lineup(timing=TimeRules()).clock_after(1, 5.0) is None
    up.finished(140.0)
    assert clock.seat is None and up.time_up(1e9) is None and up.next_due() is None


def test_the_end_dismisses_every_stand_in() -> None:
    up = lineup(players=3)
    a, b = Bot(), Bot()
    up.stood_in(0, a)
    up.stood_in(2, b)
    assert up.dismiss() == [a, b] and up.stand_ins == {} and up.dismiss() == []


def test_the_life_a_store_keeps() -> None:
    up = lineup(timing=TimeRules())
    assert up.life("n1", rated=False) is None  # nothing beyond the record
    assert up.life("n1", rated=True) == TableLife(server="n1", own=(0, 0)).to_dict()
    up.resign(1, [0, 1])
    up.stood_in(1, Bot())
    up.person_takes(0)
    clock = Clock(CLOCKED, 2)
    life = up.life("n1", rated=False, clock=clock)
    assert life == {
        "resigned": [1],
        "replaced": [1],
        "timed_out": [],
        "clock": clock.to_dict(),
        "server": "n1",
        "own": [1, 0],
    }


def test_a_restored_lineup_has_everyone_away_and_the_resigned_stood_in() -> None:
    up = lineup(players=3)
    life = TableLife(resigned=(2,), replaced=(2, 0), timed_out=(0,))
    clock = Clock(CLOCKED, 3)
    todo = up.restore(life, [0, 1, 2], 50.0, own=[3, 1, 0], clock=clock)
    assert todo == [TakeOver(2)]
    assert up.absent_since == {0: 50.0, 1: 50.0}
    assert up.resigned == [2] and up.replaced == {0, 2} and up.timed_out == {0}
    assert up.own == [3, 1, 0] and up.clock is clock


def test_the_result_is_judged_on_the_lineup() -> None:
    _, game = Record.deal(Options(players=3, seed=7))
    up = lineup(players=3)
    up.resign(1, [0, 1, 2])
    up.stood_in(1, Bot())
    up.resign(2, [0, 1, 2])
    result = up.judge(game, "resigned")
    assert result.winners == (0,) and result.resigned == (1, 2) and 1 in result.replaced
    claimed = lineup().judge(Record.deal(Options(seed=7))[1], "claimed", claimed_by=1)
    assert claimed.winners == (1,)
