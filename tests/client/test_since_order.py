"""The "since your take" lines tell a seat's turns and notes (went away, came back,
resigned) in the order they happened: a seat that came back and then took reads
"away, a computer plays; back; Moss 3 (col 2)", not "...; back" after the take; also in
one line at 60 columns, and in a client started again."""

from __future__ import annotations

from pathlib import Path

from client.lib import Client
from client.tokens import TokenStore
from client.ui.log import keep_log, restore_log
from client.ui.recent import Recent
from client.ui.render import text_of

from .test_pacing import CARDS, COLOURS, moved, refilled, took

AWAY, BACK = "away, a computer plays", "back"


def came_back_then_took() -> Recent:
    r = Recent()
    r.me, r.decided = 0, True  # mid-game: we took before
    r.note(1, AWAY)
    r.feed([moved(1, 4, 7), took(1, "frog-1", 1, 1), refilled("toad-1", 1, 1)])  # a computer
    r.note(1, BACK)
    r.feed([moved(2, 1, 3), took(2, "root-2", 2, 3)])
    r.feed([moved(0, 3, 5), took(0, "toad-3"), moved(1, 7, 9)])  # we took: a new round
    r.note(1, AWAY)
    r.note(1, BACK)
    r.feed([took(1, "moss-3"), refilled("vine-3")])
    return r


def lines(r: Recent, width: int, *, one_line: bool = False) -> list[str]:
    return [text_of(ln) for ln in r.lines(3, COLOURS, CARDS, width, one_line=one_line)]


def test_back_before_the_take_is_told_before_it() -> None:
    r = came_back_then_took()
    said = "away, a computer plays; back; Moss 3 (col 2)"
    assert lines(r, 100) == [f"Black, since your take: {said}, Vine 3 in"]
    assert lines(r, 60, one_line=True) == [f"Black: {said}"]


def test_a_note_after_the_take_follows_it() -> None:
    r = Recent()
    r.me, r.decided = 0, True
    r.feed([moved(1, 4, 7), took(1, "moss-3"), refilled("vine-3")])
    r.note(1, "resigned, a computer plays on")
    assert lines(r, 100) == [
        "Black, since your take: Moss 3 (col 2), Vine 3 in; resigned, a computer plays on"
    ]


def test_a_client_started_again_keeps_the_order(tmp_path: Path) -> None:
    client = Client("ws://127.0.0.1:9", name="Ann", tokens=TokenStore(tmp_path))
    client.table, client.seat = "t", 0
    r = came_back_then_took()
    keep_log(client, [], r)
    again = Recent()
    again.me, again.decided = 0, True
    restore_log(client, again)
    assert lines(again, 100) == lines(r, 100)
