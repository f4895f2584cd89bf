"""The "since your take" lines tell a seat's turns and notes (went away, came back,
resigned) in the order they happened: a seat that came back and then took reads
"away, a computer plays; back; Moss 3 (col 2)", not "...; back" after the take; also in
one line at 60 columns, and in a client started again."""

from __future__ import annotations

from pathlib import Path

from client.lib import Client
from client.tokens import TokenStore
from client.ui.app import KupferApp
from client.ui.board import since_lines
from client.ui.log import keep_log, restore_log
from client.ui.recent import Recent
from client.ui.render import text_of
from protocol import messages as m
from tests.helpers.pacing import CARDS, COLOURS, moved, refilled, took
from tests.helpers.screens import took as took_at

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


def test_our_own_turn_now_does_not_put_our_computers_line_last() -> None:
    """Our time ran out and a computer took for us; the others took after it and our
    turn began: "You (a computer)" was ordered by our turn now (after the others'), so
    at 60x20 it stayed while the others' takes gave way to "since your take, more: L"."""
    r = Recent()
    r.me, r.decided = 0, True
    r.feed([moved(0, 1, 3), m.TimedOutEvent(seat=0), took(0, "frog-1", 1, 1)])
    r.feed([moved(1, 4, 7), took(1, "moss-3"), moved(2, 5, 6), took(2, "root-2", 2, 3)])
    r.feed([moved(0, 3, 4)])  # our turn now
    said = lines(r, 60, one_line=True)
    assert [ln.split(",")[0].split(":")[0] for ln in said] == ["You (a computer)", "Black", "Lilac"]


async def test_at_60x20_two_rows_for_three_seats_say_all_three(
    away3: tuple[KupferApp, Client],
) -> None:
    """Two rows for the since lines of three seats read "since your take, more: L" and
    the newest seat's line: the two older seats now share the first row."""
    kapp, _ = away3
    game = kapp.game
    game.recent = Recent()
    game.recent.decided = True
    game.on_update(m.EventsMsg(state_version=1, events=(m.TimedOutEvent(seat=0),)))
    events = (*took_at(0, "toad-3", 1), *took_at(1, "moss-3", 2), *took_at(2, "root-2", 3))
    game.on_update(m.EventsMsg(state_version=2, events=events))
    game.on_update(m.EventsMsg(state_version=3, events=(moved(0, 6, 8),)))
    v = game.table.view
    assert v is not None
    game.table.set_view(v.model_copy(update={"to_move": 0}), game.table.state_version + 1)
    rows = since_lines(game.recent, v, game.cards(), 60, 2)
    said = [text_of(ln) for ln in rows]
    assert "more: L" not in " ".join(said), said
    assert said[0].startswith("You (a computer): ") and "; Black: Moss 3 (col 2)" in said[0]
    assert said[1].startswith("Lilac") and "Root 2 wand (col 3)" in said[1], said


def test_a_boom_that_hit_two_seats_is_not_cut_at_60_columns() -> None:
    """The line "You (a computer): RatTl 2 boom (row 3), boom hit Black, Lil…" was cut by
    one character: the card says "boom" already, so there it is "hit Black, Lilac"."""
    r = Recent()
    r.me, r.decided = 0, True
    boom = m.TookEvent(
        seat=0, card="rat_tail-2", line="row3", row=3, col=3, special=True, ends_game=False
    )
    hits = [m.ExplodedEvent(seat=0, target=t, card="moss-3", to="deck") for t in (1, 2)]
    r.feed([moved(0, 1, 3), m.TimedOutEvent(seat=0), boom, *hits, moved(1, 3, 5)])
    said = lines(r, 60, one_line=True)
    assert said[0] == "You (a computer): RatTl 2 boom (row 3), hit Black, Lilac", said
    wide = lines(r, 80, one_line=True)
    assert wide[0].endswith("RatTl 2 boom (row 3), boom hit Black, Lilac"), wide


def test_what_a_computer_took_for_us_while_we_were_away_is_said() -> None:
    """Back after the connection was gone, a computer had taken a card for us and the
    log said "  Black (Ann): +1 card, top now Root 1"; the since lines told only the
    other seat's "+1 card", as if ours had not changed."""
    r = Recent()
    r.me, r.decided = 1, True
    r.missed()
    r.note(0, "while you were away: +1 card")
    r.note(1, "while you were away: +1 card")
    r.note(1, AWAY)  # our own other notes are not news to us
    assert lines(r, 80) == [
        "White, since your take: while you were away: +1 card",
        "You (a computer), since your take: while you were away: +1 card",
    ]
