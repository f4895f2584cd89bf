"""How a game ended, in words, on the score screen: three seats are named "A, B and
C", and a game whose every seat timed out says that nobody wins (its title says "no
winner"; the places under it rank the totals only)."""

from __future__ import annotations

from client.ui.render import ending_words
from client.ui.score import rematch_line
from protocol import messages as m
from protocol.convert import view_model
from shared.options import Options
from shared.record import Record
from shared.view import view

COLOURS = ("white", "black", "lilac")
NAMES = ("Ann", "Bob", "Cyd")


def result(timed_out: tuple[int, ...], winners: tuple[int, ...]) -> m.ResultInfo:
    return m.ResultInfo(
        ending="timed_out",
        winners=winners,
        places=(3, 1, 2),
        totals=(-14, 14, -1),
        timed_out=timed_out,
    )


def test_every_seat_timed_out_nobody_wins() -> None:
    said = ending_words(result((0, 1, 2), ()), COLOURS, NAMES)
    assert said.startswith(
        "Time ran out for White (Ann), Black (Bob) and Lilac (Cyd) move after move: "
        "nobody wins, the places rank the totals. Places: Black (Bob) 1st"
    ), said


def test_two_seats_timed_out_the_other_wins() -> None:
    said = ending_words(result((0, 2), (1,)), COLOURS, NAMES)
    assert said.startswith("Time ran out for White (Ann) and Lilac (Cyd) move after move. "), said


def test_the_rematch_line_is_one_line_at_60_columns() -> None:
    """At 60x20 "Rematch (same people, colours move on): nobody has asked yet. r: ask
    for it" took two rows under a score table that already pages."""
    v = view_model(view(Record.new(Options(seed=3, players=3)).start([]), 0))
    seats = [m.SeatInfo(seat=i, name=n, rematch=i == 1) for i, n in enumerate(NAMES)]
    assert rematch_line(v, seats[:1], False, 80) == (
        "Rematch (same people, colours move on): nobody has asked yet. r: ask for it"
    )
    assert rematch_line(v, seats[:1], False, 60) == (
        "Rematch (colours move on): nobody asked yet. r: ask for it"
    )
    short = rematch_line(v, seats, False, 60)
    assert short == "Rematch (colours move on): asked by Black. r: ask for it", short
