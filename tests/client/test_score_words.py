"""How a game ended, in words, on the score screen: three seats are named "A, B and
C", and a game whose every seat timed out says that nobody wins (its title says "no
winner"; the places under it rank the totals only)."""

from __future__ import annotations

from client.ui.render import ending_words
from protocol import messages as m

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
