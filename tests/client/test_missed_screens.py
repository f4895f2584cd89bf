"""The terminal's words for protocol 1.4 without a terminal: a take a computer made for
a person's seat is marked in the log and decides nothing, it is paced like another
seat's turn even when the seat is ours, and the score screen says how each seat ended,
the computer's takes and the rating's change."""

from __future__ import annotations

from client.ui.log import COMPUTER_MARK, event_entries
from client.ui.pacing import Pacer
from client.ui.recent import Recent
from client.ui.render import text_of
from client.ui.score import seat_end_lines
from protocol import messages as m
from protocol.convert import view_model
from shared.options import Options
from shared.record import Record
from shared.view import view
from tests.helpers.pacing import CARDS, moved, refilled, took

VIEW = view_model(view(Record.new(Options(players=2, seed=3)).start(), 0))


def test_a_computers_take_for_a_seat_is_marked_and_decides_nothing() -> None:
    events = [took(0, "moss-2"), refilled("toad-1"), moved(1, 4, 6)]
    marked = event_entries(events, VIEW, ["Ann", "Bo"], CARDS, by_computer=True)
    line = next(e for e in marked if "takes" in e.text)
    assert line.text.endswith(COMPUTER_MARK) and line.decided is None
    plain = event_entries(events, VIEW, ["Ann", "Bo"], CARDS)
    assert next(e for e in plain if "takes" in e.text).decided == 0
    recent = Recent()
    recent.me = 0
    recent.feed([moved(0, 1, 3)])
    recent.feed(events, by_computer=True)  # not our decision: the turn stays told
    assert recent.turns[0].seat == 0 and recent.turns[0].computer
    assert not recent.decided


def test_a_computers_take_for_our_seat_is_paced() -> None:
    pacer = Pacer(0.8)
    pacer.shown(m.EventsMsg(state_version=1, events=(moved(0, 1, 3),)))
    ours = (took(0, "moss-2"), moved(1, 4, 6))
    assert pacer.delay(m.EventsMsg(state_version=2, events=ours), 0) == 0
    computer = m.EventsMsg(state_version=2, events=ours, by_computer=True)
    assert 0.7 < pacer.delay(computer, 0) <= 0.8


def test_the_score_screen_says_how_each_seat_ended() -> None:
    seats = (
        m.SeatInfo(seat=0, name="Ann", ended="resigned", computer_takes=2, rating_after=-1.8331),
        m.SeatInfo(seat=1, name="Bo", ended="played_out", rating_before=3.0, rating_after=3.4377),
    )
    text = "\n".join(text_of(line) for line in seat_end_lines(VIEW, seats, 80))
    assert "White (Ann): resigned; the computer made 2 takes; rating new -> -1.8 (-1.8)" in text
    assert "Black (Bo): played to the end; rating 3.0 -> 3.4 (+0.4)" in text
    quiet = tuple(
        s.model_copy(update={"ended": "played_out", "computer_takes": 0, "rating_after": None})
        for s in seats
    )
    assert seat_end_lines(VIEW, quiet, 80) == []  # nothing to say: no lines
